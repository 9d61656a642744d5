package io.jenkins.plugins.copilotautopilot.agent;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import hudson.remoting.RemoteOutputStream;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.process.ChunkFrames;
import io.jenkins.plugins.copilotautopilot.core.process.HandOverTiming;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ControlFolderReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.util.Timer;
import org.jenkinsci.plugins.durabletask.Handler;

/**
 * On the agent: hands the controller what the session wrote — the new part of the task's log (the CLI's events), its
 * errors and the usage records of its model calls — as a stream of chunks ({@link ChunkStream}), and what is left once
 * it has ended, before durable-task deletes the control folder, in one call ({@link SessionInbox#exited}); then deletes
 * the session's folders and says in the stream how that went.
 *
 * <p>When ({@link HandOverTiming}): at once when what is new holds something a person waits for (a turn or a tool that
 * starts or ends, a message, the completion, an error, a usage record, a change of the open approval requests), and
 * pieces of streamed text (an answer written delta by delta, a tool's output line by line, which show nothing in the
 * build's log) once the first of them has waited {@link AgentSession#HOLD_MILLIS}. After half of
 * {@link AgentSession#CHECK_MILLIS} without a chunk, an empty one says that the session is alive — its watchdog's
 * heartbeat is fresh — so that the controller need not ask the agent ({@link AgentWatch} checks a session it has not
 * heard from for that long).
 *
 * <p>durable-task's watch calls {@link #output} when the log grows: that is the signal, while the bytes are read here
 * from the log file at the position the controller asked for, so that every chunk says truly where it starts (a
 * second watch, or one set up again after a reconnection, cannot shift them). Between growths, a look of its own every
 * {@link #LOOK_MILLIS} hands over what was held and the errors, usage records and approval requests the CLI writes
 * while its log is quiet (a model call's record comes about a second after the call, often while a tool runs silently,
 * and a budget is enforced on it).
 */
final class EventsHandler extends Handler {
    private static final long serialVersionUID = 1L;
    private static final Logger LOGGER = Logger.getLogger(EventsHandler.class.getName());
    /** How often the handler looks at the session while the log does not grow, and it wrote in the last {@link #QUIET_MILLIS}. */
    static final long LOOK_MILLIS = Long.getLong(EventsHandler.class.getName() + ".lookMillis", 250);
    /** After this long without anything new, the handler looks only every {@link #QUIET_LOOK_MILLIS}. */
    static final long QUIET_MILLIS = 2_000;
    /** How often the handler looks at a quiet session (a tool working silently, the model thinking). */
    static final long QUIET_LOOK_MILLIS = Long.getLong(EventsHandler.class.getName() + ".quietLookMillis", 1_000);
    /** The watchdog writes its heartbeat every second: one this much older says nothing of the CLI any more. */
    private static final long HEARTBEAT_FRESH_MILLIS = 3_000;
    /** How often the open approval requests are handed over again while they stay the same. */
    static final long APPROVALS_AGAIN_MILLIS = 5_000;

    @SuppressFBWarnings(value = "SE_BAD_FIELD", justification = "a proxy of the controller's exported inbox, which remoting serializes")
    private final SessionInbox inbox;
    /** The controller's {@link ChunkStream}, exported. */
    private final RemoteOutputStream chunks;
    private final String controlFolder;
    private final String logFile;
    /** The session's launch folder and the folder its control folder is in: deleted here once the controller has the end. */
    private final String launchFolder;
    private final String controlParent;
    private final int maxBytes;
    private long outputOffset;
    private long stderrOffset;
    private long usageOffset;
    /** The largest packed session state handed over (a larger one is only measured). */
    private final long keptSessionLimit;
    private final long holdMillis;
    private final long keepaliveMillis;
    private transient HandOverTiming timing;
    private transient long lastChunkNanos;
    private transient long lastNewsNanos;
    private transient long lastLookNanos;
    private transient ScheduledFuture<?> look;
    private transient boolean ended;
    /** The open approval requests last handed over (null: none yet), and when. */
    private transient java.util.Set<String> approvalsHandedOver;
    private transient long approvalsHandedOverAt;

