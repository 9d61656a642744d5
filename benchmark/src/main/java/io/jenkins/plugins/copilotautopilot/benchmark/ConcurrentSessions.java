package io.jenkins.plugins.copilotautopilot.benchmark;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.CheckpointFile;
import io.jenkins.plugins.copilotautopilot.core.engine.EngineTimings;
import io.jenkins.plugins.copilotautopilot.core.engine.PollingScheduler;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.render.LogSink;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ControlFolderReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;

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
    private static final String FOLLOWER_PREFIX = "follower-";
    private static final String WRITER_PREFIX = "writer-";
    private static final String STARTER_PREFIX = "starter-";
    private static final String AGENT_PREFIX = "agent-";
    private static final String REMOTING_PREFIX = "remoting-";
    /** The agent's side, durable-task's watch with the plugin's handler: a look at each session this often ({@code EventsHandler}). */
    static final long HANDOVER_MILLIS = Long.getLong("bench.handoverMillis", 250);
    /** Threads of the agent JVM's timer that run the handlers' looks, and of the controller's channel that takes hand-overs. */
    static final int AGENT_THREADS = 2;
    static final int REMOTING_THREADS = 4;
    private static final long JOURNAL_LIMIT = 256L * 1024 * 1024;
    /** The most of each file handed over at once ({@code AgentSession.CHUNK_BYTES}). */
    private static final int MAX_BYTES = PLUGIN_TIMINGS.chunkBytes();
    /** What the CLI writes first into its session state: its system prompt, about 24 KB (CLI 1.0.102, measured). */
    private static final byte[] SYSTEM_MESSAGE = ("{\"type\":\"system.message\",\"data\":{\"content\":\""
            + "You are the GitHub Copilot CLI. ".repeat(750) + "\"},\"id\":\"s0\"}\n").getBytes(StandardCharsets.UTF_8);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** How often the step saves a checkpoint while output flows ({@code CopilotAutopilotStepExecution}). */
    private static final long CHECKPOINT_MILLIS = Long.getLong("bench.checkpointMillis", 2000); // 0: none
    /**
     * How often a hand-over is followed by a checkpoint ({@code SessionDriver.handedOver}): 0, after each, as the plugin
     * did before issue 32; otherwise at most this often.
     */
    private static final long HANDOVER_CHECKPOINT_MILLIS = Long.getLong("bench.handoverCheckpointMillis", 2000);
    /** One checkpoint in this many has its CPU time measured (see {@code checkpointCpu}). */
    private static final int CHECKPOINT_SAMPLE = 16;
    /**
     * Sessions per agent whose hand-overs go in one call (a model of a change to the plugin, which makes one call per
     * session): 1, a call per session, as the plugin does; K, the sessions of each agent (slots 0..K-1 on the
     * first, and so on) looked at together every {@link #HANDOVER_MILLIS}, what is new in all of them serialized in one
     * stream, taken on one channel thread and followed there session after session.
     */
    static final int SESSIONS_PER_AGENT = Integer.getInteger("bench.sessionsPerAgent", 1);

    private final int sessions;
    private final Path work;
    private final List<ReplayCapture> captures = new ArrayList<>();
    private final TaskSpec options;
    private final DelayHistogram delays = new DelayHistogram();
    private final AtomicLong linesInWindow = new AtomicLong();
    private final AtomicLong finishedInWindow = new AtomicLong();
    private final AtomicLong finished = new AtomicLong();
    private final AtomicLong polls = new AtomicLong();
    private final AtomicLong startedSessions = new AtomicLong();
    /**
     * CPU time the controller's threads spent writing checkpoint files (the step's, not the engine's), estimated from
     * one checkpoint in {@value #CHECKPOINT_SAMPLE} chosen at random: each measurement reads the thread's CPU clock
     * twice, a system call on this kind of machine, which would otherwise add itself to the controller's CPU time.
     */
    private final AtomicLong checkpointCpu = new AtomicLong();
    private final AtomicLong handovers = new AtomicLong();
    /** Calls across the channel: one per hand-over, or one per batch of an agent's hand-overs. */
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong mismatches = new AtomicLong();
    private final Map<String, String> firstMismatch = new java.util.concurrent.ConcurrentHashMap<>();
    private final AtomicInteger serial = new AtomicInteger();
    private volatile long windowStart = Long.MAX_VALUE;
    private volatile long windowEnd = Long.MAX_VALUE;
    private PollingScheduler followers;
    private ScheduledThreadPoolExecutor writer;
    private ScheduledThreadPoolExecutor starter;
    private ScheduledThreadPoolExecutor agent;
    private java.util.concurrent.ThreadPoolExecutor remoting;
    /** With {@link #SESSIONS_PER_AGENT} over 1: each agent's running sessions, looked at together. */
    private final List<Agent> agents = new ArrayList<>();
    private volatile boolean stopping;

    ConcurrentSessions(int sessions, double speedup, Path work) {
        this.sessions = sessions;
        this.work = work;
        this.options = TaskSpec.of("Replay a recorded session").githubToken("github_pat_benchmarkToken_0123456789abcdef")
                .set(MODEL, "fake-model");
        CliCommand shape = command(work.resolve("shape"));
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

    /** What one run measured. */
    record Result(int sessions, double windowSeconds, long baselineHeap, long heap, int baselineThreads, int threads,
                  int baselineFds, int fds, double followerCpuSeconds, double writerCpuSeconds, long lines, long finished,
                  long mismatches, String mismatch, long delayCount, long p50, long p99, long max, double linesPerSessionSecond, long looks, double starterCpuSeconds, long startedInWindow,
                  double checkpointCpuSeconds, double remotingCpuSeconds, double agentCpuSeconds, long handovers, long calls) {
        double heapPerSession() {
            return sessions == 0 ? 0 : (heap - baselineHeap) / (double) sessions;
        }

        /** The controller's CPU time: its follower threads, and its channel's threads following what was handed over. */
        double controllerCpuSeconds() {
            return followerCpuSeconds + remotingCpuSeconds;
        }

        /** The controller's CPU seconds per minute of one session. */
        double cpuPerSessionMinute() {
            return controllerCpuSeconds() / (sessions * windowSeconds / 60.0);
        }

        /** The share of one core the controller took. */
        double coreShare() {
            return controllerCpuSeconds() / windowSeconds;
        }

        /** The share of one core the agents' looks took (in Jenkins spread over the agents). */
        double agentCoreShare() {
            return agentCpuSeconds / windowSeconds;
        }

        double cpuMicrosPerLine() {
            return lines == 0 ? Double.NaN : controllerCpuSeconds() * 1e6 / lines;
        }

        String toLine() {
            return String.format(Locale.ROOT, "sessions=%d windowSeconds=%.1f baselineHeap=%d heap=%d baselineThreads=%d threads=%d"
                            + " baselineFds=%d fds=%d followerCpuSeconds=%.4f writerCpuSeconds=%.4f lines=%d finished=%d"
                            + " mismatches=%d delayCount=%d p50=%d p99=%d max=%d linesPerSessionSecond=%.2f looks=%d starterCpuSeconds=%.4f started=%d checkpointCpuSeconds=%.4f remotingCpuSeconds=%.4f agentCpuSeconds=%.4f handovers=%d calls=%d mismatch=%s",
                    sessions, windowSeconds, baselineHeap, heap, baselineThreads, threads, baselineFds, fds, followerCpuSeconds,
                    writerCpuSeconds, lines, finished, mismatches, delayCount, p50, p99, max, linesPerSessionSecond, looks,
                    starterCpuSeconds, startedInWindow, checkpointCpuSeconds, remotingCpuSeconds, agentCpuSeconds, handovers, calls, mismatch == null ? "-" : mismatch.replace(' ', '_'));
        }

        static Result parse(String line) {
            Map<String, String> f = new HashMap<>();
            for (String part : line.strip().split(" ")) {
                int eq = part.indexOf('=');
                if (eq > 0) {
                    f.put(part.substring(0, eq), part.substring(eq + 1));
                }
            }
            if (!f.containsKey("sessions")) {
                throw new IllegalStateException("no result in: " + line);
            }
            return new Result(Integer.parseInt(f.get("sessions")), Double.parseDouble(f.get("windowSeconds")),
                    Long.parseLong(f.get("baselineHeap")), Long.parseLong(f.get("heap")), Integer.parseInt(f.get("baselineThreads")),
                    Integer.parseInt(f.get("threads")), Integer.parseInt(f.get("baselineFds")), Integer.parseInt(f.get("fds")),
                    Double.parseDouble(f.get("followerCpuSeconds")), Double.parseDouble(f.get("writerCpuSeconds")),
                    Long.parseLong(f.get("lines")), Long.parseLong(f.get("finished")), Long.parseLong(f.get("mismatches")),
                    "-".equals(f.get("mismatch")) ? null : f.get("mismatch"), Long.parseLong(f.get("delayCount")),
                    Long.parseLong(f.get("p50")), Long.parseLong(f.get("p99")), Long.parseLong(f.get("max")),
                    Double.parseDouble(f.get("linesPerSessionSecond")), Long.parseLong(f.get("looks")),
                    Double.parseDouble(f.get("starterCpuSeconds")), Long.parseLong(f.get("started")),
                    Double.parseDouble(f.get("checkpointCpuSeconds")), Double.parseDouble(f.get("remotingCpuSeconds")),
                    Double.parseDouble(f.get("agentCpuSeconds")), Long.parseLong(f.get("handovers")),
                    Long.parseLong(f.getOrDefault("calls", f.get("handovers")))); // a baseline from before calls were counted: one per hand-over
        }
    }

    Result run(double windowSeconds) throws Exception {
        followers = new PollingScheduler(FOLLOWER_THREADS, PLUGIN_TIMINGS, FOLLOWER_PREFIX.substring(0, FOLLOWER_PREFIX.length() - 1));
        AtomicInteger writerThreads = new AtomicInteger();
        writer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, WRITER_PREFIX + writerThreads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        writer.setRemoveOnCancelPolicy(true);
        starter = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, STARTER_PREFIX + "1");
            t.setDaemon(true);
            return t;
        });
        starter.prestartAllCoreThreads();
        AtomicInteger agentThreads = new AtomicInteger();
        agent = new ScheduledThreadPoolExecutor(AGENT_THREADS, r -> {
            Thread t = new Thread(r, AGENT_PREFIX + agentThreads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        agent.setRemoveOnCancelPolicy(true);
        agent.prestartAllCoreThreads();
        AtomicInteger remotingThreads = new AtomicInteger();
        remoting = new java.util.concurrent.ThreadPoolExecutor(REMOTING_THREADS, REMOTING_THREADS, 1, TimeUnit.MINUTES,
                new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, REMOTING_PREFIX + remotingThreads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        remoting.prestartAllCoreThreads();
        // every thread there will be, started before the baseline
        for (int i = 0; i < FOLLOWER_THREADS * 2; i++) {
            followers.submit(() -> PollingScheduler.Next.DONE);
        }
        writer.prestartAllCoreThreads();
        warmUp();
        Thread.sleep(200);
        long baselineHeap = liveHeap();
        int baselineThreads = THREADS.getThreadCount();
        int baselineFds = openFds();

        double meanDuration = captures.stream().mapToLong(ReplayCapture::durationNanos).average().orElse(1e9);
        Random random = new Random(14);
        if (SESSIONS_PER_AGENT > 1) {
            for (int a = 0; a * SESSIONS_PER_AGENT < sessions; a++) {
                Agent one = new Agent();
                agents.add(one);
                agent.scheduleWithFixedDelay(one::look, HANDOVER_MILLIS, HANDOVER_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
        for (int s = 0; s < sessions; s++) {
            Slot slot = new Slot(s);
            writer.schedule(slot::start, (long) (random.nextDouble() * meanDuration), TimeUnit.NANOSECONDS);
        }
        // ramp-up: every slot has started and most have gone on to their next capture
        Thread.sleep((long) (meanDuration / 1e6 * 1.5) + 3000);

        Map<Long, Long> followerCpu0 = cpuByThread(FOLLOWER_PREFIX);
        Map<Long, Long> remotingCpu0 = cpuByThread(REMOTING_PREFIX);
        Map<Long, Long> agentCpu0 = cpuByThread(AGENT_PREFIX);
        Map<Long, Long> writerCpu0 = cpuByThread(WRITER_PREFIX);
        Map<Long, Long> starterCpu0 = cpuByThread(STARTER_PREFIX);
        long started0 = startedSessions.get();
        long looks0 = polls.get();
        long handovers0 = handovers.get();
        long calls0 = calls.get();
        windowStart = System.nanoTime();
        Thread.sleep((long) (windowSeconds * 1000));
        windowEnd = System.nanoTime();
        long looks = polls.get() - looks0;
        long handoversInWindow = handovers.get() - handovers0;
        long callsInWindow = calls.get() - calls0;
        double followerCpu = cpuSince(FOLLOWER_PREFIX, followerCpu0) / 1e9;
        double remotingCpu = cpuSince(REMOTING_PREFIX, remotingCpu0) / 1e9;
        double agentCpu = cpuSince(AGENT_PREFIX, agentCpu0) / 1e9;
        double writerCpu = cpuSince(WRITER_PREFIX, writerCpu0) / 1e9;
        double starterCpu = cpuSince(STARTER_PREFIX, starterCpu0) / 1e9;
        long startedInWindow = startedSessions.get() - started0;
        double window = (windowEnd - windowStart) / 1e9;
        long lines = linesInWindow.get();
        long done = finishedInWindow.get();

        // with all N sessions running: live heap (median of three), threads, descriptors
        List<Long> heaps = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            heaps.add(liveHeap());
            Thread.sleep(300);
        }
        heaps.sort(Comparator.naturalOrder());
        int threads = THREADS.getThreadCount();
        int fds = openFds();

        stopping = true;
        writer.shutdownNow();
        starter.shutdownNow();
        agent.shutdownNow();
        remoting.shutdownNow();
        followers.close();
        writer.awaitTermination(10, TimeUnit.SECONDS);
        String mismatch = firstMismatch.isEmpty() ? null : firstMismatch.values().iterator().next();
        return new Result(sessions, window, baselineHeap, heaps.get(1), baselineThreads, threads, baselineFds, fds, followerCpu, writerCpu,
                lines, done, mismatches.get(), mismatch, delays.count(), delays.percentile(50), delays.percentile(99), delays.max(),
                lines / (double) sessions / window, looks, starterCpu, startedInWindow, checkpointCpu.get() / 1e9, remotingCpu, agentCpu,
                handoversInWindow, callsInWindow);
    }

    /**
     * Before anything is measured: the JIT compiles the follower's code, every class is loaded, and each follower
     * thread has its thread-local buffers: complete sessions are followed on the shared threads, as fast as they go.
     */
    private void warmUp() throws Exception {
        Path dir = Files.createDirectories(work.resolve("warmup"));
        long until = System.nanoTime() + 3_000_000_000L;
        int serial = 0;
        while (System.nanoTime() < until) {
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(captures.size() * FOLLOWER_THREADS);
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
                SessionFollower follower = engine(l -> { }, folder.resolve("journal.jsonl")).follow(command(folder), Map.of(),
                        System.currentTimeMillis());
                FileCliSession session = new FileCliSession(folder);
                followers.submit(() -> {
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

    private CliCommand command(Path controlFolder) {
        return Commands.build(options, new CliExecutable("/benchmark/copilot", "1.0.102"), work.toString(),
                controlFolder.toString(), Map.of());
    }

    private static AutopilotEngine engine(LogSink sink, Path journal) throws IOException {
        return AutopilotEngine.builder(sink).journalTo(Files.newOutputStream(journal)).journalLimit(JOURNAL_LIMIT)
                .timings(PLUGIN_TIMINGS).build();
    }

    /** One of the N places a session runs in; when its session ends, the next one starts there. */
    private final class Slot {
        private final int index;
        private int generation;
        private Running current; // the writer's

        Slot(int index) {
            this.index = index;
        }

        /** On the writer: a new session with the next capture; its files as the launch script leaves them. */
        void start() {
            if (stopping) {
                return;
            }
            try {
                // Finished sessions' files stay until the end: on a file system without a journal (as here),
                // deleting thousands of files makes creating new ones slow, which would be the benchmark's doing.
                ReplayCapture capture = captures.get((index + generation) % captures.size());
                generation++;
                Path folder = Files.createDirectories(work.resolve("s" + index + "-" + generation));
                Files.createFile(folder.resolve(ControlFolder.STDERR));
                Files.createFile(folder.resolve(ControlFolder.OUTPUT));
                Path sessionEvents = Files.createDirectories(folder.resolve(ControlFolder.COPILOT_HOME).resolve("session-state")
                        .resolve("bench-" + index + "-" + generation)).resolve("events.jsonl");
                Files.write(sessionEvents, SYSTEM_MESSAGE);
                Running running = new Running(this, capture, folder, sessionEvents, work.resolve("j" + serial.incrementAndGet()));
                current = running;
                writer.schedule(running::write, capture.dueNanos[0], TimeUnit.NANOSECONDS);
                starter.execute(running::startFollowing);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** One running session: the CLI side (the writer's) and the controller side (its follower). */
    private final class Running implements LogSink {
        final Slot slot;
        /** How the controller finds this session when a batch names it (remoting's table of exported objects). */
        final int key;
        final ReplayCapture capture;
        final Path folder;
        final Path output;
        final Path sessionEvents;
        final Path journal;
        final Path checkpoint;
        final long started = System.nanoTime();
        final AtomicLongArray stamps;
        PollingScheduler.Handle handle;
        // the writer's
        int next;
        // the follower's
        SessionFollower follower;
        final HandedOver inbox = new HandedOver();
        final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        volatile long lastCheckpoint;
        /** A hand-over brought something the last checkpoint does not count ({@code SessionDriver.unsaved}). */
        volatile boolean unsaved;
        // the agent's: its watch and where it is in each file
        java.util.concurrent.ScheduledFuture<?> agentLook;
        long agentOutput;
        long agentStderr;
        long agentUsage;
        int rendered;

        Running(Slot slot, ReplayCapture capture, Path folder, Path sessionEvents, Path journalBase) {
            this.slot = slot;
            this.key = serial.get();
            byKey.put(key, this);
            this.capture = capture;
            this.folder = folder;
            this.output = folder.resolve(ControlFolder.OUTPUT);
            this.sessionEvents = sessionEvents;
            this.journal = journalBase.resolveSibling(journalBase.getFileName() + ".jsonl");
            this.checkpoint = journalBase.resolveSibling(journalBase.getFileName() + ".checkpoint");
            this.stamps = new AtomicLongArray(Math.max(1, capture.stamps));
        }

        /** On the writer: appends the lines that are due, stamping those that render; then the exit code. */
        void write() {
            if (stopping) {
                return;
            }
            long now = System.nanoTime() - started;
            int from = next;
            int to = from;
            while (to < capture.lines.length && capture.dueNanos[to] <= now) {
                to++;
            }
            if (to == from) {
                to = from + 1; // woken early: the next line at least
            }
            try (FileChannel out = FileChannel.open(output, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                long stamp = System.nanoTime();
                ByteBuffer[] buffers = new ByteBuffer[to - from];
                for (int i = from; i < to; i++) {
                    buffers[i - from] = ByteBuffer.wrap(capture.lines[i]);
                    int s = capture.stampIndex[i];
                    if (s >= 0) {
                        stamps.set(s, stamp);
                    }
                }
                while (buffers[buffers.length - 1].hasRemaining()) {
                    out.write(buffers);
                }
                if (stamp >= windowStart && stamp < windowEnd) {
                    linesInWindow.addAndGet(to - from);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            // the CLI keeps its lasting events in its session state too, which each look reads for usage records
            int persisted = from;
            while (persisted < to && !capture.persisted[persisted]) {
                persisted++;
            }
            if (persisted < to) {
                try (FileChannel state = FileChannel.open(sessionEvents, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                    for (int i = persisted; i < to; i++) {
                        if (capture.persisted[i]) {
                            ByteBuffer line = ByteBuffer.wrap(capture.lines[i]);
                            while (line.hasRemaining()) {
                                state.write(line);
                            }
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            next = to;
            try {
                if (next < capture.lines.length) {
                    writer.schedule(this::write, Math.max(0, capture.dueNanos[next] - (System.nanoTime() - started)), TimeUnit.NANOSECONDS);
                } else {
                    Path partial = folder.resolve(ControlFolder.EXIT_CODE + ".tmp");
                    Files.writeString(partial, capture.exitCode + "\n", StandardCharsets.UTF_8);
                    Files.move(partial, folder.resolve(ControlFolder.EXIT_CODE), StandardCopyOption.ATOMIC_MOVE);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * On the starter, as the step starts a session (on its starter pool): the engine, the journal, the log's
         * header, the first checkpoint; then the shared follower threads take over, and the agent's watch hands over.
         */
        void startFollowing() {
            if (stopping) {
                return;
            }
            try {
                follower = engine(this, journal).follow(command(folder), Map.of(), System.currentTimeMillis());
                if (CHECKPOINT_MILLIS > 0) {
                    saveCheckpoint();
                }
                startedSessions.incrementAndGet();
                handle = followers.submit(this::poll);
                if (SESSIONS_PER_AGENT > 1) {
                    agents.get(slot.index / SESSIONS_PER_AGENT).running.add(this);
                } else {
                    agentLook = agent.scheduleWithFixedDelay(this::agentLook, HANDOVER_MILLIS, HANDOVER_MILLIS, TimeUnit.MILLISECONDS);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** On a follower thread: one look at what was handed over, as the step's look does it ({@code SessionDriver.look}). */
        PollingScheduler.Next poll() {
            if (stopping || done.get()) {
                return PollingScheduler.Next.DONE;
            }
            polls.incrementAndGet();
            try {
                SessionFollower.Tick tick = follower.tick(inbox);
                if (tick.finished()) {
                    finished(tick.result());
                    return PollingScheduler.Next.DONE;
                }
                if (CHECKPOINT_MILLIS > 0 && (tick.gotData() || unsaved) && System.currentTimeMillis() - lastCheckpoint >= CHECKPOINT_MILLIS) {
                    saveCheckpoint(); // what this look or hand-overs brought after the last one, once it is due
                } else if (tick.gotData()) {
                    unsaved = true;
                }
                return tick.gotData() ? PollingScheduler.Next.SOON : PollingScheduler.Next.LATER;
            } catch (IOException e) {
                return PollingScheduler.Next.LATER;
            } catch (InterruptedException e) {
                return PollingScheduler.Next.DONE;
            }
        }

        /**
         * On the agent, every {@link #HANDOVER_MILLIS} (the plugin's {@code EventsHandler.look}, and durable-task's watch
         * seeing the exit status): what is new in the control folder, read with the plugin's code, handed over in chunks.
         */
        void agentLook() {
            if (stopping || done.get()) {
                agentLook.cancel(false);
                return;
            }
            try {
                Integer exitCode = LocalCliSession.readExitCode(folder);
                if (!folder.toFile().isDirectory()) {
                    return;
                }
                HandedOver.Chunk chunk;
                do {
                    chunk = next(exitCode);
                    if (!chunk.isEmpty()) {
                        deliver(chunk);
                    }
                } while (chunk.output.length == MAX_BYTES || chunk.stderr.length == MAX_BYTES || exitCode != null && chunk.usageConsumed > 0);
                if (exitCode != null) {
                    agentLook.cancel(false);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * The agent's look at this session as one of several ({@link Agent#look}): its new chunks into {@code batch};
         * false once the session has handed over its end (it is then left out of later looks).
         */
        boolean collect(List<Handed> batch) throws IOException {
            if (stopping || done.get()) {
                return false;
            }
            Integer exitCode = LocalCliSession.readExitCode(folder);
            if (!folder.toFile().isDirectory()) {
                return true;
            }
            HandedOver.Chunk chunk;
            do {
                chunk = next(exitCode);
                if (!chunk.isEmpty()) {
                    batch.add(new Handed(key, chunk));
                }
            } while (chunk.output.length == MAX_BYTES || chunk.stderr.length == MAX_BYTES || exitCode != null && chunk.usageConsumed > 0);
            return exitCode == null;
        }

        /** The agent's chunk from where it is ({@code EventsHandler.next}); with the exit code once the CLI has ended. */
        private HandedOver.Chunk next(Integer exitCode) throws IOException {
            byte[] out = LocalCliSession.read(output, agentOutput, MAX_BYTES);
            byte[] err = LocalCliSession.read(folder.resolve(ControlFolder.STDERR), agentStderr, MAX_BYTES);
            ControlFolderReader.Usage usage = ControlFolderReader.usage(folder, agentUsage, MAX_BYTES);
            ControlFolderReader.openApprovals(folder);
            boolean last = exitCode != null && out.length < MAX_BYTES && err.length < MAX_BYTES && usage.consumed() == 0;
            HandedOver.Chunk chunk = new HandedOver.Chunk(agentOutput, out, agentStderr, err, agentUsage, usage.lines(), usage.consumed(),
                    last ? exitCode : null);
            agentOutput += out.length;
            agentStderr += err.length;
            agentUsage += usage.consumed();
            return chunk;
        }

        /**
         * A hand-over across the channel: serialized on the agent, taken and followed on one of the controller's channel
         * threads ({@code AgentSession.deliver}, {@code SessionDriver.handedOver}); returns once it is followed.
         */
        private void deliver(HandedOver.Chunk chunk) throws IOException {
            byte[] wire = chunk.serialize();
            call(() -> handedOver(HandedOver.Chunk.deserialize(wire)));
        }

        /** On the controller's channel thread: the chunk taken, followed now, and its checkpoint noted. */
        void handedOver(HandedOver.Chunk chunk) {
            if (done.get()) {
                return;
            }
            handovers.incrementAndGet();
            inbox.accept(chunk);
            try {
                SessionFollower.Tick tick = follower.tick(inbox);
                if (tick.finished()) {
                    finished(tick.result());
                } else if (CHECKPOINT_MILLIS > 0 && System.currentTimeMillis() - lastCheckpoint >= HANDOVER_CHECKPOINT_MILLIS) {
                    saveCheckpoint();
                } else if (tick.gotData()) {
                    unsaved = true;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** As the step does ({@code SessionDriver.saveCheckpoint}): the journal flushed, the file rewritten in place. */
        private synchronized void saveCheckpoint() throws IOException {
            boolean measured = !Thread.currentThread().getName().startsWith(STARTER_PREFIX)
                    && java.util.concurrent.ThreadLocalRandom.current().nextInt(CHECKPOINT_SAMPLE) == 0;
            long c0 = measured ? THREADS.getCurrentThreadCpuTime() : 0;
            unsaved = false;
            CheckpointFile.write(checkpoint, follower.checkpoint());
            lastCheckpoint = System.currentTimeMillis();
            long now = System.nanoTime();
            if (measured && now >= windowStart && now < windowEnd) {
                checkpointCpu.addAndGet((THREADS.getCurrentThreadCpuTime() - c0) * CHECKPOINT_SAMPLE);
            }
        }

        private void finished(SessionResult result) {
            if (!done.compareAndSet(false, true)) {
                return; // the follower's look and a hand-over both saw the end
            }
            finished.incrementAndGet();
            byKey.remove(key);
            long now = System.nanoTime();
            if (now >= windowStart && now < windowEnd) {
                finishedInWindow.incrementAndGet();
            }
            if (!capture.expectedOutcome.equals(result.outcome().name()) || rendered != capture.renderedFrom.length) {
                mismatches.incrementAndGet();
                firstMismatch.putIfAbsent("first", capture.name + ": " + result.outcome() + " (expected " + capture.expectedOutcome + "), "
                        + rendered + " log lines (expected " + capture.renderedFrom.length + ")");
            }
            if (!stopping) {
                writer.execute(slot::start);
            }
        }

        /** The live log: the n-th line comes from a known stdout line, whose write was stamped. */
        @Override
        public void println(String line) {
            int r = rendered++;
            if (r < capture.renderedFrom.length) {
                int s = capture.renderedFrom[r];
                if (s >= 0) {
                    long stamp = stamps.get(s);
                    if (stamp >= windowStart && stamp < windowEnd) {
                        delays.record(System.nanoTime() - stamp);
                    }
                }
            }
        }
    }

    /** The sessions the controller follows, by the key a batch names them with. */
    private final Map<Integer, Running> byKey = new java.util.concurrent.ConcurrentHashMap<>();

    /** A session's chunk in a batch. */
    record Handed(int session, HandedOver.Chunk chunk) implements java.io.Serializable {
    }

    /**
     * One agent with {@link #SESSIONS_PER_AGENT} sessions: every {@link #HANDOVER_MILLIS} it looks at all of them and
     * hands over what is new in all of them in one call, which one channel thread takes and follows.
     */
    private final class Agent {
        final java.util.Set<Running> running = java.util.concurrent.ConcurrentHashMap.newKeySet();

        void look() {
            if (stopping) {
                return;
            }
            List<Handed> batch = new ArrayList<>();
            for (java.util.Iterator<Running> it = running.iterator(); it.hasNext(); ) {
                try {
                    if (!it.next().collect(batch)) {
                        it.remove();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            if (batch.isEmpty()) {
                return;
            }
            byte[] wire = serialize(batch);
            try {
                call(() -> {
                    for (Handed handed : deserialize(wire)) {
                        Running session = byKey.get(handed.session());
                        if (session != null) {
                            session.handedOver(handed.chunk());
                        }
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A call across the channel: {@code onController} runs on one of its threads; returns once it has. */
    private void call(Runnable onController) throws IOException {
        calls.incrementAndGet();
        java.util.concurrent.Future<?> followed = remoting.submit(onController);
        try {
            followed.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(e.getCause());
        }
    }

    private static byte[] serialize(List<Handed> batch) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(batch));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @SuppressWarnings("unchecked")
    private static List<Handed> deserialize(byte[] wire) {
        return (List<Handed>) ChannelInput.readFrom(wire);
    }

    private static Map<Long, Long> cpuByThread(String prefix) {
        Map<Long, Long> cpu = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix)) {
                cpu.put(t.getId(), THREADS.getThreadCpuTime(t.getId()));
            }
        }
        return cpu;
    }

    private static long cpuSince(String prefix, Map<Long, Long> before) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : cpuByThread(prefix).entrySet()) {
            sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return sum;
    }

    static long liveHeap() throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static int openFds() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count() - 1; // not the one listing them
        }
    }
}
