package io.jenkins.plugins.copilotautopilot.benchmark;

import static io.jenkins.plugins.copilotautopilot.benchmark.Report.fmt;
import static io.jenkins.plugins.copilotautopilot.benchmark.Report.mb;
import static io.jenkins.plugins.copilotautopilot.benchmark.Report.ms;
import static io.jenkins.plugins.copilotautopilot.benchmark.Report.pct;
import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.files.FileTrees;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import io.jenkins.plugins.copilotautopilot.core.testing.ReplayLauncher;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.SyntheticSession;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the benchmarks of README "Performance" and prints a Markdown table (also written to
 * {@code benchmark/target/results.md}):
 * <ol>
 *   <li>event pipeline throughput on one core over a synthetic 1,000,000-event stream, beside {@code jq} and Node.js;</li>
 *   <li>the same stream in a JVM with a 64 MB heap;</li>
 *   <li>the engine's overhead on a real 2-turn session (real CLI, scripted model), and the runner with JVM start (and
 *   where its time goes: before the CLI starts, the CLI, after it has ended);</li>
 *   <li>log compaction: rendered bytes over raw stdout bytes;</li>
 *   <li>latency from an event's arrival to its rendered line being flushed;</li>
 *   <li>many sessions followed at once as the plugin follows them ({@link ConcurrentSessions}), each N in a child JVM
 *       with a 256 MB heap: heap, CPU, threads, file descriptors, delay from a line's write to its log line.</li>
 * </ol>
 * Options: {@code --events N} (default 1000000), {@code --runs N} (default 10), {@code --sessions N,N,...} (default
 * 1,100,1000), {@code --session-seconds S} (the measuring window, default 60), {@code --speedup F} (replay the
 * captures F times faster than recorded, default 1), {@code --out FILE}.
 */
public final class BenchmarkMain {
    static final int WARMUP_ROUNDS = 2;
    static final int PEER_ROUNDS = 3;
    /** Rounds of the runner's split (at most; fewer when fewer runs are asked for). */
    static final int SPLIT_ROUNDS = 10;
    /** The heap the concurrent sessions run in (1,000 sessions must fit). */
    static final String SESSIONS_HEAP = "-Xmx256m";

    private final Report report = new Report();
    /** Where the benchmark and its child JVMs put their files (each run a folder of its own, deleted at its end). */
    private final Path tempRoot;
    /** The Copilot CLI for the real sessions, as configured (its executable or npm install folder), or null for the PATH. */
    private final String cli;

    BenchmarkMain(Path tempRoot, String cli) {
        this.tempRoot = tempRoot;
        this.cli = cli;
    }

