package io.jenkins.plugins.copilotautopilot.benchmark;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.engine.EngineTimings;
import io.jenkins.plugins.copilotautopilot.core.engine.PollingScheduler;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Many sessions followed at once, as the Jenkins plugin follows them with durable-task's watch: N sessions, each
 * replaying a real capture at its recorded pace into its control folder. On the agent's side (the plugin's
 * {@code EventsHandler}, on {@value #AGENT_THREADS} timer threads) each session's folder is read every
 * {@link #HANDOVER_MILLIS} (250 ms, as the plugin) with the plugin's code, and what is new is handed over: serialized, taken on one of the
 * controller's {@value #REMOTING_THREADS} channel threads and followed there at once ({@code AgentSession.deliver},
 * {@code SessionDriver.handedOver}: its own {@link SessionFollower}, engine, masker, live log sink and journal on disk,
 * a checkpoint at most every two seconds); one shared {@link PollingScheduler} with the plugin's 4 threads and timings
 * (100 ms after output, up to 500 ms when quiet) looks at each session as the step does. A writer (one thread) plays
 * the CLIs: it appends each capture's lines to the session's output file when they are due and writes the exit code
 * file after the last; a session that ends is replaced by a new one with the next capture, so N sessions run all the
 * time.
 *
 * <p>Measured in a window after a ramp-up, from per-thread CPU time (so the writer's work is not counted): the
 * controller's (the follower and channel threads) and the agents' (the handlers' looks, reads and serialization);
 * the delay from a line's write (stamped just before the writer appends it) to its rendered line reaching the log
 * sink, matched by their position in the session (see {@link ReplayCapture}); then, with all N sessions still running,
 * the live heap after full collections, threads and open file descriptors. The baseline (N = 0) is taken with the
 * same threads started and the code warmed up. Not measured: remoting's own framing and threads around a call.
 *
 * <p>Run in its own JVM ({@code main}); prints one line of {@code key=value} pairs.
 */
public final class ConcurrentSessions {
    /** The plugin's timings ({@code AutopilotStepRunner.TIMINGS}) and follower threads ({@code Following}). */
    static final EngineTimings PLUGIN_TIMINGS = EngineTimings.CONTROLLER;
    static final int FOLLOWER_THREADS = 4;
    /** The agent's side, durable-task's watch with the plugin's handler: a look at each session this often ({@code EventsHandler}). */
    static final long HANDOVER_MILLIS = Long.getLong("bench.handoverMillis", 250);
    /** How long pieces of streamed text wait to go with what follows them ({@code EventsHandler.HOLD_MILLIS}). */
    static final long HOLD_MILLIS = Long.getLong("bench.holdMillis", 2_000);
    /** Threads of the agent JVM's timer that run the handlers' looks, and of the controller's channel that takes hand-overs. */
    static final int AGENT_THREADS = 2;
    static final int REMOTING_THREADS = 4;
    /** The most of each file handed over at once ({@code AgentSession.CHUNK_BYTES}). */
    static final int MAX_BYTES = PLUGIN_TIMINGS.chunkBytes();
    /** How often the step saves a checkpoint while output flows ({@code CopilotAutopilotStepExecution}). */
    static final long CHECKPOINT_MILLIS = Long.getLong("bench.checkpointMillis", 2000); // 0: none
    /**
     * How often a hand-over is followed by a checkpoint ({@code SessionDriver.handedOver}): 0, after each, as the plugin
     * did before issue 32; otherwise at most this often.
     */
    static final long HANDOVER_CHECKPOINT_MILLIS = Long.getLong("bench.handoverCheckpointMillis", 2000);
    /** One checkpoint in this many has its CPU time measured (see {@link SessionTallies#checkpointCpu}). */
    static final int CHECKPOINT_SAMPLE = 16;
    /**
     * Sessions per agent whose hand-overs go in one call (a model of a change to the plugin, which makes one call per
     * session): 1, a call per session, as the plugin does; K, the sessions of each agent (slots 0..K-1 on the
     * first, and so on) looked at together every {@link #HANDOVER_MILLIS}, what is new in all of them serialized in one
     * stream, taken on one channel thread and followed there session after session.
     */
    static final int SESSIONS_PER_AGENT = Integer.getInteger("bench.sessionsPerAgent", 1);

    private final int sessions;
    private final List<ReplayCapture> captures = new ArrayList<>();
    private final SessionsStage stage;
    private final SessionTallies tallies;

    ConcurrentSessions(int sessions, double speedup, Path work) {
        this.sessions = sessions;
        TaskSpec options = TaskSpec.of("Replay a recorded session").githubToken("github_pat_benchmarkToken_0123456789abcdef")
                .set(MODEL, "fake-model");
        this.stage = new SessionsStage(work, options, captures);
        this.tallies = stage.tallies;
        CliCommand shape = stage.command(work.resolve("shape"));
        for (String name : ReplayCapture.NAMES) {
            captures.add(ReplayCapture.load(name, speedup, shape));
        }
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        double seconds = Double.parseDouble(args[1]);
        double speedup = Double.parseDouble(args[2]);
        try (OwnedFolder work = OwnedFolder.create(Path.of(System.getProperty("java.io.tmpdir")), "copilot-bench-sessions-")) {
            System.out.println(new ConcurrentSessions(n, speedup, work.path()).run(seconds).toLine());
        }
        System.exit(0);
    }

    SessionsResult run(double windowSeconds) throws Exception {
        stage.startThreads(); // every thread there will be, started before the baseline
        warmUp();
        Thread.sleep(200);
        long baselineHeap = JvmGauges.liveHeap();
        int baselineThreads = JvmGauges.THREADS.getThreadCount();
        int baselineFds = JvmGauges.openFds();

        double meanDuration = captures.stream().mapToLong(ReplayCapture::durationNanos).average().orElse(1e9);
        Random random = new Random(14);
        if (SESSIONS_PER_AGENT > 1) {
            for (int a = 0; a * SESSIONS_PER_AGENT < sessions; a++) {
                BatchingAgent one = new BatchingAgent(stage);
                stage.agents.add(one);
                stage.agent.scheduleWithFixedDelay(one::look, HANDOVER_MILLIS, HANDOVER_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
        for (int s = 0; s < sessions; s++) {
            SessionSlot slot = new SessionSlot(stage, s);
            stage.writer.schedule(slot::start, (long) (random.nextDouble() * meanDuration), TimeUnit.NANOSECONDS);
        }
        // ramp-up: every slot has started and most have gone on to their next capture
        Thread.sleep((long) (meanDuration / 1e6 * 1.5) + 3000);

        Map<Long, Long> followerCpu0 = JvmGauges.cpuByThread(SessionsStage.FOLLOWER_PREFIX);
        Map<Long, Long> remotingCpu0 = JvmGauges.cpuByThread(SessionsStage.REMOTING_PREFIX);
        Map<Long, Long> agentCpu0 = JvmGauges.cpuByThread(SessionsStage.AGENT_PREFIX);
        Map<Long, Long> writerCpu0 = JvmGauges.cpuByThread(SessionsStage.WRITER_PREFIX);
        Map<Long, Long> starterCpu0 = JvmGauges.cpuByThread(SessionsStage.STARTER_PREFIX);
        long started0 = tallies.startedSessions.get();
        long looks0 = tallies.polls.get();
        long handovers0 = tallies.handovers.get();
        long calls0 = tallies.calls.get();
        tallies.windowStart = System.nanoTime();
        Thread.sleep((long) (windowSeconds * 1000));
        tallies.windowEnd = System.nanoTime();
        long looks = tallies.polls.get() - looks0;
        long handoversInWindow = tallies.handovers.get() - handovers0;
        long callsInWindow = tallies.calls.get() - calls0;
        double followerCpu = JvmGauges.cpuSince(SessionsStage.FOLLOWER_PREFIX, followerCpu0) / 1e9;
        double remotingCpu = JvmGauges.cpuSince(SessionsStage.REMOTING_PREFIX, remotingCpu0) / 1e9;
        double agentCpu = JvmGauges.cpuSince(SessionsStage.AGENT_PREFIX, agentCpu0) / 1e9;
        double writerCpu = JvmGauges.cpuSince(SessionsStage.WRITER_PREFIX, writerCpu0) / 1e9;
        double starterCpu = JvmGauges.cpuSince(SessionsStage.STARTER_PREFIX, starterCpu0) / 1e9;
        long startedInWindow = tallies.startedSessions.get() - started0;
        double window = (tallies.windowEnd - tallies.windowStart) / 1e9;
        long lines = tallies.linesInWindow.get();
        long done = tallies.finishedInWindow.get();

        // with all N sessions running: live heap (median of three), threads, descriptors
        List<Long> heaps = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            heaps.add(JvmGauges.liveHeap());
            Thread.sleep(300);
        }
        heaps.sort(Comparator.naturalOrder());
        int threads = JvmGauges.THREADS.getThreadCount();
        int fds = JvmGauges.openFds();

        stage.stop();
        return new SessionsResult(sessions, window, baselineHeap, heaps.get(1), baselineThreads, threads, baselineFds, fds, followerCpu, writerCpu,
                lines, done, tallies.mismatches.get(), tallies.mismatch(), tallies.delays.count(), tallies.delays.percentile(50),
                tallies.delays.percentile(99), tallies.delays.max(), lines / (double) sessions / window, looks, starterCpu, startedInWindow,
                tallies.checkpointCpu.get() / 1e9, remotingCpu, agentCpu,
                handoversInWindow, callsInWindow);
    }

    /**
     * Before anything is measured: the JIT compiles the follower's code, every class is loaded, and each follower
     * thread has its thread-local buffers: complete sessions are followed on the shared threads, as fast as they go.
     */
    private void warmUp() throws Exception {
        Path dir = Files.createDirectories(stage.work.resolve("warmup"));
        long until = System.nanoTime() + 3_000_000_000L;
        int serial = 0;
        while (System.nanoTime() < until) {
            CountDownLatch done = new CountDownLatch(captures.size() * FOLLOWER_THREADS);
            for (int i = 0; i < captures.size() * FOLLOWER_THREADS; i++) {
                ReplayCapture capture = captures.get(i % captures.size());
                Path folder = Files.createDirectories(dir.resolve("s" + serial++));
                try (FileChannel out = FileChannel.open(folder.resolve(ControlFolder.OUTPUT), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                    for (byte[] line : capture.lines) {
                        out.write(ByteBuffer.wrap(line));
                    }
                }
                Files.createFile(folder.resolve(ControlFolder.STDERR));
                Files.writeString(folder.resolve(ControlFolder.EXIT_CODE), capture.exitCode + "\n");
                SessionFollower follower = SessionsStage.engine(l -> { }, folder.resolve("journal.jsonl")).follow(stage.command(folder), Map.of(),
                        System.currentTimeMillis());
                FileCliSession session = new FileCliSession(folder);
                stage.followers.submit(() -> {
                    SessionFollower.Tick tick = follower.tick(session);
                    follower.checkpoint();
                    if (tick.finished()) {
                        done.countDown();
                        return PollingScheduler.Next.DONE;
                    }
                    return PollingScheduler.Next.SOON;
                });
            }
            if (!done.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the warm-up sessions did not end");
            }
        }
    }
}
