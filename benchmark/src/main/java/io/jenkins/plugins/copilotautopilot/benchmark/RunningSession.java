package io.jenkins.plugins.copilotautopilot.benchmark;

import static io.jenkins.plugins.copilotautopilot.benchmark.ConcurrentSessions.CHECKPOINT_MILLIS;
import static io.jenkins.plugins.copilotautopilot.benchmark.ConcurrentSessions.CHECKPOINT_SAMPLE;
import static io.jenkins.plugins.copilotautopilot.benchmark.ConcurrentSessions.HANDOVER_CHECKPOINT_MILLIS;
import static io.jenkins.plugins.copilotautopilot.benchmark.ConcurrentSessions.HANDOVER_MILLIS;
import static io.jenkins.plugins.copilotautopilot.benchmark.ConcurrentSessions.HOLD_MILLIS;
import static io.jenkins.plugins.copilotautopilot.benchmark.ConcurrentSessions.MAX_BYTES;
import static io.jenkins.plugins.copilotautopilot.benchmark.ConcurrentSessions.SESSIONS_PER_AGENT;

import io.jenkins.plugins.copilotautopilot.core.engine.CheckpointFile;
import io.jenkins.plugins.copilotautopilot.core.engine.PollingScheduler;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.process.ChunkFrames;
import io.jenkins.plugins.copilotautopilot.core.process.ControlFolderReader;
import io.jenkins.plugins.copilotautopilot.core.process.HandOverTiming;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.render.LogSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One running session of a {@link ConcurrentSessions} run: the CLI side (the writer's), the agent's side (its watch
 * handing over what is new) and the controller side (its follower).
 */
final class RunningSession implements LogSink {
    private final SessionsStage stage;
    /** The agent's: when what is new goes over ({@code EventsHandler}). */
    private final HandOverTiming timing = new HandOverTiming(HOLD_MILLIS, 0);
    /** The controller's end of the session's stream of chunks ({@code ChunkStream}). */
    private final ChunkFrames.Splitter frames = new ChunkFrames.Splitter(in -> handedOver(HandedOver.Chunk.fromFrame(in)));
    private final SessionTallies tallies;
    final SessionSlot slot;
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

    RunningSession(SessionsStage stage, SessionSlot slot, ReplayCapture capture, Path folder, Path sessionEvents, Path journalBase) {
        this.stage = stage;
        this.tallies = stage.tallies;
        this.slot = slot;
        this.key = stage.serial.get();
        stage.byKey.put(key, this);
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
        if (stage.stopping) {
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
            if (tallies.inWindow(stamp)) {
                tallies.linesInWindow.addAndGet(to - from);
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
                stage.writer.schedule(this::write, Math.max(0, capture.dueNanos[next] - (System.nanoTime() - started)), TimeUnit.NANOSECONDS);
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
        if (stage.stopping) {
            return;
        }
        try {
            follower = SessionsStage.engine(this, journal).follow(stage.command(folder), Map.of(), System.currentTimeMillis());
            if (CHECKPOINT_MILLIS > 0) {
                saveCheckpoint();
            }
            tallies.startedSessions.incrementAndGet();
            handle = stage.followers.submit(this::poll);
            if (SESSIONS_PER_AGENT > 1) {
                stage.agents.get(slot.index / SESSIONS_PER_AGENT).running.add(this);
            } else {
                agentLook = stage.agent.scheduleWithFixedDelay(this::agentLook, HANDOVER_MILLIS, HANDOVER_MILLIS, TimeUnit.MILLISECONDS);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** On a follower thread: one look at what was handed over, as the step's look does it ({@code SessionDriver.look}). */
    PollingScheduler.Next poll() {
        if (stage.stopping || done.get()) {
            return PollingScheduler.Next.DONE;
        }
        tallies.polls.incrementAndGet();
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
     * On the agent, every {@link ConcurrentSessions#HANDOVER_MILLIS} (the plugin's {@code EventsHandler.look}, and durable-task's watch
     * seeing the exit status): what is new in the control folder, read with the plugin's code, handed over in chunks when
     * {@link HandOverTiming} says so (the end at once).
     */
    void agentLook() {
        if (stage.stopping || done.get()) {
            agentLook.cancel(false);
            return;
        }
        try {
            Integer exitCode = LocalCliSession.readExitCode(folder);
            if (!folder.toFile().isDirectory()) {
                return;
            }
            HandedOver.Chunk chunk;
            boolean more;
            do {
                chunk = next(exitCode);
                boolean full = chunk.output.length == MAX_BYTES || chunk.stderr.length == MAX_BYTES;
                boolean urgent = full || exitCode != null || chunk.stderr.length > 0 || chunk.usage.length > 0;
                if (chunk.isEmpty() || !timing.handOverNow(chunk.outputStart, chunk.output, urgent, System.nanoTime())) {
                    break;
                }
                deliver(chunk);
                advance(chunk);
                timing.handedOver(agentOutput);
                more = full || exitCode != null && chunk.usageConsumed > 0;
            } while (more);
            if (exitCode != null) {
                agentLook.cancel(false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The agent's look at this session as one of several ({@link BatchingAgent#look}): its new chunks into {@code batch};
     * false once the session has handed over its end (it is then left out of later looks).
     */
    boolean collect(List<BatchingAgent.Handed> batch) throws IOException {
        if (stage.stopping || done.get()) {
            return false;
        }
        Integer exitCode = LocalCliSession.readExitCode(folder);
        if (!folder.toFile().isDirectory()) {
            return true;
        }
        HandedOver.Chunk chunk;
        do {
            chunk = next(exitCode);
            advance(chunk);
            if (!chunk.isEmpty()) {
                batch.add(new BatchingAgent.Handed(key, chunk));
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
        return new HandedOver.Chunk(agentOutput, out, agentStderr, err, agentUsage, usage.lines(), usage.consumed(),
                last ? exitCode : null);
    }

    private void advance(HandedOver.Chunk chunk) {
        agentOutput += chunk.output.length;
        agentStderr += chunk.stderr.length;
        agentUsage += chunk.usageConsumed;
    }

    /**
     * A hand-over across the channel, taken and followed on one of the controller's channel threads
     * ({@code ChunkStream}, {@code AgentSession.deliver}, {@code SessionDriver.handedOver}): a frame of the session's
     * stream of chunks; the last, with the exit code, serialized as the argument of the plugin's one call
     * ({@code SessionInbox.exited}).
     */
    private void deliver(HandedOver.Chunk chunk) throws IOException {
        if (chunk.exitCode() != null) {
            byte[] wire = chunk.serialize();
            stage.call(() -> handedOver(HandedOver.Chunk.deserialize(wire)));
            return;
        }
        byte[] frame = ChunkFrames.frame(chunk);
        stage.call(() -> {
            synchronized (frames) {
                try {
                    frames.write(frame, 0, frame.length);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
    }

    /** On the controller's channel thread: the chunk taken, followed now, and its checkpoint noted. */
    void handedOver(HandedOver.Chunk chunk) {
        if (done.get()) {
            return;
        }
        tallies.handovers.incrementAndGet();
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
        boolean measured = !Thread.currentThread().getName().startsWith(SessionsStage.STARTER_PREFIX)
                && java.util.concurrent.ThreadLocalRandom.current().nextInt(CHECKPOINT_SAMPLE) == 0;
        long c0 = measured ? JvmGauges.THREADS.getCurrentThreadCpuTime() : 0;
        unsaved = false;
        CheckpointFile.write(checkpoint, follower.checkpoint());
        lastCheckpoint = System.currentTimeMillis();
        long now = System.nanoTime();
        if (measured && tallies.inWindow(now)) {
            tallies.checkpointCpu.addAndGet((JvmGauges.THREADS.getCurrentThreadCpuTime() - c0) * CHECKPOINT_SAMPLE);
        }
    }

    private void finished(SessionResult result) {
        if (!done.compareAndSet(false, true)) {
            return; // the follower's look and a hand-over both saw the end
        }
        tallies.finished.incrementAndGet();
        stage.byKey.remove(key);
        long now = System.nanoTime();
        if (tallies.inWindow(now)) {
            tallies.finishedInWindow.incrementAndGet();
        }
        if (!capture.expectedOutcome.equals(result.outcome().name()) || rendered != capture.renderedFrom.length) {
            tallies.mismatches.incrementAndGet();
            tallies.firstMismatch.putIfAbsent("first", capture.name + ": " + result.outcome() + " (expected " + capture.expectedOutcome + "), "
                    + rendered + " log lines (expected " + capture.renderedFrom.length + ")");
        }
        if (!stage.stopping) {
            stage.writer.execute(slot::start);
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
                if (tallies.inWindow(stamp)) {
                    tallies.delays.record(System.nanoTime() - stamp);
                }
            }
        }
    }
}