    /** The options as given; {@code help} when they ask for it. */
    record Options(long events, int runs, List<Integer> sessions, double sessionSeconds, double speedup, Path out,
                   boolean help) {
        /** Reads the command line; a bad one is an {@link IllegalArgumentException} whose message is one line. */
        static Options parse(String[] args) {
            long events = 1_000_000;
            int runs = 10;
            List<Integer> sessions = List.of(1, 100, 1000);
            double sessionSeconds = 60;
            double speedup = 1;
            Path out = Path.of("benchmark/target/results.md");
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (option.equals("--help") || option.equals("-h")) {
                    return new Options(events, runs, sessions, sessionSeconds, speedup, out, true);
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(option.startsWith("--") ? option + " needs a value" : "unknown option " + option);
                }
                String value = args[++i];
                try {
                    switch (option) {
                        case "--events" -> events = Long.parseLong(value);
                        case "--runs" -> runs = Integer.parseInt(value);
                        case "--sessions" -> sessions = java.util.Arrays.stream(value.split(",")).map(String::strip).map(Integer::valueOf).toList();
                        case "--session-seconds" -> sessionSeconds = Double.parseDouble(value);
                        case "--speedup" -> speedup = Double.parseDouble(value);
                        case "--out" -> out = Path.of(value);
                        case "--baseline-runner" -> System.setProperty("baseline.runner", value);
                        case "--baseline-sessions" -> System.setProperty("baseline.sessions", value);
                        default -> throw new IllegalArgumentException("unknown option " + option);
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(option + " needs a number, got '" + value + "'");
                }
            }
            return new Options(events, runs, sessions, sessionSeconds, speedup, out, false);
        }
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("benchmark: " + e.getMessage() + " (see --help)");
            System.exit(64);
            return;
        }
        if (options.help()) {
            System.out.println("The options are described by benchmark/run --help, which starts this.");
            return;
        }
        BenchmarkMain main = new BenchmarkMain(Path.of(System.getProperty("java.io.tmpdir")),
                System.getProperty("copilot.cli", System.getenv("COPILOT_CLI")));
        main.run(options.events(), options.runs(), options.sessions(), options.sessionSeconds(), options.speedup());
        Path out = options.out();
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, main.report(), StandardCharsets.UTF_8);
        System.out.println(main.report());
        System.out.println("(written to " + out + ")");
    }

    String report() {
        return report.toString();
    }

    /** Runs every benchmark in a folder of its own under the temporary root, deleted at the end however the run ends. */
    void run(long events, int runs, List<Integer> sessionCounts, double sessionSeconds, double speedup) throws Exception {
        try (OwnedFolder folder = OwnedFolder.create(tempRoot, "copilot-bench-")) {
            measure(folder.path(), events, runs, sessionCounts, sessionSeconds, speedup);
        }
    }

    private void measure(Path work, long events, int runs, List<Integer> sessionCounts, double sessionSeconds, double speedup)
            throws Exception {
        report.line("Machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + ", Java " + Runtime.version() + "; jq: " + Peers.version("jq", "--version")
                + "; node: " + Peers.version("node", "--version") + "; " + LocalDate.now());
        report.line("");

        Path stream = work.resolve("events.jsonl");
        long written;
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(stream), 1 << 20)) {
            written = SyntheticSession.write(o, events);
        }
        long streamBytes = Files.size(stream);

        // 1 + 5: throughput and latency. The JIT warms up first; then engine, jq and Node.js take turns
        // (this machine's speed drifts), and each reports its median.
        for (int i = 0; i < WARMUP_ROUNDS; i++) {
            pipelineRun(stream, work.resolve("warmup-" + i));
        }
        List<PipelineRun.Result> engineRuns = new ArrayList<>();
        List<Long> jqRuns = new ArrayList<>();
        List<Long> nodeRuns = new ArrayList<>();
        for (int i = 0; i < PEER_ROUNDS; i++) {
            engineRuns.add(pipelineRun(stream, work.resolve("pipeline-" + i)));
            jqRuns.add(Peers.jq(stream));
            nodeRuns.add(Peers.node(stream, work));
        }
        engineRuns.sort(java.util.Comparator.comparingLong(PipelineRun.Result::wallNanos));
        PipelineRun.Result r = engineRuns.get(engineRuns.size() / 2);
        long jq = (long) Stats.median(jqRuns);
        long node = (long) Stats.median(nodeRuns);
        report.line("| Measure | Result | Target |");
        report.line("|---|---|---|");
        report.row("Event pipeline, " + fmt(written) + " events (" + mb(streamBytes) + ") on one thread, median of " + PEER_ROUNDS,
                fmt((long) r.eventsPerSecond()) + " events/s (" + fmt((long) r.eventsPerCpuSecond()) + " per CPU-second)",
                "≥ 200,000 events/s");
        report.row("`jq -c .type` on the same file, median of " + PEER_ROUNDS, jq < 0 ? "jq missing" : fmt((long) (written * 1e9 / jq)) + " events/s",
                "slower than the engine");
        report.row("Node.js `JSON.parse` line loop, median of " + PEER_ROUNDS, node < 0 ? "node missing" : fmt((long) (written * 1e9 / node)) + " events/s",
                "slower than the engine");
        report.row("Latency, chunk arrival → rendered line flushed (" + fmt(r.latencyCount()) + " lines, same run)",
                String.format(Locale.ROOT, "p50 %.3f ms, p99 %.3f ms, max %.3f ms", ms(Stats.percentile(r.latencies(), r.latencyCount(), 50)),
                        ms(Stats.percentile(r.latencies(), r.latencyCount(), 99)), ms(Stats.percentile(r.latencies(), r.latencyCount(), 100))),
                "p99 < 5 ms");

        // 2: memory: the whole stream, and a tenth of it, each in a JVM with a 64 MB heap
        Path tenth = work.resolve("events-tenth.jsonl");
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(tenth), 1 << 20)) {
            SyntheticSession.write(o, events / 10);
        }
        String small = ChildJvm.pipeline(tenth, work);
        String large = ChildJvm.pipeline(stream, work);
        boolean finished = large.contains("outcome=COMPLETED") && small.contains("outcome=COMPLETED");
        report.row("Same stream with `-Xmx64m`", finished
                ? "finished; peak heap " + mb(ChildJvm.field(large, "peakHeapBytes")) + "; live heap after the run " + mb(ChildJvm.field(small, "liveHeapBytes"))
                        + " (a tenth of the events) vs " + mb(ChildJvm.field(large, "liveHeapBytes")) + " (all)"
                : "FAILED: " + large, "finishes; heap does not grow with length");

        // 4: compaction on the captures
        for (String capture : List.of("cli-happy", "cli-nudge", "cli-never-max2", "cli-longstream")) {
            long raw = Captures.stdout(capture).length;
            AtomicLong rendered = new AtomicLong();
            AutopilotEngine.builder(l -> rendered.addAndGet(l.getBytes(StandardCharsets.UTF_8).length + 1)).build()
                    .run(Commands.build(TaskSpec.of("x").githubToken("github_pat_x_0123"),
                            new CliExecutable("/benchmark/copilot", null), work.toString(), work.resolve("control").toString(),
                            java.util.Map.of()), ReplayLauncher.ofCapture(capture));
            report.row("Log size / stdout size, capture `" + capture + "`", pct(rendered.get(), raw) + " (" + fmt(rendered.get()) + " of " + fmt(raw) + " bytes)",
                    "—");
        }

        // 3 and 4 (live): real sessions
        CliExecutable cli = new CliLocator().locate(this.cli, System.getenv("PATH"), "COPILOT_CLI or -Dcopilot.cli");
        try (ScriptedModelServer server = ScriptedModelServer.start(RealSessions.script())) {
            RealSessions sessions = new RealSessions(cli, server, work);
            long[] stream2 = sessions.streamingBytes();
            report.row("Log size / stdout size, live streaming session (800 words in ~1,000 deltas)",
                    pct(stream2[1], stream2[0]) + " (" + fmt(stream2[1]) + " of " + fmt(stream2[0]) + " bytes)", "≤ 10 %");
            Path script = Path.of(System.getProperty("runner.script", "copilot-autopilot"));
            boolean withRunner = Files.isRegularFile(script);
            // the runner of another checkout (an earlier commit), measured in the same rounds: before and after side by side
            String baselineProperty = System.getProperty("baseline.runner", "");
            Path baselineScript = baselineProperty.isEmpty() ? null : Path.of(baselineProperty);
            if (baselineScript != null && !Files.isRegularFile(baselineScript)) {
                throw new IllegalArgumentException("--baseline-runner: no runner script at " + baselineScript);
            }
            sessions.bare();
            sessions.engine();
            if (withRunner) {
                sessions.runner(script);
            }
            if (baselineScript != null) {
                sessions.runner(baselineScript);
            }
            List<Long> bare = new ArrayList<>();
            List<Long> engine = new ArrayList<>();
            List<Long> runner = new ArrayList<>();
            List<Long> baselineRunner = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                bare.add(sessions.bare());
                engine.add(sessions.engine());
                if (withRunner) {
                    runner.add(sessions.runner(script));
                }
                if (baselineScript != null) {
                    baselineRunner.add(sessions.runner(baselineScript));
                }
            }
            double b = Stats.median(bare);
            double e = Stats.median(engine);
            report.row("Real 2-turn session, bare CLI (median of " + runs + ")", String.format(Locale.ROOT, "%.0f ms", ms(b)), "—");
            report.row("Same session through the engine, in-process (median of " + runs + ", alternated)",
                    String.format(Locale.ROOT, "%.0f ms: %+.0f ms, %+.1f %%", ms(e), ms(e - b), (e - b) * 100 / b), "≤ +50 ms or ≤ +2 %");
            if (withRunner) {
                double rr = Stats.median(runner);
                report.row("Same session through the standalone runner `./copilot-autopilot`, JVM start included (median of " + runs
                                + ", alternated)", String.format(Locale.ROOT, "%.0f ms: %+.0f ms over the bare CLI", ms(rr), ms(rr - b)),
                        "≤ +300 ms");
            }
            if (baselineScript != null) {
                double rb = Stats.median(baselineRunner);
                report.row("The same through the runner of the baseline checkout (" + baselineScript + ", median of " + runs
                                + ", same rounds)", String.format(Locale.ROOT, "%.0f ms: %+.0f ms over the bare CLI", ms(rb), ms(rb - b)), "—");
            }
            if (withRunner) {
                runnerSplit(sessions, cli, work, script, baselineScript, Math.min(runs, SPLIT_ROUNDS));
            }
        }

        // an answer of 1,000 findings: checked, held to the workspace, written for warnings-ng
        AnswerCheck.Result a = AnswerCheck.run(work);
        report.row("Answer of " + fmt(AnswerCheck.FINDINGS) + " review findings (" + fmt(AnswerCheck.answer().length() / 1024) + " KB) checked"
                + " against the findings schema, median of " + AnswerCheck.ROUNDS, String.format(Locale.ROOT, "%.2f ms (%d errors)", a.checkMillis(), a.errors()),
                "a few ms");
        report.row("The same findings held to the workspace and written as analysis-model's issues file", String.format(Locale.ROOT,
                "%.2f ms (%s findings)", a.publishMillis(), fmt(a.findings())), "a few ms");
        report.row("Python `jsonschema` (Draft 2020-12) validating the same answer, median of " + AnswerCheck.ROUNDS, a.pythonMillis() < 0
                ? "python3 jsonschema missing" : String.format(Locale.ROOT, "%.2f ms", a.pythonMillis()), "—");

        // 6: many sessions at once, as the controller follows them
        new SessionsRows(report).add(sessionCounts, sessionSeconds, speedup, work);
    }

    /** One pipeline run in its own folder, which is deleted after it (its journal is as large as the stream). */
    private static PipelineRun.Result pipelineRun(Path stream, Path dir) throws IOException {
        Files.createDirectories(dir);
        try {
            return PipelineRun.run(stream, dir);
        } finally {
            FileTrees.delete(dir);
        }
    }

    /**
     * Where the runner's time goes: the same sessions with the CLI behind a wrapper that notes its start and end
     * ({@link StampedCli}), the bare CLI and the runner (and the baseline's) alternated; medians of each part.
     */
    private void runnerSplit(RealSessions sessions, CliExecutable cli, Path work, Path script, Path baselineScript, int rounds)
            throws IOException, InterruptedException {
        String label = "Where the runner's time goes (median of " + rounds + ", alternated; the CLI behind a script that notes"
                + " its start and end): before the CLI starts / the CLI / after it has ended";
        StampedCli stamped;
        try {
            stamped = StampedCli.around(cli, work);
        } catch (IOException e) {
            report.row(label, "not measured: " + e.getMessage(), "—");
            return;
        }
        RealSessions wrapped = sessions.with(stamped.executable());
        List<StampedCli.Split> bare = new ArrayList<>();
        List<StampedCli.Split> runner = new ArrayList<>();
        List<StampedCli.Split> baseline = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            stamped.reset();
            bare.add(stamped.split(wrapped.bareSpan()));
            stamped.reset();
            runner.add(stamped.split(wrapped.runnerSpan(script)));
            if (baselineScript != null) {
                stamped.reset();
                baseline.add(stamped.split(wrapped.runnerSpan(baselineScript)));
            }
        }
        report.row(label, "runner " + medians(runner) + "; bare CLI " + medians(bare), "—");
        if (baselineScript != null) {
            report.row("The same, the runner of the baseline checkout (same rounds)", "runner " + medians(baseline), "—");
        }
    }

    /** The medians of each part, which need not add up to the median of the whole. */
    private static String medians(List<StampedCli.Split> splits) {
        return String.format(Locale.ROOT, "%.0f / %.0f / %.0f ms", ms(Stats.median(splits.stream().map(StampedCli.Split::before).toList())),
                ms(Stats.median(splits.stream().map(StampedCli.Split::cli).toList())),
                ms(Stats.median(splits.stream().map(StampedCli.Split::after).toList())));
    }
}
