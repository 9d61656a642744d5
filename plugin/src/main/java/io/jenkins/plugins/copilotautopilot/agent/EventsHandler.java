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
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.util.Timer;
import hudson.FilePath;
import hudson.model.TaskListener;
import org.jenkinsci.plugins.durabletask.Controller;

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
 * <p>It follows the session itself ({@link #follow}, started by {@link FollowCallable}): the log's and durable-task's
 * result file's sizes every {@link #ACTIVE_TICK_MILLIS} while the session writes and every {@link #QUIET_TICK_MILLIS}
 * once it is quiet, the log's new bytes read from where the controller has it, so that every chunk says truly where it
 * starts (a second follower, or one set up again after a reconnection, cannot shift them). Beside that, a look every
 * {@link #LOOK_MILLIS} hands over what was held and the errors, usage records and approval requests the CLI writes
 * while its log is quiet (a model call's record comes about a second after the call, often while a tool runs silently,
 * and a budget is enforced on it). durable-task still says when the task has exited (its own checks of its wrapper's
 * heartbeat included, asked every few seconds) and cleans up after it.
 */
final class EventsHandler implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger LOGGER = Logger.getLogger(EventsHandler.class.getName());
    /** How often the follower looks at the log's and the result file's sizes while the session writes. */
    static final long ACTIVE_TICK_MILLIS = 100;
    /** How often it does when the session has been quiet for {@link #QUIET_MILLIS}. */
    static final long QUIET_TICK_MILLIS = 250;
    /** How often durable-task is asked for the task's exit status while its result file is empty (its heartbeat checks). */
    static final long STATUS_MILLIS = 5_000;
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
    /** durable-task's result file of the task: not empty once it has exited. */
    private final String resultFile;
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
    private transient Controller controller;
    private transient FilePath taskWorkspace;
    private transient TaskListener listener;
    /** The log's length at the last tick. */
    private transient long seenLogLength;
    private transient long lastStatusNanos;
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
    EventsHandler(SessionInbox inbox, RemoteOutputStream chunks, String controlFolder, String logFile, String resultFile, String launchFolder, String controlParent,
                  int maxBytes, long outputOffset, long stderrOffset, long usageOffset, long keptSessionLimit, long holdMillis, long keepaliveMillis) {
        this.keptSessionLimit = keptSessionLimit;
        this.holdMillis = holdMillis;
        this.keepaliveMillis = keepaliveMillis;
        this.inbox = inbox;
        this.chunks = chunks;
        this.controlFolder = controlFolder;
        this.logFile = logFile;
        this.resultFile = resultFile;
        this.launchFolder = launchFolder;
        this.controlParent = controlParent;
        this.maxBytes = maxBytes;
        this.outputOffset = outputOffset;
        this.stderrOffset = stderrOffset;
        this.usageOffset = usageOffset;
    }

    /** Starts following the session on this agent, on {@link Timer}: durable-task's task in {@code taskWorkspace}. */
    synchronized void follow(Controller controller, FilePath taskWorkspace, TaskListener listener) {
        this.controller = controller;
        this.taskWorkspace = taskWorkspace;
        this.listener = listener;
        seenLogLength = outputOffset;
        lastNewsNanos = System.nanoTime(); // a session launched just now writes soon: looked at often at first
        lastStatusNanos = lastNewsNanos - TimeUnit.MILLISECONDS.toNanos(STATUS_MILLIS);
        schedule(0);
    }

    private void schedule(long delayMillis) {
        look = Timer.get().schedule(this::tick, delayMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * One look at the sizes: the task's exit first, as durable-task's watch does (what the log holds by then is read
     * by the end), then the log's growth, then the rest when a look is due.
     */
    private synchronized void tick() {
        if (ended) {
            return;
        }
        try {
            long now = System.nanoTime();
            if (new File(resultFile).length() > 0 || now - lastStatusNanos >= TimeUnit.MILLISECONDS.toNanos(STATUS_MILLIS)) {
                lastStatusNanos = now;
                Integer code = controller.exitStatus(taskWorkspace, null, listener);
                if (code != null) {
                    exited(code);
                    controller.cleanup(taskWorkspace);
                    return;
                }
            }
            long length = new File(logFile).length();
            if (length > seenLogLength) {
                seenLogLength = length;
                lastNewsNanos = now;
                handOverWhatIsDue();
            }
            look(now);
            if (!ended) {
                schedule(now - lastNewsNanos < TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS) ? ACTIVE_TICK_MILLIS : QUIET_TICK_MILLIS);
            }
        } catch (Exception e) {
            // the controller is gone or the channel closed: this follower gives up, and a new one is set up on reconnection
            LOGGER.log(Level.FINE, "stopped following " + controlFolder, e);
            stopLooking();
        }
    }

    /**
     * What is new since the last hand-over, when a look is due: errors, usage records, approval requests, what was held.
     * A session quiet for a while is looked at less often (nothing is held then).
     */
    private void look(long now) throws IOException {
        boolean quiet = now - lastNewsNanos >= TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS) && (timing == null || timing.heldMillis(now) == 0);
        if (now - lastLookNanos < TimeUnit.MILLISECONDS.toNanos(quiet ? QUIET_LOOK_MILLIS : LOOK_MILLIS)) {
            return;
        }
        lastLookNanos = now;
        if (!Files.isDirectory(Path.of(controlFolder))) {
            stopLooking(); // gone: the controller's checks say so
            return;
        }
        handOverWhatIsDue();
        if (System.nanoTime() - lastChunkNanos >= TimeUnit.MILLISECONDS.toNanos(keepaliveMillis) && heartbeatIsFresh()) {
            write(new SessionChunk(outputOffset, SessionChunk.NONE, stderrOffset, SessionChunk.NONE, usageOffset, SessionChunk.NONE, 0));
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

    private void exited(int code) throws Exception {
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
