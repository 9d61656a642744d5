package io.jenkins.plugins.copilotautopilot.agent;


import hudson.FilePath;
import hudson.remoting.RemoteOutputStream;
import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.Messages;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * The checks of one {@link AgentSession} on its agent: that its follower there ({@link FollowCallable}) runs on the agent's current channel
 * (started again when the agent reconnected, or when it stopped handing over), that the control folder is there, that
 * the launch script started and its watchdog's heartbeat is fresh. A check runs on {@link AgentCalls#pool()}, bounded in
 * time, one at a time per session, when the session has not been heard from for a while; without a watch it reads the
 * session instead ({@link PollCallable}). What it finds shows as the session's {@link AgentSession.Trouble}.
 *
 * <p>A watch that has stopped on the agent (its handler cannot be called, its place in the log cannot be read) shows
 * as a log ahead of what was handed over at two checks in a row, or as an exit status that was not handed over: the
 * watch is started again (the one before gives up at its next hand-over), and when a watch stops once more, the session
 * is read at each check from then on, as {@code sh} falls back to reading when its watch does not report the end; the
 * launch script's heartbeat is still checked every {@link AgentSession#CHECK_MILLIS}.
 */
final class AgentWatch {
    private static final Logger LOGGER = Logger.getLogger(AgentWatch.class.getName());
    /** How long the launch script may take to start (durable-task starts it with {@code nohup}). */
    static long NEVER_STARTED_MILLIS = Long.getLong(AgentSession.class.getName() + ".neverStartedMillis", 60_000);
    /** False: read the session at each check instead of having the agent push it (as {@code sh} without watching). */
    static final boolean WATCH = !Boolean.getBoolean(AgentSession.class.getName() + ".poll");

    private final AgentSession session;
    private final AgentSession.Location where;
    private final AgentSession.Owner owner;
    private final AtomicBoolean busy = new AtomicBoolean();
    private final long createdNanos = System.nanoTime();

    private volatile VirtualChannel watchedChannel;
    /** True: the session is read at each check ({@link #pollOnce}), not watched. */
    private volatile boolean reading = !WATCH;
    /** The inbox of the watch that hands the session over now; a watch with another gives up at its next call. */
    private volatile WatchInbox inbox;
    /** A watch was started again because the one before handed nothing over that was there: next time, read instead. */
    private volatile boolean watchRestarted;
    private volatile long lastHealthNanos;
    /** When a check first found the log ahead of what was handed over, or 0. */
    private volatile long logAheadSinceNanos;
    private volatile long lastContactNanos = System.nanoTime();
    private volatile long lastCheckNanos;
    private volatile AgentSession.Trouble trouble;
    private volatile long staleHeartbeatSinceNanos;
    private volatile long exitSeenWithoutPushNanos;
    /** The launch script was started just now and no watch has run on its folder yet. */
    private volatile boolean neverWatched;

    AgentWatch(AgentSession session, AgentSession.Location where, AgentSession.Owner owner, boolean launchedNow) {
        this.neverWatched = launchedNow;
        this.session = session;
        this.where = where;
        this.owner = owner;
    }

    AgentSession.Trouble trouble() {
        return trouble;
    }

    /** The agent handed something over, or a read found something new: it is there. */
    void heardFrom() {
        lastContactNanos = System.nanoTime();
        trouble = null;
        staleHeartbeatSinceNanos = 0;
        logAheadSinceNanos = 0;
    }

    /** The next look checks (and starts the watch). */
    void checkNow() {
        lastCheckNanos = 0;
    }

    /** Wakes the next check (an agent came back online). */
    void checkSoon() {
        lastCheckNanos = 1;
        lastContactNanos = 1;
        owner.wake();
    }

