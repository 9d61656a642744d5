package io.jenkins.plugins.copilotautopilot.agent;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ControlFolderReader;
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
 * On the agent: hands the controller's {@link SessionInbox} what the session wrote — the new part of the task's log
 * (the CLI's events), its errors and the usage records of its model calls — in chunks, at most every
 * {@link #HANDOVER_MILLIS} while the CLI runs, and what is left once it has ended, before durable-task deletes the
 * control folder.
 *
 * <p>durable-task's watch calls {@link #output} when the log grows: that is the signal, while the bytes are read here
 * from the log file at the position the controller asked for, so that every chunk says truly where it starts (a
 * second watch, or one set up again after a reconnection, cannot shift them). Between growths, a look of its own every
 * {@link #HANDOVER_MILLIS} hands over what a throttled call left and the errors and usage records the CLI writes while
 * its log is quiet (a model call's record comes about a second after the call, often while a tool runs silently, and
 * a budget is enforced on it).
 */
final class EventsHandler extends Handler {
    private static final long serialVersionUID = 1L;
    private static final Logger LOGGER = Logger.getLogger(EventsHandler.class.getName());
    /** The shortest time between two handovers while the CLI runs: a handover is a call to the controller. */
    static final long HANDOVER_MILLIS = Long.getLong(EventsHandler.class.getName() + ".handoverMillis", 250);
    /** How often the open approval requests are handed over again while they stay the same. */
    static final long APPROVALS_AGAIN_MILLIS = 5_000;

    @SuppressFBWarnings(value = "SE_BAD_FIELD", justification = "a proxy of the controller's exported inbox, which remoting serializes")
    private final SessionInbox inbox;
    private final String controlFolder;
    private final String logFile;
    private final int maxBytes;
    private long outputOffset;
    private long stderrOffset;
    private long usageOffset;
    /** The largest packed session state handed over (a larger one is only measured). */
    private final long keptSessionLimit;
    private transient long lastHandover;
    private transient ScheduledFuture<?> look;
    private transient boolean ended;
    /** The open approval requests last handed over (null: none yet), and when. */
    private transient java.util.Set<String> approvalsHandedOver;
    private transient long approvalsHandedOverAt;

    /**
     * @param inbox        the controller's, exported over the agent's channel
     * @param logFile      durable-task's log of the task: the CLI's standard output
     * @param outputOffset how much of the log the controller has
     * @param stderrOffset how much of the CLI's errors the controller has
     * @param usageOffset  how much of the CLI's session state the controller has read
     */
    EventsHandler(SessionInbox inbox, String controlFolder, String logFile, int maxBytes, long outputOffset, long stderrOffset,
                  long usageOffset, long keptSessionLimit) {
        this.keptSessionLimit = keptSessionLimit;
        this.inbox = inbox;
        this.controlFolder = controlFolder;
        this.logFile = logFile;
        this.maxBytes = maxBytes;
        this.outputOffset = outputOffset;
        this.stderrOffset = stderrOffset;
        this.usageOffset = usageOffset;
    }

    @Override
    public synchronized void output(InputStream stream) throws Exception {
        stream.transferTo(java.io.OutputStream.nullOutputStream()); // the watch's own position follows the log; the bytes are read below
        if (look == null && !ended) {
            look = Timer.get().scheduleWithFixedDelay(this::look, HANDOVER_MILLIS, HANDOVER_MILLIS, TimeUnit.MILLISECONDS);
        }
        if (System.nanoTime() - lastHandover >= TimeUnit.MILLISECONDS.toNanos(HANDOVER_MILLIS)) {
            handOver();
        }
    }

    /** What is new since the last handover: the log between growths the watch reported, errors, usage records. */
    private synchronized void look() {
        if (ended) {
            return;
        }
        try {
            if (!Files.isDirectory(Path.of(controlFolder))) {
                stopLooking();
                return;
            }
            handOver();
        } catch (Exception e) {
            // the controller is gone or the channel closed: the watch gives up too, and a new one is set up on reconnection
            LOGGER.log(Level.FINE, "stopped looking at " + controlFolder, e);
            stopLooking();
        }
    }

    /** Hands over what is new, in chunks. */
    private void handOver() throws Exception {
        SessionChunk chunk;
        do {
            chunk = next();
            if (!chunk.isEmpty()) {
                inbox.deliver(chunk);
                advance(chunk);
            }
        } while (chunk.output.length == maxBytes || chunk.stderr.length == maxBytes);
        lastHandover = System.nanoTime();
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
            inbox.deliver(last); // not handed over yet, in pieces: then look again
            advance(last);
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
        inbox.exited(code, last);
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
