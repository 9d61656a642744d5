package io.jenkins.plugins.copilotautopilot.agent;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.plugins.durabletask.Controller;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * A session running on an agent under durable-task, seen from the controller. durable-task's {@link Controller} owns
 * the process: its watch pushes the CLI's events from the agent ({@link EventsHandler} into this {@link SessionInbox}),
 * its exit status ends the session, its stop (the cookie that {@code sh} uses too, which container launchers
 * understand) and the launch script's watchdog stop the CLI. Looks at the session ({@link #poll}) never call the
 * agent: they take what was pushed. Everything that does call the agent runs on {@link AgentCalls#pool()}, bounded in
 * time: the checks that the watch still runs and the CLI is alive ({@link AgentWatch}), the stop, the answers to the
 * launch script and the clean-up ({@link AgentStops}).
 *
 * <p>Found again by node name and paths after the agent reconnects or the controller restarts.
 */
public final class AgentSession implements CliSession, SessionInbox {
    private static final Logger LOGGER = Logger.getLogger(AgentSession.class.getName());
    /** How long one call to the agent may take before the agent counts as unreachable (mutable for the script console). */
    @SuppressFBWarnings(value = "MS_SHOULD_BE_FINAL", justification = "tunable from the script console and in tests")
    public static long REMOTE_TIMEOUT_SECONDS = Long.getLong(AgentSession.class.getName() + ".REMOTE_TIMEOUT_SECONDS", 20);
    /** How often a session that hands nothing over is checked (the watch still runs, the CLI is alive). */
    @SuppressFBWarnings(value = "MS_SHOULD_BE_FINAL", justification = "tunable from the script console and in tests")
    public static long CHECK_MILLIS = Long.getLong(AgentSession.class.getName() + ".checkMillis", 10_000);
    /**
     * How long the agent holds pieces of streamed text (an answer written delta by delta, a tool's output line by line,
     * which show nothing in the build's log) to hand them over with what comes next; what a person waits for goes at
     * once ({@code HandOverTiming}). Read when a watch starts.
     */
    @SuppressFBWarnings(value = "MS_SHOULD_BE_FINAL", justification = "tunable from the script console and in tests")
    public static long HOLD_MILLIS = Long.getLong(AgentSession.class.getName() + ".holdMillis", 2_000);
    /** How old the watchdog's heartbeat may get before the CLI counts as gone with its machine. */
    @SuppressFBWarnings(value = "MS_SHOULD_BE_FINAL", justification = "tunable from the script console and in tests")
    public static long LOST_AFTER_MILLIS = Long.getLong(AgentSession.class.getName() + ".lostAfterMillis", 30_000);
    /** The most of each stream handed over at once. */
    static final int CHUNK_BYTES = 1024 * 1024;
    /** How long the clean-up waits to hear from the watch's handler, which deletes the folders itself, before asking the agent. */
    static final long FOLDERS_TOLD_MILLIS = 10_000;
    /** How long the end's call waits for the chunks before it that the watch's stream still carries. */
    static final long STREAM_CATCH_UP_MILLIS = 10_000;

    /** Where a session runs: what survives a restart of the controller. Plain strings and durable-task's controller. */
    public static final class Location implements Serializable {
        private static final long serialVersionUID = 3L;

        final String node;
        /** The folder the launch files were written to, and durable-task's workspace for the task (its cookie's basis). */
        final String taskWorkspace;
        /** durable-task's control folder, the launch script's: the session's files. */
        final String controlFolder;
        final String runId;
        final boolean insideContainer;
        final Controller controller;
        final String logFile;
        final String resultFile;

        Location(String node, String taskWorkspace, String controlFolder, String runId, boolean insideContainer,
                 Controller controller, String logFile, String resultFile) {
            this.node = node;
            this.taskWorkspace = taskWorkspace;
            this.controlFolder = controlFolder;
            this.runId = runId;
            this.insideContainer = insideContainer;
            this.controller = controller;
            this.logFile = logFile;
            this.resultFile = resultFile;
        }

        /** The node's name for a message: {@code the built-in node} for the controller's own. */
        public String displayNode() {
            return node.isEmpty() ? "the built-in node" : node;
        }

        /** The node's name ({@code ""} for the built-in node). */
        public String node() {
            return node;
        }

        /** durable-task's control folder on the node: the session's files. */
        public String controlFolder() {
            return controlFolder;
        }

        /** Whether the session runs where the build's launcher reaches into (a container). */
        public boolean insideContainer() {
            return insideContainer;
        }
    }

    /** What a session needs from the build it belongs to. */
    public interface Owner {
        Launcher launcher() throws IOException, InterruptedException;

        TaskListener listener();

        /**
         * Follows what was just handed over and notes how far it got; the agent counts it as handed over when this
         * returns. Called on a remoting thread.
         */
        void handedOver() throws Exception;

        /** Something changed that the follower should look at soon (a check's answer, a read). */
        void wake();

        /** The largest kept session state durable-task's watch may hand over at the end, in bytes. */
        long keptStateLimitBytes();
    }

    /** Why the session cannot be followed right now, or at all. */
    public sealed interface Trouble permits Unreachable, Gone, Lost {
        String message();
    }

    /** The agent cannot be reached now; it may come back. */
    public record Unreachable(String message) implements Trouble {
    }

    /** The control folder is gone (the workspace was wiped): there is nothing left to follow. */
    public record Gone(String message) implements Trouble {
    }

    /** The CLI is gone without an exit status: its machine's processes died (the agent was stopped with them). */
    public record Lost(String message) implements Trouble {
    }

    /** Catching up after a restart found the control folder gone: unlike an offline agent, this does not get better. */
    public static final class FolderGone extends IOException {
        private static final long serialVersionUID = 1L;

        FolderGone(String message) {
            super(message);
        }
    }

    private final Location where;
    private final Owner owner;
    private final AgentWatch watch;

    // what was handed over and not yet taken by the follower
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final ByteArrayOutputStream usage = new ByteArrayOutputStream();
    private long usageConsumed;
    // where the next chunk of each stream starts
    private long nextOutput;
    private long nextStderr;
    private long nextUsage;
    private long lostOutputBytes;
    private boolean reading = true;
    private Integer exitCode;
    private boolean ended;
    private String launchError;
    private WorkTreeChanges changes;
    private byte[] keptSession;
    private long keptSessionSize;
    private byte[] spans;
    /** Whether the watch handed the end over: its handler then deletes the folders and says so ({@link #foldersTold}). */
    private boolean endedThroughWatch;
    /** What the handler said of the folders: null until it did. */
    private Boolean foldersDeleted;
    private String foldersNotDeleted;
    /** The approval hook's open requests as last handed over, not yet taken by the follower; null: no news. */
    private java.util.List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> approvals;

    public AgentSession(Location where, Owner owner) {
        this(where, owner, false);
    }

    /** @param launchedNow the launch script was started just now: no watch of its folder ran before */
    AgentSession(Location where, Owner owner, boolean launchedNow) {
        this.where = where;
        this.owner = owner;
        this.watch = new AgentWatch(this, where, owner, launchedNow);
    }

    public Location location() {
        return where;
    }

    /** Why the session cannot be followed now, or null. */
    public AgentSession.Trouble trouble() {
        return watch.trouble();
    }

    /** How much of the CLI's output was lost between what the controller had and what the agent handed over. */
    public synchronized long lostOutputBytes() {
        return lostOutputBytes;
    }

    // ---- looks (the follower's thread): never call the agent, except to catch up after a restart ----

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException, InterruptedException {
        return poll(outputOffset, stderrOffset, 0, maxBytes);
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes)
            throws IOException, InterruptedException {
        if (isReading()) {
            return read(outputOffset, stderrOffset, usageOffset, maxBytes);
        }
        synchronized (this) {
            SessionPoll poll = new SessionPoll(output.toByteArray(), stderr.toByteArray(), ended ? exitCode : null, ended,
                    ended ? launchError : null, usage.toByteArray(), usageConsumed, ended ? changes : null, approvals);
            approvals = null;
            output.reset();
            stderr.reset();
            usage.reset();
            usageConsumed = 0;
            return poll;
        }
    }

    synchronized boolean isReading() {
        return reading;
    }

    /**
     * After catching up from the agent's files (a restart): from here on the session is handed over, from these
     * positions. Starts watching (or reading) at the next check.
     */
    public synchronized void live(long outputOffset, long stderrOffset, long usageOffset) {
        reading = false;
        nextOutput = outputOffset;
        nextStderr = stderrOffset;
        nextUsage = usageOffset;
        watch.checkNow(); // start the watch
    }

    /** One read of the agent's files, on the calling thread, bounded in time (catching up after a restart). */
    private SessionPoll read(long outputOffset, long stderrOffset, long usageOffset, int maxBytes)
            throws IOException, InterruptedException {
        FilePath folder = controlFolder();
        PollCallable.Answer answer = TimeLimits.limit(folder.getChannel(), REMOTE_TIMEOUT_SECONDS,
                Messages.AgentSession_Reading(where.displayNode()), () -> folder.act(new PollCallable(where.logFile,
                        where.resultFile, outputOffset, stderrOffset, usageOffset, maxBytes)));
        if (!answer.folderExists()) {
            throw new FolderGone(Messages.AgentSession_Gone(where.controlFolder, where.displayNode()));
        }
        SessionChunk c = answer.chunk();
        return new SessionPoll(c.output, c.stderr, answer.exitCode(), answer.exitCode() != null,
                answer.exitCode() == null ? null : c.launchError, c.usage, c.usageConsumed,
                answer.exitCode() == null ? null : WorkTreeChanges.parse(c.changesStatus, c.changesNumstat, c.changesPatch),
                c.approvals());
    }

    // ---- hand-overs (remoting threads) ----

    /** A chunk of the watch's stream: taken and followed before the next one is read. */
    void deliver(SessionChunk chunk) throws IOException {
        if (chunk.tellsOfFolders()) {
            foldersTold(chunk);
            return;
        }
        watch.heardFrom();
        accept(chunk);
        try {
            owner.handedOver();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /**
     * The end, with what the watch read last. The chunks before it come on the watch's stream, and this call can overtake
     * the last of them on the channel (each runs on a thread of its own): it waits, for a bounded time, until the stream
     * has brought everything before {@code last}, which would otherwise count as lost.
     */
    @Override
    public void exited(int code, SessionChunk last) throws Exception {
        watch.heardFrom();
        synchronized (this) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STREAM_CATCH_UP_MILLIS);
            while (last.outputStart > nextOutput || last.stderrStart > nextStderr) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            accept(last);
            ended(code, last);
            endedThroughWatch = true;
        }
        owner.handedOver();
    }

    /** The watch's handler has deleted the session's folders after the end, or says why it could not. */
    private synchronized void foldersTold(SessionChunk chunk) {
        foldersDeleted = chunk.foldersDeleted;
        foldersNotDeleted = chunk.foldersNotDeleted;
        notifyAll();
    }

    /** What the watch's handler said of the folders, waited for a short while after an end it handed over; null when it did not say. */
    private synchronized Boolean foldersAsTold() throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FOLDERS_TOLD_MILLIS);
        while (endedThroughWatch && foldersDeleted == null) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return foldersDeleted;
    }

    synchronized void ended(int code, SessionChunk last) {
        if (!ended) {
            ended = true;
            exitCode = code;
            launchError = last.launchError;
            changes = WorkTreeChanges.parse(last.changesStatus, last.changesNumstat, last.changesPatch);
            keptSession = last.keptSession;
            keptSessionSize = last.keptSessionSize;
            spans = last.spans;
        }
    }

    /** The session's packed state as handed over at its end (durable-task's watch), or null. */
    public synchronized byte[] handedOverKeptSession() {
        return keptSession;
    }

    /** Its size, also when it was too large to hand over; 0 when none was handed over. */
    public synchronized long handedOverKeptSessionSize() {
        return keptSessionSize;
    }

    /**
     * Takes what is new in {@code chunk}: bytes before the expected position were handed over before. Not a sign that the
     * watch works: a check hands over the approval requests it found here too.
     */
    synchronized void accept(SessionChunk chunk) {
        nextOutput = append(output, chunk.outputStart, chunk.output, nextOutput, true);
        nextStderr = append(stderr, chunk.stderrStart, chunk.stderr, nextStderr, false);
        notifyAll(); // an end that overtook this chunk waits for it
        if (chunk.approvalIds != null) {
            approvals = chunk.approvals();
        }
        if (chunk.usageConsumed > 0 && chunk.usageStart >= nextUsage) {
            // usage records come in whole lines: a chunk is taken whole or not at all
            usage.write(chunk.usage, 0, chunk.usage.length);
            usageConsumed += chunk.usageStart - nextUsage + chunk.usageConsumed;
            nextUsage = chunk.usageStart + chunk.usageConsumed;
        }
    }

    private long append(ByteArrayOutputStream into, long start, byte[] bytes, long expected, boolean countLoss) {
        long end = start + bytes.length;
        if (end <= expected) {
            return expected; // all of it was handed over before
        }
        if (start > expected && countLoss) {
            lostOutputBytes += start - expected;
            LOGGER.log(Level.WARNING, () -> "a chunk of " + where.controlFolder + " on "
                    + where.displayNode() + " starts at " + start + " where " + expected + " was expected: " + (start - expected)
                    + " bytes of the CLI's output are lost");
        }
        int skip = (int) Math.max(0, expected - start);
        into.write(bytes, skip, bytes.length - skip);
        return end;
    }

    /** Where the next chunk of each stream starts: what the agent is asked for. */
    record Positions(long output, long stderr, long usage) {
    }

    synchronized Positions next() {
        return new Positions(nextOutput, nextStderr, nextUsage);
    }

    synchronized boolean hasEnded() {
        return ended;
    }

    /**
     * Called at each look: checks the session on the agent when it is due ({@link AgentWatch}); the answer shows in
     * {@link #trouble()} or in what the next look finds.
     */
    public void maintain() {
        watch.maintain();
    }

    /** Wakes the next check (an agent came back online). */
    public void checkSoon() {
        watch.checkSoon();
    }

    @Override
    public void answer(int step, String answer, String prompt) {
        AgentStops.answer(where, owner, step, answer, prompt);
    }

    @Override
    public void decide(String id, String hookOutput) {
        AgentStops.decide(where, owner, id, hookOutput);
    }

    /** Stops the CLI without waiting for it ({@link AgentStops#stop}); the follower sees the end. */
    @Override
    public void stop() {
        AgentStops.stop(where, owner);
    }

    /** Both stops, each bounded in time, on the calling thread ({@link AgentStops#stopNow}). */
    public void stopNow() throws IOException, InterruptedException {
        AgentStops.stopNow(where, owner);
    }

    /**
     * Removes the session's folders (the CLI's private state with them); on the calling thread, bounded in time. After an
     * end the watch handed over, its handler has deleted them already: then only what it said counts.
     */
    @Override
    public void cleanup() throws IOException, InterruptedException {
        Boolean told = foldersAsTold();
        if (told != null) {
            if (!told) {
                throw new FoldersNotDeletedException(foldersNotDeletedWhy());
            }
            return;
        }
        FilePath taskWorkspace = FilePathUtils.find(where.node, where.taskWorkspace);
        if (taskWorkspace == null) {
            throw new IOException(Messages.AgentSession_Offline(where.displayNode()));
        }
        AgentStops.deleteFolders(taskWorkspace, where.runId);
    }

    private synchronized String foldersNotDeletedWhy() {
        return foldersNotDeleted;
    }

    /** Deletes the session's folders in the background once the agent answers ({@link FolderDeletions}). */
    public void deleteFoldersLater() {
        FolderDeletions.later(where.node, where.taskWorkspace, where.runId);
    }

    /** Its build ends with the controller (Freestyle): a restart that finds it noted deletes its folders. */
    public void whileItsBuildRuns() {
        FolderDeletions.whileItsBuildRuns(where.node, where.taskWorkspace);
    }

    /** Its build (noted by {@link #whileItsBuildRuns}) has ended it. */
    public void buildEnded() {
        FolderDeletions.buildEnded(where.node, where.taskWorkspace);
    }

    /** Deletes a session's folders given its task workspace (the launch folder), bounded in time. */
    public static void deleteFolders(FilePath taskWorkspace) throws IOException, InterruptedException {
        AgentStops.deleteFolders(taskWorkspace, null);
    }

    /** The CLI's OpenTelemetry file as handed over at the session's end (durable-task's watch), or null. */
    public synchronized byte[] handedOverSpans() {
        return spans;
    }

    /** Where the CLI's file exporter writes ({@code otel}), for a session followed without the watch. */
    public FilePath spansFile() throws IOException {
        return controlFolder().child(io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder.SPANS);
    }

    /** Where the launch script packs the session's state for a later build ({@code session}). */
    public FilePath keptSession() throws IOException {
        return controlFolder().child(io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder.KEPT_SESSION);
    }

    private FilePath controlFolder() throws IOException {
        FilePath folder = FilePathUtils.find(where.node, where.controlFolder);
        if (folder == null) {
            throw new IOException(Messages.AgentSession_Offline(where.displayNode()));
        }
        return folder;
    }
}