    /** Checks the session on the pool when a check is due; a check stuck on the agent's channel makes it unreachable. */
    void maintain() {
        if (session.isReading()) {
            return; // catching up: the resumer reads
        }
        long now = System.nanoTime();
        long quiet = now - Math.max(lastContactNanos, lastCheckNanos);
        boolean due = lastCheckNanos == 0 || reading && now - lastCheckNanos >= pollDelayNanos()
                || quiet >= TimeUnit.MILLISECONDS.toNanos(AgentSession.CHECK_MILLIS) || trouble != null && now - lastCheckNanos >= TimeUnit.SECONDS.toNanos(5);
        if (busy.get() && now - lastCheckNanos > TimeUnit.SECONDS.toNanos(AgentSession.REMOTE_TIMEOUT_SECONDS + 5)) {
            // the check itself is stuck on the agent's channel: say so, and do not queue another behind it
            trouble = new AgentSession.Unreachable(Messages.AgentSession_NoAnswer(where.displayNode(), AgentSession.REMOTE_TIMEOUT_SECONDS));
            return;
        }
        if (due && busy.compareAndSet(false, true)) {
            lastCheckNanos = now;
            AgentCalls.pool().submit(() -> {
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

    private void check() throws InterruptedException {
        FilePath taskWorkspace = FilePathUtils.find(where.node, where.taskWorkspace);
        if (taskWorkspace == null) {
            trouble = new AgentSession.Unreachable(Messages.AgentSession_Offline(where.displayNode()));
            watchedChannel = null;
            return;
        }
        VirtualChannel channel = taskWorkspace.getChannel();
        try {
            TimeLimits.limit(channel, AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.AgentSession_Checking(where.displayNode()), () -> {
                if (!reading && channel != watchedChannel) {
                    boolean first = neverWatched;
                    watch(taskWorkspace);
                    if (first && !reading) {
                        return null; // a session launched just now: the watch reports, and a check comes when it does not
                    }
                }
                if (reading) {
                    pollOnce(taskWorkspace);
                    if (trouble != null || System.nanoTime() - lastHealthNanos < TimeUnit.MILLISECONDS.toNanos(AgentSession.CHECK_MILLIS)) {
                        return null; // a read takes what is new; the launch script's heartbeat is checked as often as when watched
                    }
                }
                SessionHealthCallable.Health health = new FilePath(channel, where.controlFolder)
                        .act(new SessionHealthCallable(where.resultFile, where.taskWorkspace, where.logFile));
                lastHealthNanos = System.nanoTime();
                judge(health, taskWorkspace);
                if (health.approvals() != null && !reading) { // a read takes them itself
                    session.accept(health.approvals());
                    owner.wake();
                }
                return null;
            });
        } catch (IOException e) {
            watchedChannel = null;
            trouble = new AgentSession.Unreachable(e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    private void watch(FilePath taskWorkspace) throws IOException, InterruptedException {
        AgentSession.Positions from = session.next();
        VirtualChannel channel = taskWorkspace.getChannel();
        neverWatched = false;
        WatchInbox mine = new WatchInbox();
        inbox = mine;
        SessionInbox exported = channel.export(SessionInbox.class, mine);
        RemoteOutputStream chunks = new RemoteOutputStream(new ChunkStream(mine::deliver));
        taskWorkspace.act(new FollowCallable(where.controller, new EventsHandler(exported, chunks, where.controlFolder, where.logFile,
                where.resultFile, where.taskWorkspace, AgentStops.controlParent(taskWorkspace), AgentSession.CHUNK_BYTES, from.output(),
                from.stderr(), from.usage(), owner.keptStateLimitBytes(), AgentSession.HOLD_MILLIS, AgentSession.CHECK_MILLIS / 2),
                owner.listener()));
        watchedChannel = channel;
    }

    private void readFromNowOn() {
        reading = true;
        inbox = null; // a watch that still runs gives up at its next hand-over
    }

    /** The watch handed over nothing of what was there: start it again, and after that once more, read instead. */
    private void watchAgainOrRead(FilePath taskWorkspace) throws IOException, InterruptedException {
        if (watchRestarted) {
            LOGGER.log(Level.INFO, "the follower of {0} on {1} hands nothing over; reading the session instead",
                    new Object[] {where.controlFolder, where.displayNode()});
            readFromNowOn();
            pollOnce(taskWorkspace);
            return;
        }
        watchRestarted = true;
        watchedChannel = null;
        watch(taskWorkspace);
    }

    /** What a check makes of the control folder's state. */
    private void judge(SessionHealthCallable.Health health, FilePath taskWorkspace) throws IOException, InterruptedException {
        long now = System.nanoTime();
        if (!health.folderExists()) {
            trouble = new AgentSession.Gone(Messages.AgentSession_Gone(where.controlFolder, where.displayNode()));
            return;
        }
        trouble = null;
        if (health.ended()) {
            staleHeartbeatSinceNanos = 0;
            if (!reading && !session.hasEnded()) {
                // the exit status is there but the watch did not hand it over: it has stopped; start another
                if (exitSeenWithoutPushNanos == 0) {
                    exitSeenWithoutPushNanos = now;
                } else if (now - exitSeenWithoutPushNanos >= TimeUnit.SECONDS.toNanos(5)) {
                    exitSeenWithoutPushNanos = 0;
                    watchAgainOrRead(taskWorkspace);
                }
            }
            return;
        }
        if (health.launchFilesUnread() && now - createdNanos > TimeUnit.MILLISECONDS.toNanos(NEVER_STARTED_MILLIS)) {
            trouble = new AgentSession.Lost(Messages.AgentSession_NeverStarted(where.displayNode(), NEVER_STARTED_MILLIS / 1000));
            return;
        }
        // a watch hands each growth of the log over within its hold (and sends an empty chunk when there is none), and
        // a check comes only after a while without news: the log ahead of what was handed over at two checks in a row,
        // longer apart than the hold, means the watch has stopped
        if (!reading && health.logBytes() > session.next().output()) {
            if (logAheadSinceNanos == 0) {
                logAheadSinceNanos = now;
            } else if (now - logAheadSinceNanos > TimeUnit.MILLISECONDS.toNanos(AgentSession.HOLD_MILLIS)) {
                logAheadSinceNanos = 0;
                watchAgainOrRead(taskWorkspace);
            }
        } else {
            logAheadSinceNanos = 0;
        }
        if (health.heartbeatAgeMillis() > AgentSession.LOST_AFTER_MILLIS) {
            if (staleHeartbeatSinceNanos == 0) {
                staleHeartbeatSinceNanos = now; // once more, a little later: a machine that just woke up catches up
            } else if (now - staleHeartbeatSinceNanos >= TimeUnit.SECONDS.toNanos(5)) {
                trouble = new AgentSession.Lost(Messages.AgentSession_Lost(where.displayNode(), health.heartbeatAgeMillis() / 1000));
            }
        } else {
            staleHeartbeatSinceNanos = 0;
        }
    }

    /** Without a watch: one read of what is new, taken like a hand-over. */
    private void pollOnce(FilePath taskWorkspace) throws IOException, InterruptedException {
        AgentSession.Positions from = session.next();
        PollCallable.Answer answer = new FilePath(taskWorkspace.getChannel(), where.controlFolder)
                .act(new PollCallable(where.logFile, where.resultFile, from.output(), from.stderr(), from.usage(), AgentSession.CHUNK_BYTES));
        if (!answer.folderExists()) {
            trouble = new AgentSession.Gone(Messages.AgentSession_Gone(where.controlFolder, where.displayNode()));
            return;
        }
        trouble = null;
        SessionChunk chunk = answer.chunk();
        if (!chunk.isEmpty()) {
            heardFrom();
            session.accept(chunk);
        }
        if (answer.exitCode() != null && chunk.output.length < AgentSession.CHUNK_BYTES && chunk.stderr.length < AgentSession.CHUNK_BYTES) {
            session.ended(answer.exitCode(), chunk);
        }
    }

    /**
     * What one watch hands over to: the session, as long as no later watch (or reading) has taken over. Then its
     * chunks and its call fail, and durable-task's watcher gives up, as when its channel closes: a watch that was slow,
     * not stopped, does not hand the session over twice for the rest of its run.
     */
    private final class WatchInbox implements SessionInbox {
        /** A chunk from the watch's stream ({@link ChunkStream}), on the channel's I/O thread. */
        void deliver(SessionChunk chunk) throws IOException {
            current();
            session.deliver(chunk);
        }

        @Override
        public void exited(int exitCode, SessionChunk last) throws Exception {
            current();
            session.exited(exitCode, last);
        }

        private void current() throws IOException {
            if (inbox != this) {
                throw new IOException("another watch of " + where.controlFolder + " hands it over now");
            }
        }
    }
}
