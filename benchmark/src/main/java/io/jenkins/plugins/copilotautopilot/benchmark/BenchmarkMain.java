package io.jenkins.plugins.copilotautopilot.benchmark;

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
import java.util.concurrent.TimeUnit;
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

    private final StringBuilder report = new StringBuilder();
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
        Files.writeString(out, main.report, StandardCharsets.UTF_8);
        System.out.println(main.report);
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
        line("Machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + ", Java " + Runtime.version() + "; jq: " + Peers.version("jq", "--version")
                + "; node: " + Peers.version("node", "--version") + "; " + LocalDate.now());
        line("");

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
        line("| Measure | Result | Target |");
        line("|---|---|---|");
        row("Event pipeline, " + fmt(written) + " events (" + mb(streamBytes) + ") on one thread, median of " + PEER_ROUNDS,
                fmt((long) r.eventsPerSecond()) + " events/s (" + fmt((long) r.eventsPerCpuSecond()) + " per CPU-second)",
                "≥ 200,000 events/s");
        row("`jq -c .type` on the same file, median of " + PEER_ROUNDS, jq < 0 ? "jq missing" : fmt((long) (written * 1e9 / jq)) + " events/s",
                "slower than the engine");
        row("Node.js `JSON.parse` line loop, median of " + PEER_ROUNDS, node < 0 ? "node missing" : fmt((long) (written * 1e9 / node)) + " events/s",
                "slower than the engine");
        row("Latency, chunk arrival → rendered line flushed (" + fmt(r.latencyCount()) + " lines, same run)",
                String.format(Locale.ROOT, "p50 %.3f ms, p99 %.3f ms, max %.3f ms", ms(Stats.percentile(r.latencies(), r.latencyCount(), 50)),
                        ms(Stats.percentile(r.latencies(), r.latencyCount(), 99)), ms(Stats.percentile(r.latencies(), r.latencyCount(), 100))),
                "p99 < 5 ms");

        // 2: memory: the whole stream, and a tenth of it, each in a JVM with a 64 MB heap
        Path tenth = work.resolve("events-tenth.jsonl");
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(tenth), 1 << 20)) {
            SyntheticSession.write(o, events / 10);
        }
        String small = childRun(tenth, work);
        String large = childRun(stream, work);
        boolean finished = large.contains("outcome=COMPLETED") && small.contains("outcome=COMPLETED");
        row("Same stream with `-Xmx64m`", finished
                ? "finished; peak heap " + mb(field(large, "peakHeapBytes")) + "; live heap after the run " + mb(field(small, "liveHeapBytes"))
                        + " (a tenth of the events) vs " + mb(field(large, "liveHeapBytes")) + " (all)"
                : "FAILED: " + large, "finishes; heap does not grow with length");

        // 4: compaction on the captures
        for (String capture : List.of("cli-happy", "cli-nudge", "cli-never-max2", "cli-longstream")) {
            long raw = Captures.stdout(capture).length;
            AtomicLong rendered = new AtomicLong();
            AutopilotEngine.builder(l -> rendered.addAndGet(l.getBytes(StandardCharsets.UTF_8).length + 1)).build()
                    .run(Commands.build(TaskSpec.of("x").githubToken("github_pat_x_0123"),
                            new CliExecutable("/benchmark/copilot", null), work.toString(), work.resolve("control").toString(),
                            java.util.Map.of()), ReplayLauncher.ofCapture(capture));
            row("Log size / stdout size, capture `" + capture + "`", pct(rendered.get(), raw) + " (" + fmt(rendered.get()) + " of " + fmt(raw) + " bytes)",
                    "—");
        }

        // 3 and 4 (live): real sessions
        CliExecutable cli = new CliLocator().locate(this.cli, System.getenv("PATH"), "COPILOT_CLI or -Dcopilot.cli");
        try (ScriptedModelServer server = ScriptedModelServer.start(RealSessions.script())) {
            RealSessions sessions = new RealSessions(cli, server, work);
            long[] stream2 = sessions.streamingBytes();
            row("Log size / stdout size, live streaming session (800 words in ~1,000 deltas)",
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
            row("Real 2-turn session, bare CLI (median of " + runs + ")", String.format(Locale.ROOT, "%.0f ms", ms(b)), "—");
            row("Same session through the engine, in-process (median of " + runs + ", alternated)",
                    String.format(Locale.ROOT, "%.0f ms: %+.0f ms, %+.1f %%", ms(e), ms(e - b), (e - b) * 100 / b), "≤ +50 ms or ≤ +2 %");
            if (withRunner) {
                double rr = Stats.median(runner);
                row("Same session through the standalone runner `./copilot-autopilot`, JVM start included (median of " + runs
                                + ", alternated)", String.format(Locale.ROOT, "%.0f ms: %+.0f ms over the bare CLI", ms(rr), ms(rr - b)),
                        "≤ +300 ms");
            }
            if (baselineScript != null) {
                double rb = Stats.median(baselineRunner);
                row("The same through the runner of the baseline checkout (" + baselineScript + ", median of " + runs
                                + ", same rounds)", String.format(Locale.ROOT, "%.0f ms: %+.0f ms over the bare CLI", ms(rb), ms(rb - b)), "—");
            }
            if (withRunner) {
                runnerSplit(sessions, cli, work, script, baselineScript, Math.min(runs, SPLIT_ROUNDS));
            }
        }

        // an answer of 1,000 findings: checked, held to the workspace, written for warnings-ng
        AnswerCheck.Result a = AnswerCheck.run(work);
        row("Answer of " + fmt(AnswerCheck.FINDINGS) + " review findings (" + fmt(AnswerCheck.answer().length() / 1024) + " KB) checked"
                + " against the findings schema, median of " + AnswerCheck.ROUNDS, String.format(Locale.ROOT, "%.2f ms (%d errors)", a.checkMillis(), a.errors()),
                "a few ms");
        row("The same findings held to the workspace and written as analysis-model's issues file", String.format(Locale.ROOT,
                "%.2f ms (%s findings)", a.publishMillis(), fmt(a.findings())), "a few ms");
        row("Python `jsonschema` (Draft 2020-12) validating the same answer, median of " + AnswerCheck.ROUNDS, a.pythonMillis() < 0
                ? "python3 jsonschema missing" : String.format(Locale.ROOT, "%.2f ms", a.pythonMillis()), "—");

        // 6: many sessions at once, as the controller follows them
        concurrentSessions(sessionCounts, sessionSeconds, speedup, work);
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
            row(label, "not measured: " + e.getMessage(), "—");
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
        row(label, "runner " + medians(runner) + "; bare CLI " + medians(bare), "—");
        if (baselineScript != null) {
            row("The same, the runner of the baseline checkout (same rounds)", "runner " + medians(baseline), "—");
        }
    }

    /** The medians of each part, which need not add up to the median of the whole. */
    private static String medians(List<StampedCli.Split> splits) {
        return String.format(Locale.ROOT, "%.0f / %.0f / %.0f ms", ms(Stats.median(splits.stream().map(StampedCli.Split::before).toList())),
                ms(Stats.median(splits.stream().map(StampedCli.Split::cli).toList())),
                ms(Stats.median(splits.stream().map(StampedCli.Split::after).toList())));
    }

    private void concurrentSessions(List<Integer> counts, double seconds, double speedup, Path work) throws Exception {
        List<ConcurrentSessions.Result> results = new ArrayList<>();
        for (int n : counts) {
            results.add(ConcurrentSessions.Result.parse(child(work, List.of(SESSIONS_HEAP), ConcurrentSessions.class.getName(),
                    String.valueOf(n), String.valueOf(seconds), String.valueOf(speedup))));
        }
        String ns = join(results, r -> fmt(r.sessions()), " / ");
        long mismatches = results.stream().mapToLong(ConcurrentSessions.Result::mismatches).sum();
        String mismatch = results.stream().map(ConcurrentSessions.Result::mismatch).filter(java.util.Objects::nonNull).findFirst().orElse(null);
        row("Concurrent sessions, N = " + ns + " in a JVM with `" + SESSIONS_HEAP + "` each: every session replays a real capture at "
                        + (speedup == 1 ? "its recorded pace" : speedup + "× its recorded pace") + " into its control folder; the agent's side"
                        + " (the plugin's watch handler, " + ConcurrentSessions.AGENT_THREADS + " threads) reads it every "
                        + ConcurrentSessions.HANDOVER_MILLIS + " ms and hands what is new over, serialized, to the controller's side (its own"
                        + " engine, masker, log sink and journal on disk, followed on " + ConcurrentSessions.REMOTING_THREADS
                        + " channel threads and looked at by one shared scheduler with the plugin's " + ConcurrentSessions.FOLLOWER_THREADS
                        + " threads and timings; window " + String.format(Locale.ROOT, "%.0f", seconds) + " s)",
                (mismatches == 0 ? "all ran" : "FAILED: " + mismatches + " sessions ended unlike their capture (" + mismatch + ")")
                        + "; CLI lines/s " + join(results, r -> fmt(Math.round(r.lines() / r.windowSeconds())), " / ")
                        + "; hand-overs/s " + join(results, r -> fmt(Math.round(r.handovers() / r.windowSeconds())), " / ")
                        + "; follower looks/s " + join(results, r -> fmt(Math.round(r.looks() / r.windowSeconds())), " / ")
                        + "; sessions ended and replaced " + join(results, r -> fmt(r.finished()), " / "),
                "1,000 sessions run in `" + SESSIONS_HEAP + "`");
        row("Live heap per running session (after full GCs while all N run, minus N = 0, divided by N), N = " + ns,
                join(results, r -> String.format(Locale.ROOT, "%.1f KB", r.heapPerSession() / 1024), " / ")
                        + " (" + mb(results.get(results.size() - 1).heap() - results.get(results.size() - 1).baselineHeap()) + " for "
                        + fmt(results.get(results.size() - 1).sessions()) + ")",
                "— (old plugin: 600–750 KB)");
        row("Controller CPU per session-minute (CPU time of the follower and channel threads), N = " + ns,
                join(results, r -> String.format(Locale.ROOT, "%.1f ms", r.cpuPerSessionMinute() * 1000), " / "), "—");
        ConcurrentSessions.Result last = results.get(results.size() - 1);
        row("Controller CPU, " + fmt(last.sessions()) + " sessions",
                String.format(Locale.ROOT, "%.1f %% of one core (%.1f %% following hand-overs, %.1f %% the scheduler's looks): %.1f µs per"
                                + " CLI line; of it %.1f %% writing the step's checkpoint files",
                        last.coreShare() * 100, last.remotingCpuSeconds() / last.windowSeconds() * 100,
                        last.followerCpuSeconds() / last.windowSeconds() * 100, last.cpuMicrosPerLine(),
                        last.checkpointCpuSeconds() / last.windowSeconds() * 100),
                "≤ 10 % of one core (old plugin: ~60 µs per event)");
        // the same sessions followed as the plugin did before issue 32, in this run: a checkpoint after every hand-over, and
        // each chunk serialized field by field
        ConcurrentSessions.Result before = ConcurrentSessions.Result.parse(child(work, List.of(SESSIONS_HEAP,
                        "-Dbench.handoverCheckpointMillis=0", FIELD_BY_FIELD), ConcurrentSessions.class.getName(),
                String.valueOf(last.sessions()), String.valueOf(seconds), String.valueOf(speedup)));
        row("The same, " + fmt(before.sessions()) + " sessions, followed as the plugin did before issue 32 (a checkpoint after every"
                        + " hand-over, each chunk serialized with the descriptor of its sixteen fields)",
                String.format(Locale.ROOT, "%.1f %% of one core (%.1f %% following hand-overs): %.1f µs per CLI line; of it %.1f %%"
                                + " writing the step's checkpoint files; delay p99 %.0f ms",
                        before.coreShare() * 100, before.remotingCpuSeconds() / before.windowSeconds() * 100, before.cpuMicrosPerLine(),
                        before.checkpointCpuSeconds() / before.windowSeconds() * 100, before.p99() / 1e6),
                "—");
        String baseline = System.getProperty("baseline.sessions", "");
        if (!baseline.isEmpty()) {
            baselineSessions(Path.of(baseline), last.sessions(), seconds, speedup, work);
        }
        row("Agents' CPU, " + fmt(last.sessions()) + " sessions (the watch handlers' looks and hand-overs, in Jenkins spread over the agents)",
                String.format(Locale.ROOT, "%.1f %% of one core: %.1f µs per look", last.agentCoreShare() * 100,
                        last.agentCpuSeconds() * 1e6 / (last.sessions() * last.windowSeconds() * 1000.0 / ConcurrentSessions.HANDOVER_MILLIS)),
                "—");
        row("Threads / open file descriptors, N = 0 / " + ns,
                "threads " + last.baselineThreads() + " / " + join(results, r -> String.valueOf(r.threads()), " / ")
                        + "; descriptors " + last.baselineFds() + " / " + join(results, r -> fmt(r.fds()), " / "),
                "threads do not grow with N");
        row("Delay, line written to the output file → its rendered line in the log sink, N = " + ns,
                join(results, r -> String.format(Locale.ROOT, "p50 %.0f ms, p99 %.0f ms", r.p50() / 1e6, r.p99() / 1e6), " / "),
                "p99 ≤ 500 ms");
    }

    /** Each chunk serialized with the descriptor of its fields, as the plugin did before its own wire form ({@link HandedOver#EXTERNALIZABLE}). */
    private static final String FIELD_BY_FIELD = "-Dbench.chunkExternalizable=false";

    /** Rounds of the largest N with this checkout's code and another's, alternated, for {@code --baseline-sessions}. */
    static final int BASELINE_ROUNDS = 3;

    /**
     * The largest N again, {@value #BASELINE_ROUNDS} times with this checkout's code and as often with the code of
     * {@code checkout} (another commit's worktree, built), alternated so that both see the same machine: one row of
     * their medians.
     */
    private void baselineSessions(Path checkout, int sessions, double seconds, double speedup, Path work) throws Exception {
        Path classes = checkout.resolve("benchmark/target/classes");
        Path classpath = checkout.resolve("benchmark/target/classpath.txt");
        if (!Files.isDirectory(classes) || !Files.isRegularFile(classpath)) {
            throw new IllegalArgumentException("--baseline-sessions: no built benchmark in " + checkout
                    + " (build it there with: mvn -DskipPlugin -DskipTests package)");
        }
        String baselineClasspath = classes + java.io.File.pathSeparator + Files.readString(classpath).strip();
        List<ConcurrentSessions.Result> now = new ArrayList<>();
        List<ConcurrentSessions.Result> then = new ArrayList<>();
        String[] args = {String.valueOf(sessions), String.valueOf(seconds), String.valueOf(speedup)};
        String thisClasspath = System.getProperty("java.class.path");
        for (int round = 0; round < BASELINE_ROUNDS; round++) {
            now.add(ConcurrentSessions.Result.parse(childOn(thisClasspath, work, List.of(SESSIONS_HEAP), ConcurrentSessions.class.getName(), args)));
            then.add(ConcurrentSessions.Result.parse(childOn(baselineClasspath, work, List.of(SESSIONS_HEAP),
                    ConcurrentSessions.class.getName(), args)));
        }
        row("Controller CPU, " + fmt(sessions) + " sessions, this checkout / the baseline " + checkout + " ("
                        + BASELINE_ROUNDS + " alternated runs each, medians)",
                controllerMedians(now) + " / " + controllerMedians(then), "≤ 10 % of one core");
    }

    private static String controllerMedians(List<ConcurrentSessions.Result> results) {
        return String.format(Locale.ROOT, "%.1f %% of one core, %.1f µs per CLI line at %s lines/s",
                median(results, r -> r.coreShare() * 100), median(results, ConcurrentSessions.Result::cpuMicrosPerLine),
                fmt(Math.round(median(results, r -> r.lines() / r.windowSeconds()))));
    }

    private static double median(List<ConcurrentSessions.Result> results, java.util.function.ToDoubleFunction<ConcurrentSessions.Result> f) {
        return Stats.median(results.stream().mapToDouble(f).toArray());
    }

    private static String join(List<ConcurrentSessions.Result> results, java.util.function.Function<ConcurrentSessions.Result, String> f,
                               String separator) {
        return results.stream().map(f).collect(java.util.stream.Collectors.joining(separator));
    }

    /**
     * Runs {@code mainClass} in a JVM with {@code jvmOptions} and this classpath, its temporary files in {@code work};
     * its last line of output.
     */
    private static String child(Path work, List<String> jvmOptions, String mainClass, String... args) throws Exception {
        return childOn(System.getProperty("java.class.path"), work, jvmOptions, mainClass, args);
    }

    /** Like {@link #child(Path, List, String, String...)}, with the classes of {@code classpath}. */
    private static String childOn(String classpath, Path work, List<String> jvmOptions, String mainClass, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Djava.io.tmpdir=" + work);
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classpath, mainClass));
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!child.waitFor(30, TimeUnit.MINUTES) || child.exitValue() != 0) {
                throw new IllegalStateException(mainClass + " exited " + child.exitValue() + ": " + out);
            }
            return out.substring(out.lastIndexOf('\n') + 1);
        } finally {
            ended(child);
        }
    }

    /** Runs the pipeline over a stream in a JVM with a 64 MB heap, its files in {@code work}; its one line of output. */
    private static String childRun(Path stream, Path work) throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + work, "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), PipelineMain.class.getName(), stream.toString())
                .redirectErrorStream(true).start();
        try {
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            boolean ok = child.waitFor(10, TimeUnit.MINUTES) && child.exitValue() == 0;
            return ok ? out : "exit " + child.exitValue() + ": " + out;
        } finally {
            ended(child);
        }
    }

    /** A child JVM that is still running when the benchmark goes on (a failure, a time-out) writes nothing more. */
    private static void ended(Process child) throws InterruptedException {
        if (child.isAlive()) {
            child.destroyForcibly();
            child.waitFor();
        }
    }

    private static long field(String line, String name) {
        for (String part : line.split(" ")) {
            if (part.startsWith(name + "=")) {
                return Long.parseLong(part.substring(name.length() + 1));
            }
        }
        return -1;
    }

    private void row(String what, String result, String target) {
        line("| " + what + " | " + result + " | " + target + " |");
        System.err.println(what + ": " + result);
    }

    private void line(String text) {
        report.append(text).append('\n');
    }

    private static double ms(double nanos) {
        return nanos / 1e6;
    }

    private static String fmt(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }

    private static String pct(long part, long whole) {
        return String.format(Locale.ROOT, "%.1f %%", part * 100.0 / whole);
    }
}
