package io.jenkins.plugins.copilotautopilot.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.Result;
import hudson.model.Slave;
import hudson.remoting.Channel;
import io.jenkins.plugins.copilotautopilot.benchmark.Round.Side;
import io.jenkins.plugins.copilotautopilot.benchmark.Round.Window;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import io.jenkins.plugins.copilotautopilot.testing.ProcStat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import jenkins.model.Jenkins;
import jenkins.security.MasterToSlaveCallable;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.jenkinsci.plugins.workflow.steps.durable_task.DurableTaskStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.InboundAgentExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * The step next to {@code sh} in a real Jenkins, with an inbound agent in a JVM of its own: N Pipeline builds at once
 * (default 6) run a session of the real Copilot CLI on the same scripted model, either through {@code copilotAutopilot}
 * or through {@code sh} running the same CLI binary with {@code --output-format json} and the same provider settings.
 * {@code sh} runs twice: as workflow-durable-task-step runs it by default (the controller polls the agent for output)
 * and with {@link DurableTaskStep#USE_WATCHING} on (the agent sends output over; the opentelemetry plugin, an optional
 * dependency and so installed in this Jenkins, turns it on for the whole controller when it loads, so the flag is set
 * here before each side's builds). After a warm-up round, measured rounds take the sides in turn, and the side that
 * goes first changes from round to round. Before each side's builds, an idle window as long as that side's previous
 * builds measures what Jenkins costs doing nothing; it is subtracted. Measured: the controller's CPU (this JVM,
 * {@code /proc/self/stat}), the agent JVM's CPU ({@code /proc/PID/stat}), the commands on the agent's channel both ways
 * (a {@link Channel.Listener} on the controller's end: the requests, each a round trip, apart), the channel's bytes,
 * and the console's bytes per build; per session-minute, the sum of the builds' durations. For the step, also how
 * long each turn's and tool's line took to reach the build's log after the CLI wrote its event ({@link ConsoleLatency}).
 * The scripted model runs in a third JVM ({@link ModelProcess}), so that its CPU is neither side's.
 *
 * <p>Not part of the default test run (plugin/pom.xml excludes this package); run it with
 * {@code mvn -pl plugin test -Pbenchmark-next-to-sh} (or {@code -Dtest=NextToShBenchmark}) and {@code COPILOT_CLI}
 * set. Settings (system properties): {@code bench.builds} (6), {@code bench.rounds} (5) and
 * {@code bench.rounds.WORKLOAD}, {@code bench.warmups} (1), {@code bench.workloads} (printing,quiet,streaming),
 * {@code bench.sides} (step,sh,sh-watch; {@code floor}, a build that only waits as long as a session, adds what the
 * Pipeline costs by itself), {@code bench.idleSeconds} (0: as long as the side's previous builds),
 * {@code bench.settleSeconds} (3), {@code bench.webSocket} (true), {@code bench.requestKinds} (false; tallies the
 * commands by kind, with their bytes, at some CPU cost), and the workloads' sizes ({@link Workload}). Writes
 * {@code target/next-to-sh.md} and {@code target/next-to-sh.csv}.
 */
@WithJenkins
class NextToShBenchmark {
    private static final String PROMPT = "Run the benchmark tool, then call task_complete.";

    @RegisterExtension
    private final InboundAgentExtension inbound = new InboundAgentExtension();

    private final int builds = Integer.getInteger("bench.builds", 6);
    private final int warmups = Integer.getInteger("bench.warmups", 1);
    private final long settleMs = TimeUnit.SECONDS.toMillis(Integer.getInteger("bench.settleSeconds", 3));
    private final long idleMs = TimeUnit.SECONDS.toMillis(Integer.getInteger("bench.idleSeconds", 0));
    private final int cores = Runtime.getRuntime().availableProcessors();

    private JenkinsRule j;
    private String agentPid;
    private ChannelTraffic traffic;
    private ConsoleLatency latency;
    private final AtomicReference<double[]> load = new AtomicReference<>(new double[] {Double.MAX_VALUE, 0});

    @Test
    void theStepNextToSh(JenkinsRule rule) throws Exception {
        this.j = rule;
        assertTrue(Files.isDirectory(Path.of("/proc/self")), "the benchmark reads Linux's /proc");
        Path target = Path.of("target").toAbsolutePath();
        List<Workload> workloads = Arrays.stream(System.getProperty("bench.workloads", "printing,quiet,streaming").split(","))
                .map(Workload::of).toList();
        boolean webSocket = Boolean.parseBoolean(System.getProperty("bench.webSocket", "true"));
        List<Side> sides = Arrays.stream(System.getProperty("bench.sides", "step,sh,sh-watch").split(",")).map(Side::of).toList();
        String cli = TestCli.executable().path();

        j.jenkins.setNumExecutors(0);
        InboundAgentExtension.Options options = InboundAgentExtension.Options.newBuilder().name("bench").label("bench")
                .webSocket(webSocket).skipStart().build();
        Slave agent = inbound.createAgent(j, options);
        agent.setNumExecutors(builds);
        // updateNode saves the node but leaves its computer's executors as they were: setNodes updates the computers
        j.jenkins.setNodes(new ArrayList<>(j.jenkins.getNodes()));
        inbound.start(j, options);
        assertEquals(builds, j.jenkins.getNode("bench").toComputer().getNumExecutors(), "the agent's executors");
        Channel channel = (Channel) j.jenkins.getNode("bench").toComputer().getChannel();
        agentPid = String.valueOf(channel.call(new AgentPid()));
        traffic = new ChannelTraffic(Boolean.getBoolean("bench.requestKinds"));
        channel.addListener(traffic);

        Report report = new Report();
        report.header("## The step next to `sh` in Jenkins " + Jenkins.VERSION);
        report.header("");
        report.header("Run on " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + ": " + cores
                + " cores, " + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ", Java "
                + System.getProperty("java.version") + "; Jenkins " + Jenkins.VERSION + ", " + plugins()
                + "; CLI " + cli + "; sides " + String.join(", ", sides.stream().map(x -> x.label).toList())
                + " (`sh` as workflow-durable-task-step runs it by default, polling; `sh` watching with its USE_WATCHING on,"
                + " as the opentelemetry plugin sets it); an inbound " + (webSocket ? "WebSocket " : "TCP ") + "agent (pid " + agentPid
                + ", its own JVM); " + builds + " builds at once per side and round; " + warmups
                + " warm-up round(s) per workload, not counted. CPU per session-minute with an idle window before each"
                + " side's round subtracted; requests both ways on the agent's channel.");

        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-load-sampler");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleAtFixedRate(() -> load.updateAndGet(range -> {
            double now = ProcStat.loadAverage();
            return new double[] {Math.min(range[0], now), Math.max(range[1], now)};
        }), 0, 2, TimeUnit.SECONDS);
        latency = new ConsoleLatency();
        try {
            for (Workload w : workloads) {
                int rounds = Integer.getInteger("bench.rounds." + w.id(), Integer.getInteger("bench.rounds", 5));
                log("workload " + w.id() + ": " + w.describe() + "; " + rounds + " rounds");
                try (ModelProcess model = ModelProcess.start(w, target.resolve("next-to-sh-model.log"))) {
                    Map<Side, List<WorkflowJob>> jobs = new EnumMap<>(Side.class);
                    for (Side side : sides) {
                        List<WorkflowJob> list = new ArrayList<>();
                        for (int i = 1; i <= builds; i++) {
                            WorkflowJob p = j.createProject(WorkflowJob.class, w.id() + "-" + side.label + "-" + i);
                            p.setDefinition(new CpsFlowDefinition(pipeline(side, w, cli, model.baseUrl()), true));
                            list.add(p);
                        }
                        jobs.put(side, list);
                    }
                    Map<Side, Long> lastWall = new EnumMap<>(Side.class);
                    for (int i = 1; i <= warmups; i++) {
                        for (int k = 0; k < sides.size(); k++) {
                            Side side = sides.get(k);
                            Round warm = round(w, 0, side, k + 1, jobs.get(side), null);
                            lastWall.put(side, warm.run().wallMs());
                            log(line("warm-up", warm));
                        }
                    }
                    traffic.takeKinds();
                    latency.take(); // the warm-up's
                    for (int n = 1; n <= rounds; n++) {
                        // the sides take turns at going first: step, sh, sh-watch; then sh, sh-watch, step; ...
                        for (int k = 0; k < sides.size(); k++) {
                            Side side = sides.get((n - 1 + k) % sides.size());
                            Thread.sleep(settleMs);
                            Window idle = idle(idleMs > 0 ? idleMs : lastWall.getOrDefault(side, 30_000L));
                            Round r = round(w, n, side, k + 1, jobs.get(side), idle);
                            lastWall.put(side, r.run().wallMs());
                            report.add(r);
                            report.requestKinds(w, side, traffic.takeKinds());
                            log(line("round " + n, r));
                        }
                    }
                    List<Long> delays = latency.take();
                    report.consoleDelays(w, delays, latency.takeMismatches());
                    if (!delays.isEmpty()) {
                        log(w.id() + ": console delay of " + delays.size() + " lines: p50 " + Report.percentile(delays, 50) + " ms, p99 "
                                + Report.percentile(delays, 99) + " ms, max " + delays.get(delays.size() - 1) + " ms");
                    }
                }
            }
        } finally {
            sampler.shutdownNow();
            latency.close();
            report.write(target.resolve("next-to-sh.md"), target.resolve("next-to-sh.csv"));
            System.out.println(report.markdown());
        }
        assertEquals(List.of(), report.failures(), "every build ends as it should (the report lists them too)");
    }

    /**
     * The Pipeline of one side: the step, {@code sh} running the same CLI with the same settings, or (the floor) a build
     * that holds its agent as long as the workload's session lasts and does nothing else.
     */
    static String pipeline(Side side, Workload w, String cli, String baseUrl) {
        if (side == Side.FLOOR) {
            return "node('bench') {\n  sleep time: " + w.seconds() + ", unit: 'SECONDS'\n}\n";
        }
        if (side == Side.STEP) {
            return "node('bench') {\n  copilotAutopilot prompt: '" + PROMPT + "', copilotPath: '" + cli + "', providerBaseUrl: '"
                    + baseUrl + "', model: 'fake-model', offline: true, allowAllTools: true\n}\n";
        }
        // the same flags and variables the step gives the CLI for these settings, and a COPILOT_HOME of its own
        return "node('bench') {\n  withEnv(['COPILOT_PROVIDER_BASE_URL=" + baseUrl + "', 'COPILOT_MODEL=fake-model',"
                + " 'COPILOT_OFFLINE=true', 'COPILOT_AUTO_UPDATE=false', 'COPILOT_DISABLE_LOGIN_SHELL_ENV=1']) {\n"
                + "    sh '''export COPILOT_HOME=\"${WORKSPACE}@tmp/copilot-home\"\n"
                + "rm -rf \"$COPILOT_HOME\"\n"
                + "'" + cli + "' -p '" + PROMPT + "' --autopilot --output-format json --no-ask-user --no-auto-update"
                + " --allow-all-tools --disable-client-telemetry'''\n  }\n}\n";
    }

    private Round round(Workload w, int number, Side side, int position, List<WorkflowJob> jobs, Window idle) throws Exception {
        // read by each sh step as it starts; the step follows its sessions the same way either way
        DurableTaskStep.USE_WATCHING = side == Side.SH_WATCH;
        Sample before = sample();
        load.set(new double[] {ProcStat.loadAverage(), ProcStat.loadAverage()});
        List<WorkflowRun> runs = new ArrayList<>();
        List<hudson.model.queue.QueueTaskFuture<WorkflowRun>> futures = new ArrayList<>();
        for (WorkflowJob p : jobs) {
            futures.add(p.scheduleBuild2(0));
        }
        if (side == Side.STEP) {
            for (var f : futures) {
                latency.follow(f.waitForStart());
            }
        }
        for (var f : futures) {
            runs.add(f.get(15, TimeUnit.MINUTES));
        }
        Sample after = sample();
        double[] range = load.get();
        List<Long> durations = new ArrayList<>();
        List<Long> console = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int succeeded = 0;
        for (WorkflowRun run : runs) {
            j.waitForCompletion(run);
            latency.collect(run);
            durations.add(run.getDuration());
            console.add(run.getLogText().length());
            String log = String.join("\n", run.getLog(Integer.MAX_VALUE));
            boolean done = side == Side.FLOOR || (side == Side.STEP ? log.contains("[copilot] COMPLETED") : log.contains("task_complete"));
            if (run.getResult() == Result.SUCCESS && done) {
                succeeded++;
            } else {
                failures.add(run.getFullDisplayName() + " " + run.getResult() + (done ? "" : " without task_complete"));
                if (failures.size() == 1) {
                    List<String> lines = run.getLog(40);
                    log("the log of " + run.getFullDisplayName() + " ends with:\n  " + String.join("\n  ", lines));
                }
            }
        }
        return new Round(w, number, side, position, idle, after.minus(before), range[0], range[1], durations, console, succeeded, failures);
    }

    private Window idle(long ms) throws Exception {
        Sample before = sample();
        Thread.sleep(ms);
        return sample().minus(before);
    }

    private record Sample(long nanos, long controllerMs, long agentMs, ChannelTraffic.Counts traffic, long[] machine, int cores) {
        Window minus(Sample o) {
            return new Window(TimeUnit.NANOSECONDS.toMillis(nanos - o.nanos), controllerMs - o.controllerMs, agentMs - o.agentMs,
                    traffic.minus(o.traffic), machine[0] - o.machine[0], machine[1] - o.machine[1], cores);
        }
    }

    private Sample sample() {
        try {
            return new Sample(System.nanoTime(), ProcStat.cpuMillis("self"), ProcStat.cpuMillis(agentPid), traffic.counts(),
                    ProcStat.machineTicks(), cores);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String line(String what, Round r) {
        return String.format(Locale.ROOT, "%s %s %s: %d/%d ok, wall %.1f s, %.2f session-min; controller %d ms (idle %s),"
                        + " agent %d ms (idle %s), requests %d out / %d in, %d KB; per session-minute: controller %.0f ms,"
                        + " agent %.0f ms, %.0f requests; console %s bytes; load %.1f–%.1f; machine %.2f cores%s",
                r.workload().id(), what, r.side().label, r.succeeded(), r.durationsMs().size(), r.run().wallMs() / 1000.0,
                r.sessionMinutes(), r.run().controllerMs(), r.idle() == null ? "-" : r.idle().controllerMs() + " ms in " + r.idle().wallMs() / 1000 + " s",
                r.run().agentMs(), r.idle() == null ? "-" : r.idle().agentMs() + " ms",
                r.run().traffic().requestsOut(), r.run().traffic().requestsIn(), r.run().traffic().bytes() / 1024,
                r.controllerMsPerSessionMinute(), r.agentMsPerSessionMinute(), r.requestsPerSessionMinute(), r.consoleBytes(),
                r.loadMin(), r.loadMax(), r.run().machineCores(), r.failures().isEmpty() ? "" : "; FAILED: " + r.failures());
    }

    private static void log(String message) {
        System.out.println("[next-to-sh " + java.time.LocalTime.now().withNano(0) + "] " + message);
        System.out.flush();
    }

    private static String plugins() {
        StringBuilder text = new StringBuilder();
        for (String name : List.of("workflow-durable-task-step", "durable-task", "workflow-cps", "workflow-job")) {
            var plugin = Jenkins.get().getPluginManager().getPlugin(name);
            if (plugin != null) {
                text.append(text.length() == 0 ? "" : ", ").append(name).append(' ').append(plugin.getVersion());
            }
        }
        return text.toString();
    }

    /** The agent JVM's process id. */
    private static final class AgentPid extends MasterToSlaveCallable<Long, RuntimeException> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long call() {
            return ProcessHandle.current().pid();
        }
    }
}
