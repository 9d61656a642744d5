package io.jenkins.plugins.copilotautopilot;

import hudson.FilePath;
import hudson.Launcher;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import hudson.slaves.WorkspaceList;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.plugins.durabletask.Controller;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * A session running on an agent under durable-task, seen from the controller. durable-task's {@link Controller} owns
 * the process: its watch pushes the CLI's events from the agent ({@link EventsHandler} into this {@link SessionInbox}),
 * its exit status ends the session, its stop (the cookie that {@code sh} uses too, which container launchers
 * understand) and the launch script's watchdog stop the CLI. Looks at the session ({@link #poll}) never call the
 * agent: they take what was pushed. Everything that does call the agent runs on {@link Following#remoteCalls()},
 * bounded in time, one at a time per session, so that an agent that does not answer holds up its own sessions only:
 * checks that the watch still runs and the CLI is alive ({@link #maintain}), the stop, the clean-up. When the watch
 * is not available, the same checks read the session instead.
 *
 * <p>Found again by node name and paths after the agent reconnects or the controller restarts.
 */
final class AgentSession implements CliSession, SessionInbox {
    private static final Logger LOGGER = Logger.getLogger(AgentSession.class.getName());
    /** How long one call to the agent may take before the agent counts as unreachable (mutable for the script console). */
    static long REMOTE_TIMEOUT_SECONDS = Long.getLong(AgentSession.class.getName() + ".REMOTE_TIMEOUT_SECONDS", 20);
    /** How often a session that hands nothing over is checked (the watch still runs, the CLI is alive). */
    static long CHECK_MILLIS = Long.getLong(AgentSession.class.getName() + ".checkMillis", 10_000);
    /** How old the watchdog's heartbeat may get before the CLI counts as gone with its machine. */
    static long LOST_AFTER_MILLIS = Long.getLong(AgentSession.class.getName() + ".lostAfterMillis", 30_000);
    /** How long the launch script may take to start (durable-task starts it with {@code nohup}). */
    static long NEVER_STARTED_MILLIS = Long.getLong(AgentSession.class.getName() + ".neverStartedMillis", 60_000);
    /** False: read the session at each check instead of having durable-task push it (as {@code sh} without watching). */
    static final boolean WATCH = !Boolean.getBoolean(AgentSession.class.getName() + ".poll");
    /** The most of each stream handed over at once. */
    static final int CHUNK_BYTES = 1024 * 1024;

    /** Where a session runs: what survives a restart of the controller. Plain strings and durable-task's controller. */
    static final class Location implements Serializable {
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

        String displayNode() {
            return node.isEmpty() ? "the built-in node" : node;
        }
    }

    /** What a session needs from the build it belongs to. */
    interface Owner {
        Launcher launcher() throws IOException, InterruptedException;

        TaskListener listener();

        /**
         * Follows what was just handed over and notes how far it got; the agent counts it as handed over when this
         * returns. Called on a remoting thread.
         */
        void handedOver() throws Exception;

        /** Something changed that the follower should look at soon (a check's answer, a read). */
        void wake();
    }

    /** Why the session cannot be followed right now, or at all. */
    sealed interface Trouble permits Unreachable, Gone, Lost {
        String message();
    }

    /** The agent cannot be reached now; it may come back. */
    record Unreachable(String message) implements Trouble {
    }

    /** The control folder is gone (the workspace was wiped): there is nothing left to follow. */
    record Gone(String message) implements Trouble {
    }

    /** The CLI is gone without an exit status: its machine's processes died (the agent was stopped with them). */
    record Lost(String message) implements Trouble {
    }

    private final Location where;
    private final Owner owner;
    private final AtomicBoolean busy = new AtomicBoolean();
    private final long createdNanos = System.nanoTime();

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

    private volatile VirtualChannel watchedChannel;
    private volatile boolean watchUnsupported = !WATCH;
    private volatile long lastContactNanos = System.nanoTime();
    private volatile long lastCheckNanos;
    private volatile Trouble trouble;
    private volatile long staleHeartbeatSinceNanos;
    private volatile long exitSeenWithoutPushNanos;

    AgentSession(Location where, Owner owner) {
        this.where = where;
        this.owner = owner;
    }

    Location location() {
        return where;
    }

    /** Why the session cannot be followed now, or null. */
    Trouble trouble() {
        return trouble;
    }

    /** How much of the CLI's output was lost between what the controller had and what the agent handed over. */
    synchronized long lostOutputBytes() {
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
                    ended ? launchError : null, usage.toByteArray(), usageConsumed, ended ? changes : null);
            output.reset();
            stderr.reset();
            usage.reset();
            usageConsumed = 0;
            return poll;
        }
    }

    private synchronized boolean isReading() {
        return reading;
    }

    /**
     * After catching up from the agent's files (a restart): from here on the session is handed over, from these
     * positions. Starts watching (or reading) at the next check.
     */
    synchronized void live(long outputOffset, long stderrOffset, long usageOffset) {
        reading = false;
        nextOutput = outputOffset;
        nextStderr = stderrOffset;
        nextUsage = usageOffset;
        lastCheckNanos = 0; // check at once: start the watch
    }

    /** One read of the agent's files, on the calling thread, bounded in time (catching up after a restart). */
    private SessionPoll read(long outputOffset, long stderrOffset, long usageOffset, int maxBytes)
            throws IOException, InterruptedException {
        FilePath folder = controlFolder();
        PollCallable.Answer answer = TimeLimits.limit(folder.getChannel(), REMOTE_TIMEOUT_SECONDS,
                Messages.AgentSession_Reading(where.displayNode()), () -> folder.act(new PollCallable(where.logFile,
                        where.resultFile, outputOffset, stderrOffset, usageOffset, maxBytes)));
        if (!answer.folderExists()) {
            throw new IOException(Messages.AgentSession_Gone(where.controlFolder, where.displayNode()));
        }
        SessionChunk c = answer.chunk();
        return new SessionPoll(c.output, c.stderr, answer.exitCode(), answer.exitCode() != null,
                answer.exitCode() == null ? null : c.launchError, c.usage, c.usageConsumed,
                answer.exitCode() == null ? null : WorkTreeChanges.parse(c.changesStatus, c.changesNumstat, c.changesPatch));
    }

    // ---- hand-overs (remoting threads) ----

    @Override
    public void deliver(SessionChunk chunk) throws Exception {
        accept(chunk);
        owner.handedOver();
    }

    @Override
    public void exited(int code, SessionChunk last) throws Exception {
        accept(last);
        synchronized (this) {
            ended(code, last);
        }
        owner.handedOver();
    }

    private synchronized void ended(int code, SessionChunk last) {
        if (!ended) {
            ended = true;
            exitCode = code;
            launchError = last.launchError;
            changes = WorkTreeChanges.parse(last.changesStatus, last.changesNumstat, last.changesPatch);
            keptSession = last.keptSession;
            keptSessionSize = last.keptSessionSize;
        }
    }

    /** The session's packed state as handed over at its end (durable-task's watch), or null. */
    synchronized byte[] handedOverKeptSession() {
        return keptSession;
    }

    /** Its size, also when it was too large to hand over; 0 when none was handed over. */
    synchronized long handedOverKeptSessionSize() {
        return keptSessionSize;
    }

    /** Takes what is new in {@code chunk}: bytes before the expected position were handed over before. */
    private synchronized void accept(SessionChunk chunk) {
        lastContactNanos = System.nanoTime();
        trouble = null;
        staleHeartbeatSinceNanos = 0;
        nextOutput = append(output, chunk.outputStart, chunk.output, nextOutput, true);
        nextStderr = append(stderr, chunk.stderrStart, chunk.stderr, nextStderr, false);
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
        }
        int skip = (int) Math.max(0, expected - start);
        into.write(bytes, skip, bytes.length - skip);
        return end;
    }

    // ---- checks and stops (the remote-call pool) ----

    /**
     * Called at each look: when the session has not been heard from for a while (or never watched on the agent's
     * current channel), checks it on {@link Following#remoteCalls()}; the answer shows in {@link #trouble()} or in
     * what the next look finds.
     */
    void maintain() {
        if (isReading()) {
            return; // catching up: the resumer reads
        }
        long now = System.nanoTime();
        long quiet = now - Math.max(lastContactNanos, lastCheckNanos);
        boolean due = lastCheckNanos == 0 || watchUnsupported && now - lastCheckNanos >= pollDelayNanos()
                || quiet >= TimeUnit.MILLISECONDS.toNanos(CHECK_MILLIS) || trouble != null && now - lastCheckNanos >= TimeUnit.SECONDS.toNanos(5);
        if (busy.get() && now - lastCheckNanos > TimeUnit.SECONDS.toNanos(REMOTE_TIMEOUT_SECONDS + 5)) {
            // the check itself is stuck on the agent's channel: say so, and do not queue another behind it
            trouble = new Unreachable(Messages.AgentSession_NoAnswer(where.displayNode(), REMOTE_TIMEOUT_SECONDS));
            return;
        }
        if (due && busy.compareAndSet(false, true)) {
            lastCheckNanos = now;
            Following.remoteCalls().submit(() -> {
                try {
                    check();
                } catch (Throwable e) {
                    LOGGER.log(Level.FINE, "checking a Copilot session failed", e);
                } finally {
                    busy.set(false);
                    owner.wake();
                }
            });
        }
    }

    /** Without a watch, reads come quickly after output and slow down to seconds when there is none. */
    private long pollDelayNanos() {
        long sinceContact = System.nanoTime() - lastContactNanos;
        return Math.min(TimeUnit.SECONDS.toNanos(5), Math.max(TimeUnit.MILLISECONDS.toNanos(250), sinceContact / 4));
    }

    /** Wakes the next check (an agent came back online). */
    void checkSoon() {
        lastCheckNanos = 1;
        lastContactNanos = 1;
        owner.wake();
    }

    private void check() throws InterruptedException {
        FilePath taskWorkspace = FilePathUtils.find(where.node, where.taskWorkspace);
        if (taskWorkspace == null) {
            trouble = new Unreachable(Messages.AgentSession_Offline(where.displayNode()));
            watchedChannel = null;
            return;
        }
        VirtualChannel channel = taskWorkspace.getChannel();
        try {
            TimeLimits.limit(channel, REMOTE_TIMEOUT_SECONDS, Messages.AgentSession_Checking(where.displayNode()), () -> {
                if (!watchUnsupported && channel != watchedChannel) {
                    watch(taskWorkspace);
                }
                if (watchUnsupported) {
                    pollOnce(taskWorkspace);
                    return null;
                }
                SessionHealthCallable.Health health = new FilePath(channel, where.controlFolder)
                        .act(new SessionHealthCallable(where.resultFile, where.taskWorkspace));
                judge(health, taskWorkspace);
                return null;
            });
        } catch (IOException e) {
            watchedChannel = null;
            trouble = new Unreachable(e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    /** Where the next chunk of each stream starts: what the agent is asked for. */
    private record Positions(long output, long stderr, long usage) {
    }

    private synchronized Positions next() {
        return new Positions(nextOutput, nextStderr, nextUsage);
    }

    private void watch(FilePath taskWorkspace) throws IOException, InterruptedException {
        Positions from = next();
        VirtualChannel channel = taskWorkspace.getChannel();
        SessionInbox exported = channel.export(SessionInbox.class, this);
        try {
            where.controller.watch(taskWorkspace, new EventsHandler(exported, where.controlFolder, where.logFile, CHUNK_BYTES,
                    from.output(), from.stderr(), from.usage(), KeptSessions.limitBytes()), owner.listener());
            watchedChannel = channel;
        } catch (UnsupportedOperationException e) {
            watchUnsupported = true;
        }
    }

    /** What a check makes of the control folder's state. */
    private void judge(SessionHealthCallable.Health health, FilePath taskWorkspace) throws IOException, InterruptedException {
        long now = System.nanoTime();
        if (!health.folderExists()) {
            trouble = new Gone(Messages.AgentSession_Gone(where.controlFolder, where.displayNode()));
            return;
        }
        trouble = null;
        if (health.ended()) {
            staleHeartbeatSinceNanos = 0;
            if (!hasEnded()) {
                // the exit status is there but the watch did not hand it over: it has stopped; start another
                if (exitSeenWithoutPushNanos == 0) {
                    exitSeenWithoutPushNanos = now;
                } else if (now - exitSeenWithoutPushNanos >= TimeUnit.SECONDS.toNanos(5)) {
                    exitSeenWithoutPushNanos = 0;
                    watchedChannel = null;
                    watch(taskWorkspace);
                }
            }
            return;
        }
        if (health.launchFilesUnread() && now - createdNanos > TimeUnit.MILLISECONDS.toNanos(NEVER_STARTED_MILLIS)) {
            trouble = new Lost(Messages.AgentSession_NeverStarted(where.displayNode(), NEVER_STARTED_MILLIS / 1000));
            return;
        }
        if (health.heartbeatAgeMillis() > LOST_AFTER_MILLIS) {
            if (staleHeartbeatSinceNanos == 0) {
                staleHeartbeatSinceNanos = now; // once more, a little later: a machine that just woke up catches up
            } else if (now - staleHeartbeatSinceNanos >= TimeUnit.SECONDS.toNanos(5)) {
                trouble = new Lost(Messages.AgentSession_Lost(where.displayNode(), health.heartbeatAgeMillis() / 1000));
            }
        } else {
            staleHeartbeatSinceNanos = 0;
        }
    }

    private synchronized boolean hasEnded() {
        return ended;
    }

    /** Without a watch: one read of what is new, taken like a hand-over. */
    private void pollOnce(FilePath taskWorkspace) throws IOException, InterruptedException {
        Positions from = next();
        PollCallable.Answer answer = new FilePath(taskWorkspace.getChannel(), where.controlFolder)
                .act(new PollCallable(where.logFile, where.resultFile, from.output(), from.stderr(), from.usage(), CHUNK_BYTES));
        if (!answer.folderExists()) {
            trouble = new Gone(Messages.AgentSession_Gone(where.controlFolder, where.displayNode()));
            return;
        }
        trouble = null;
        SessionChunk chunk = answer.chunk();
        if (!chunk.isEmpty()) {
            accept(chunk);
        }
        if (answer.exitCode() != null && chunk.output.length < CHUNK_BYTES && chunk.stderr.length < CHUNK_BYTES) {
            synchronized (this) {
                ended(answer.exitCode(), chunk);
            }
        }
    }

    /**
     * Stops the CLI without waiting for it: on {@link Following#remoteCalls()}, asks the launch script's watchdog
     * (which works from inside containers too) and durable-task (whose stop kills what carries its cookie, through
     * the build's launcher: a container's launcher kills inside the container). The follower sees the end.
     */
    @Override
    public void stop() {
        Following.remoteCalls().submit(() -> {
            try {
                stopNow();
            } catch (IOException | InterruptedException | RuntimeException e) {
                owner.listener().getLogger().println(Messages.AgentSession_CannotStop(where.displayNode(),
                        e.getMessage() == null ? e.toString() : e.getMessage()));
            } finally {
                owner.wake();
            }
        });
    }

    /**
     * Both stops, each bounded in time, on the calling thread. Either is enough: the watchdog stops the CLI where a
     * container launcher's kill cannot (docker-workflow's needs a {@code ps} that Alpine images lack), durable-task's
     * stop where the watchdog itself is gone.
     */
    void stopNow() throws IOException, InterruptedException {
        FilePath taskWorkspace = FilePathUtils.find(where.node, where.taskWorkspace);
        if (taskWorkspace == null) {
            throw new IOException(Messages.AgentSession_Offline(where.displayNode()));
        }
        IOException watchdog = null;
        try {
            TimeLimits.limit(taskWorkspace.getChannel(), REMOTE_TIMEOUT_SECONDS, Messages.AgentSession_AskingToStop(where.displayNode()),
                    () -> new FilePath(taskWorkspace.getChannel(), where.controlFolder).act(new RequestStopCallable()));
        } catch (IOException e) {
            watchdog = e;
        }
        try {
            TimeLimits.limit(taskWorkspace.getChannel(), REMOTE_TIMEOUT_SECONDS, Messages.AgentSession_Killing(where.displayNode()), () -> {
                where.controller.stop(taskWorkspace, owner.launcher());
                return null;
            });
        } catch (IOException e) {
            if (watchdog != null) {
                e.addSuppressed(watchdog);
                throw e;
            }
            owner.listener().getLogger().println(Messages.AgentSession_KillFailed(e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }

    /**
     * Tells the launch script what comes after its wait, without waiting: on {@link Following#remoteCalls()}, bounded in
     * time, written into the control folder from the agent (containers included: the folder is the agent's). A call that
     * fails is not retried here: the follower tells the script again until it moves on.
     */
    @Override
    public void answer(int step, String answer, String prompt) {
        Following.remoteCalls().submit(() -> {
            try {
                FilePath folder = controlFolder();
                TimeLimits.limit(folder.getChannel(), REMOTE_TIMEOUT_SECONDS, Messages.AgentSession_Answering(where.displayNode()),
                        () -> folder.act(new AnswerCallable(step, answer, prompt)));
            } catch (IOException | InterruptedException | RuntimeException e) {
                LOGGER.log(Level.FINE, "telling a Copilot session's launch script what comes next failed; it is told again", e);
            } finally {
                owner.wake();
            }
        });
    }

    /** Removes the session's folders (the CLI's private state with them); on the calling thread, bounded in time. */
    @Override
    public void cleanup() throws IOException, InterruptedException {
        FilePath taskWorkspace = FilePathUtils.find(where.node, where.taskWorkspace);
        if (taskWorkspace == null) {
            throw new IOException(Messages.AgentSession_Offline(where.displayNode()));
        }
        deleteFolders(taskWorkspace);
    }

    /** Deletes a session's folders given its task workspace (the launch folder), bounded in time. */
    static void deleteFolders(FilePath taskWorkspace) throws IOException, InterruptedException {
        FilePath controlParent = WorkspaceList.tempDir(taskWorkspace);
        TimeLimits.limit(taskWorkspace.getChannel(), REMOTE_TIMEOUT_SECONDS, Messages.AgentSession_Deleting(taskWorkspace.getRemote()),
                () -> taskWorkspace.act(new DeleteSessionFoldersCallable(controlParent == null ? taskWorkspace.getRemote() : controlParent.getRemote())));
    }

    /** Where the launch script packs the session's state for a later build ({@code session}). */
    FilePath keptSession() throws IOException {
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