    /**
     * @param inbox        the controller's, exported over the agent's channel
     * @param chunks       the controller's {@link ChunkStream}
     * @param logFile      durable-task's log of the task: the CLI's standard output
     * @param outputOffset how much of the log the controller has
     * @param stderrOffset how much of the CLI's errors the controller has
     * @param usageOffset  how much of the CLI's session state the controller has read
     */
    EventsHandler(SessionInbox inbox, RemoteOutputStream chunks, String controlFolder, String logFile, String launchFolder, String controlParent,
                  int maxBytes, long outputOffset, long stderrOffset, long usageOffset, long keptSessionLimit, long holdMillis, long keepaliveMillis) {
        this.keptSessionLimit = keptSessionLimit;
        this.holdMillis = holdMillis;
        this.keepaliveMillis = keepaliveMillis;
        this.inbox = inbox;
        this.chunks = chunks;
        this.controlFolder = controlFolder;
        this.logFile = logFile;
        this.launchFolder = launchFolder;
        this.controlParent = controlParent;
        this.maxBytes = maxBytes;
        this.outputOffset = outputOffset;
        this.stderrOffset = stderrOffset;
        this.usageOffset = usageOffset;
    }

    @Override
    public synchronized void output(InputStream stream) throws Exception {
        stream.transferTo(java.io.OutputStream.nullOutputStream()); // the watch's own position follows the log; the bytes are read below
        if (look == null && !ended) {
            look = Timer.get().scheduleWithFixedDelay(this::look, LOOK_MILLIS, LOOK_MILLIS, TimeUnit.MILLISECONDS);
        }
        if (!ended) {
            lastNewsNanos = System.nanoTime();
            handOverWhatIsDue();
        }
    }

    /**
     * What is new since the last hand-over: the log between growths the watch reported, errors, usage records, approval
     * requests; what was held. A session quiet for a while is looked at less often (nothing is held then).
     */
    private synchronized void look() {
        long now = System.nanoTime();
        if (ended || now - lastNewsNanos >= TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS) && (timing == null || timing.heldMillis(now) == 0)
                && now - lastLookNanos < TimeUnit.MILLISECONDS.toNanos(QUIET_LOOK_MILLIS)) {
            return;
        }
        lastLookNanos = now;
        try {
            if (!Files.isDirectory(Path.of(controlFolder))) {
                stopLooking();
                return;
            }
            handOverWhatIsDue();
            if (System.nanoTime() - lastChunkNanos >= TimeUnit.MILLISECONDS.toNanos(keepaliveMillis) && heartbeatIsFresh()) {
                write(new SessionChunk(outputOffset, SessionChunk.NONE, stderrOffset, SessionChunk.NONE, usageOffset, SessionChunk.NONE, 0));
            }
        } catch (Exception e) {
            // the controller is gone or the channel closed: the watch gives up too, and a new one is set up on reconnection
            LOGGER.log(Level.FINE, "stopped looking at " + controlFolder, e);
            stopLooking();
        }
    }

    /** Hands over what is new, in chunks, when {@link HandOverTiming} says it is time. */
    private void handOverWhatIsDue() throws IOException {
        boolean full;
        do {
            SessionChunk chunk = next();
            if (!chunk.isEmpty()) {
                lastNewsNanos = System.nanoTime();
            }
            full = chunk.output.length == maxBytes || chunk.stderr.length == maxBytes;
            boolean urgent = full || chunk.stderr.length > 0 || chunk.usage.length > 0 || chunk.approvalIds != null;
            if (chunk.isEmpty() || !timing().handOverNow(chunk.outputStart, chunk.output, urgent, System.nanoTime())) {
                return;
            }
            handOver(chunk);
        } while (full);
    }

    private void handOver(SessionChunk chunk) throws IOException {
        write(chunk);
        advance(chunk);
        timing().handedOver(outputOffset);
    }

    /** Made at the first hand-over of this watch, from where the controller has the log. */
    private HandOverTiming timing() {
        if (timing == null) {
            timing = new HandOverTiming(holdMillis, outputOffset);
        }
        return timing;
    }

    private void write(SessionChunk chunk) throws IOException {
        chunks.write(ChunkFrames.frame(chunk));
        lastChunkNanos = System.nanoTime();
    }

    /** Whether the launch script's watchdog wrote its heartbeat (every second) in the last few seconds. */
    private boolean heartbeatIsFresh() {
        File heartbeat = new File(controlFolder, ControlFolder.HEARTBEAT);
        long modified = heartbeat.lastModified(); // 0 when it is not there
        return modified > 0 && System.currentTimeMillis() - modified <= HEARTBEAT_FRESH_MILLIS;
    }

    private void stopLooking() {
        ended = true;
        if (look != null) {
            look.cancel(false);
        }
    }

    @Override
    public synchronized void exited(int code, byte[] output) throws Exception {
        stopLooking();
        SessionChunk last = next();
        while (last.output.length == maxBytes || last.stderr.length == maxBytes || last.usageConsumed > 0) {
            handOver(last); // not handed over yet, in pieces: then look again
            last = next();
        }
        Path folder = Path.of(controlFolder);
        last.launchError = LocalCliSession.readLaunchError(folder);
        last.changesStatus = readIfThere(folder.resolve(ControlFolder.CHANGES_STATUS));
        last.changesNumstat = readIfThere(folder.resolve(ControlFolder.CHANGES_NUMSTAT));
        last.changesPatch = readIfThere(folder.resolve(ControlFolder.CHANGES_PATCH));
        // the session's state for a later build: handed over now, since durable-task deletes the folder after this
        Path kept = folder.resolve(ControlFolder.KEPT_SESSION);
        if (Files.isRegularFile(kept)) {
            last.keptSessionSize = Files.size(kept);
            last.keptSession = last.keptSessionSize <= keptSessionLimit ? Files.readAllBytes(kept) : null;
        }
        if (Files.isRegularFile(folder.resolve(ControlFolder.SPANS))) {
            last.spans = ControlFolderReader.spans(folder, io.jenkins.plugins.copilotautopilot.core.otel.SpanFile.MAX_BYTES);
        }
        inbox.exited(code, last); // remoting runs it once the chunks written before it are taken
        advance(last);
        deleteFolders();
    }

    /**
     * The controller has the end: the session's folders (the CLI's private state among them) are deleted from here, and
     * the controller told how that went, in the stream rather than by a call of its own. Nothing here fails the watch:
     * durable-task's own clean-up comes next.
     */
    private void deleteFolders() {
        SessionChunk told = new SessionChunk(outputOffset, SessionChunk.NONE, stderrOffset, SessionChunk.NONE, usageOffset, SessionChunk.NONE, 0);
        told.foldersNotDeleted = DeleteSessionFoldersCallable.delete(Path.of(launchFolder), Path.of(controlParent));
        told.foldersDeleted = told.foldersNotDeleted == null;
        try {
            write(told);
            chunks.close();
        } catch (IOException e) {
            // the controller asks the agent to delete them itself when it does not hear of them
            LOGGER.log(Level.FINE, "could not tell the controller about the folders of " + controlFolder, e);
        }
    }

    /** The session's new bytes from where the controller is, at most {@code maxBytes} of each. */
    private SessionChunk next() throws IOException {
        Path folder = Path.of(controlFolder);
        byte[] output = LocalCliSession.read(Path.of(logFile), outputOffset, maxBytes);
        byte[] stderr = LocalCliSession.read(folder.resolve(ControlFolder.STDERR), stderrOffset, maxBytes);
        ControlFolderReader.Usage usage = ControlFolderReader.usage(folder, usageOffset, maxBytes);
        SessionChunk chunk = new SessionChunk(outputOffset, output, stderrOffset, stderr, usageOffset, usage.lines(), usage.consumed());
        // the approval hook's requests: whenever the set changes, and again every few seconds while calls wait (a
        // decision the controller could not hand over is handed again once it sees the request still open)
        java.util.List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> open = ControlFolderReader.openApprovals(folder);
        if (open != null) {
            java.util.Set<String> ids = new java.util.HashSet<>();
            open.forEach(r -> ids.add(r.id()));
            if (!ids.equals(approvalsHandedOver)
                    || !ids.isEmpty() && System.nanoTime() - approvalsHandedOverAt >= TimeUnit.MILLISECONDS.toNanos(APPROVALS_AGAIN_MILLIS)) {
                chunk.approvals(open);
            }
        }
        return chunk;
    }

    private void advance(SessionChunk handedOver) {
        if (handedOver.approvalIds != null) {
            approvalsHandedOver = new java.util.HashSet<>(java.util.Arrays.asList(handedOver.approvalIds));
            approvalsHandedOverAt = System.nanoTime();
        }
        outputOffset += handedOver.output.length;
        stderrOffset += handedOver.stderr.length;
        usageOffset += handedOver.usageConsumed;
    }

    private static byte[] readIfThere(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
    }
}
