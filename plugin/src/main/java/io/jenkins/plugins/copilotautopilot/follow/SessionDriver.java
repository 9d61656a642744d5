package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentCalls;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.checks.SessionChecks;
import io.jenkins.plugins.copilotautopilot.pages.LiveSessions;
import io.jenkins.plugins.copilotautopilot.record.SessionRecording;
import io.jenkins.plugins.copilotautopilot.record.SessionSpans;
import io.jenkins.plugins.copilotautopilot.session.ResumeState;
import io.jenkins.plugins.copilotautopilot.trace.BuildTraces;
import io.jenkins.plugins.copilotautopilot.usage.Usage;

import hudson.Launcher;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.Checkpoint;
import io.jenkins.plugins.copilotautopilot.core.engine.PollingScheduler;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.Jenkins;

/**
 * Follows one running session for its build, Pipeline or Freestyle: the follower reads what the agent hands over
 * (on the remoting thread that brings it, noting a checkpoint before the agent counts it as received) and looks at
 * the session on a shared thread for the limits and the session's health. It ends the session exactly once: when
 * the CLI has ended or was stopped, when the control folder is gone, when the CLI was lost with its machine, or when
 * an abort cannot reach the agent. Then, on a recorder thread, the session's folders are deleted and the session is
 * recorded on the build before the build hears of the result.
 */
public final class SessionDriver implements AgentSession.Owner {
    private static final Logger LOGGER = Logger.getLogger(SessionDriver.class.getName());
    /** How long an abort waits for an agent that cannot be reached before the step ends anyway. */
    static final long UNREACHABLE_ABORT_MILLIS = Long.getLong(SessionDriver.class.getName() + ".unreachableAbortMillis", 10_000);

    /** What the driver needs from the build the session belongs to. */
    public interface Build {
        Run<?, ?> run() throws IOException, InterruptedException;

        Launcher launcher() throws IOException, InterruptedException;

        TaskListener listener();

        /** Notes how far the follower got, for a restarted controller (Pipeline); nothing for builds that cannot resume. */
        void checkpoint(Checkpoint checkpoint) throws IOException, InterruptedException;

        /** Whether the build goes on after a controller restart and follows its session again (Pipeline). */
        boolean resumesAfterRestart();

        /** What the session was started with (null: it never got that far). */
        ResumeState state();

        /**
         * The session has ended and was recorded on the build; called once, on a recorder thread.
         *
         * @param changesFileWritten whether the {@code changesFile} the settings name was written
         */
        void ended(SessionResult result, boolean changesFileWritten);

        /** The step the session runs in, whose span (where the build is traced) gets the session's. */
        BuildTraces.Step traceStep() throws IOException, InterruptedException;
    }

    private final String invocationId;
    private final Build build;
    private final AtomicBoolean completed = new AtomicBoolean();
    /** What to do once the session is over, whichever way (free its token's slot); each may run more than once. */
    private final java.util.List<Runnable> whenEnded = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile SessionFollower follower;
    private volatile AgentSession session;
    private volatile PollingScheduler.Handle handle;
    private volatile boolean stopRequested;
    /** The controller is shutting down and the build resumes after it: nothing more is followed (see {@link #freeze}). */
    private volatile boolean frozen;
    private volatile long unreachableSinceNanos;
    private volatile boolean reportedTrouble;
    private volatile long lastCheckpointNanos;
    /** Something came that the last checkpoint does not count (sooner than the next was due). */
    private volatile boolean unsaved;
    /** One checkpoint at a time, each taken as it is written: a later one is never overwritten by an earlier. */
    private final Object checkpointLock = new Object();
    /**
     * The most often a session's checkpoint is saved while it runs: as long as the journal may hold its lines in memory
     * ({@code SessionFollower}), so that each checkpoint's flush is the journal's only write in between.
     */
    static final long CHECKPOINT_NANOS = TimeUnit.SECONDS.toNanos(2);
    private long reportedLostBytes;
    /** Tests only: runs on the recorder thread just before a session is recorded (a controller dying in that window). */
    static volatile Runnable beforeRecording = () -> { };
    private static final long BUILD_LOOK_NANOS = TimeUnit.SECONDS.toNanos(5);
    private volatile long lastBuildLookNanos = System.nanoTime();

    public SessionDriver(String invocationId, Build build) {
        this.invocationId = invocationId;
        this.build = build;
    }

    /** Starts following {@code session} with {@code follower}, from the positions the follower has reached. */
    public void follow(SessionFollower follower, AgentSession session) {
        this.follower = follower;
        this.session = session;
        Checkpoint at = follower.checkpoint();
        session.live(at.outputOffset(), at.stderrOffset(), at.usageOffset());
        if (stopRequested) {
            follower.requestAbort();
        }
        Following.running(this);
        handle = Following.scheduler().submit(this::look);
        if (follower.approvals() != null) {
            follower.approvals().onDecision(this::wake);
            follower.approvals().addListener(new ApprovalLink());
        }
    }

    /** Under each call that starts to wait, where to decide on it: the build's session page. */
    private final class ApprovalLink implements io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Listener {
        @Override
        public void requested(io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval call) {
            TaskListener listener = build.listener();
            try {
                String url = "/" + build.run().getUrl() + io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction.URL_NAME + "/";
                listener.getLogger().print(io.jenkins.plugins.copilotautopilot.Messages.SessionDriver_ApprovalPrefix());
                listener.hyperlink(url, io.jenkins.plugins.copilotautopilot.Messages.SessionDriver_ApprovalLink());
                listener.getLogger().println();
            } catch (IOException e) {
                listener.getLogger().println(io.jenkins.plugins.copilotautopilot.Messages.SessionDriver_ApprovalLink());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void decided(io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval call,
                            io.jenkins.plugins.copilotautopilot.core.approval.ApprovalDecision decision) {
            // the log's line is the follower's
        }
    }

    public AgentSession session() {
        return session;
    }

    public SessionFollower follower() {
        return follower;
    }

    public boolean isCompleted() {
        return completed.get();
    }

    /**
     * Runs {@code r} as the session ends, however it ends (a result, a failure before it started, a stop), or now if
     * it has; {@code r} must not mind running twice, and must not block.
     */
    public void whenEnded(Runnable r) {
        whenEnded.add(r);
        if (completed.get()) {
            r.run();
        }
    }

    private void runWhenEnded() {
        for (Runnable r : whenEnded) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOGGER.log(Level.WARNING, "could not finish a Copilot session's end", e);
            }
        }
    }

    /** Asks the session to stop (abort, {@code timeout}): the CLI is stopped and the session ends ABORTED. */
    public void requestStop() {
        stopRequested = true;
        SessionFollower f = follower;
        if (f != null) {
            f.requestAbort();
        }
        wake();
    }

    @Override
    public void wake() {
        PollingScheduler.Handle h = handle;
        if (h != null) {
            h.wake();
        }
    }

    @Override
    public Launcher launcher() throws IOException, InterruptedException {
        return build.launcher();
    }

    @Override
    public TaskListener listener() {
        return build.listener();
    }

    @Override
    public long keptStateLimitBytes() {
        return KeptSessions.limitBytes();
    }

    /** Whether what the agent writes was printed in the console (else its words are private to readers of the workspace). */
    private boolean agentTextInConsole() {
        ResumeState state = build.state();
        return state == null || state.plan().get(SessionSettings.AGENT_TEXT_IN_CONSOLE);
    }

    /** One look at the session, on a shared follower thread; never calls the agent itself. */
    private PollingScheduler.Next look() {
        if (completed.get()) {
            return PollingScheduler.Next.DONE;
        }
        AgentSession s = session;
        SessionFollower f = follower;
        if (frozen) {
            return PollingScheduler.Next.DONE;
        }
        try {
            s.maintain();
            if (!stopRequested && buildEndedWithoutIt()) {
                LOGGER.info(() -> "the build of Copilot session " + invocationId + " ended without it (a forcible end): stopping the CLI");
                requestStop();
            }
            AgentSession.Trouble trouble = s.trouble();
            if (trouble instanceof AgentSession.Gone gone) {
                s.stop(); // what still runs from the gone folder: durable-task's stop needs no files
                end(f.lost(null, gone.message()));
                return PollingScheduler.Next.DONE;
            }
            if (trouble instanceof AgentSession.Lost lost) {
                end(f.lost(null, lost.message()));
                return PollingScheduler.Next.DONE;
            }
            if (trouble instanceof AgentSession.Unreachable unreachable && unreachable(f, unreachable)) {
                return PollingScheduler.Next.DONE;
            }
            if (trouble == null) {
                unreachableSinceNanos = 0;
                if (reportedTrouble) {
                    build.listener().getLogger().println(Messages.SessionDriver_Back(s.location().displayNode()));
                    reportedTrouble = false;
                    liveTrouble(null);
                }
            }
            SessionFollower.Tick tick;
            synchronized (f) {
                if (frozen) {
                    return PollingScheduler.Next.DONE;
                }
                tick = f.tick(s);
            }
            if (tick.finished()) {
                end(tick.result());
                return PollingScheduler.Next.DONE;
            }
            if ((tick.gotData() || unsaved) && System.nanoTime() - lastCheckpointNanos >= CHECKPOINT_NANOS) {
                // what this look or hand-overs brought after the last checkpoint and then nothing more (a tool that
                // works silently): noted once it is due, so that a controller that dies during the quiet part prints
                // none of it again
                saveCheckpoint();
            } else if (tick.gotData()) {
                unsaved = true;
            }
            return tick.gotData() ? PollingScheduler.Next.SOON : PollingScheduler.Next.LATER;
        } catch (IOException | InterruptedException | RuntimeException e) {
            LOGGER.log(Level.WARNING, "following a Copilot session failed", e);
            return PollingScheduler.Next.LATER;
        }
    }

    /**
     * Whether the build has ended while its session runs, looked at every few seconds: a Pipeline killed by force
     * (the stop button's last resort) tells its steps nothing, and its session would run on, and spend, for nobody.
     */
    private boolean buildEndedWithoutIt() {
        long now = System.nanoTime();
        if (now - lastBuildLookNanos < BUILD_LOOK_NANOS || controllerClosing()) {
            return false;
        }
        lastBuildLookNanos = now;
        try {
            return !build.run().isBuilding();
        } catch (IOException e) {
            return true; // a Pipeline killed by force has no program left to reach its build through
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** What the live session page says of the session's agent (null: nothing, it answers). */
    private void liveTrouble(String why) {
        try {
            LiveSessions.trouble(build.run(), invocationId, why);
        } catch (IOException e) {
            LOGGER.log(Level.FINE, "no build to show the agent's state on", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The agent cannot be reached: wait for it, unless the session has to end anyway. True when it has ended. */
    private boolean unreachable(SessionFollower f, AgentSession.Unreachable unreachable) {
        Jenkins controller = Jenkins.getInstanceOrNull();
        if (controller == null || controller.isTerminating()) {
            return false; // the controller going down disconnects its agents: that is not the agent's trouble
        }
        long now = System.nanoTime();
        if (unreachableSinceNanos == 0) {
            unreachableSinceNanos = now;
        }
        if (!reportedTrouble) {
            build.listener().getLogger().println(Messages.CopilotAutopilotStepExecution_Unreachable(unreachable.message()));
            reportedTrouble = true;
            liveTrouble(unreachable.message());
        }
        if (stopRequested && now - unreachableSinceNanos >= TimeUnit.MILLISECONDS.toNanos(UNREACHABLE_ABORT_MILLIS)) {
            end(f.abortedUnreachable(unreachable.message()));
            return true;
        }
        if (f.pastWallClockLimit()) {
            // the launch script's watchdog ends the CLI on the agent at the limit even without the controller
            end(f.lost(null, unreachable.message()));
            return true;
        }
        return false;
    }

    /** The agent handed something over (a remoting thread): follow it now and note how far it got. */
    @Override
    public void handedOver() throws Exception {
        SessionFollower f = follower;
        if (f == null || completed.get()) {
            return;
        }
        SessionFollower.Tick tick;
        synchronized (f) {
            if (frozen) {
                // the watch gives up, as when its channel closes; the agent keeps what it has not handed over (the end
                // too: it deletes no folder), and the restarted controller follows on from the checkpoint
                throw new IOException("Jenkins is shutting down; the session is followed again once it is back");
            }
            tick = f.tick(session);
        }
        long lost = session.lostOutputBytes();
        if (lost > reportedLostBytes) {
            build.listener().getLogger().println(Messages.SessionDriver_LostOutput(lost - reportedLostBytes));
            reportedLostBytes = lost;
        }
        if (tick.finished()) {
            end(tick.result());
        } else if (System.nanoTime() - lastCheckpointNanos >= CHECKPOINT_NANOS || controllerClosing()) {
            // Not after every hand-over: each is a journal flush and a file rewritten on the controller's disk, and
            // hand-overs come up to four times a second for each session. A controller that stops cleanly notes where
            // every session is (Following.shutDown), and from then on each hand-over is noted; one that dies prints again,
            // when it resumes, what came after its last checkpoint (what came in the two or three seconds before it
            // died: the first look once it is due notes what a hand-over brought, see look), and loses none of it.
            saveCheckpoint();
        } else if (tick.gotData()) {
            unsaved = true;
        }
    }

    private static boolean controllerClosing() {
        Jenkins controller = Jenkins.getInstanceOrNull();
        return controller == null || controller.isTerminating();
    }

    /**
     * The controller begins to shut down: a session whose build resumes after the restart notes how far it got, and
     * from then on follows nothing more. Jenkins closes the Pipelines' logs as it shuts down, before the agents are
     * disconnected: what a hand-over brought after that would be counted as shown and never be seen; left on the
     * agent, it is printed by the restarted controller. A Freestyle build, which ends with the controller, is followed
     * to its end.
     */
    void freeze() {
        SessionFollower f = follower;
        if (f == null || completed.get() || !build.resumesAfterRestart()) {
            return;
        }
        synchronized (f) {
            frozen = true; // a tick under way has ended: the checkpoint below counts what it showed
        }
        saveCheckpoint();
    }

    /**
     * A session that was not followed again after a restart (its agent has not answered) is ended by {@code follower},
     * made for its end ({@link #endWith}); its folders are deleted when the agent answers again, which stops the CLI.
     */
    public void unfollowed(SessionFollower follower, AgentSession session) {
        this.follower = follower;
        this.session = session;
    }

    /**
     * A session that had ended, and whose result its journal holds, before the controller went down without recording
     * it: it is ended with that result ({@link #endWith}), its folders deleted, with no follower (its closing lines
     * were printed); what needed one (its kept state, its spans) went with the controller.
     */
    public void journaled(AgentSession session) {
        this.session = session;
    }

    /**
     * Ends the session once with what {@code ending} makes, made only by the caller that ends it: a follower prints its
     * closing lines as it makes its result, and a second follower's (a stop and a resumption after a restart, each
     * with one of its own) must never reach the log. When no result can be made, {@code cannot} ends the build step.
     */
    public void endWith(java.util.concurrent.Callable<SessionResult> ending, java.util.function.Consumer<Exception> cannot) {
        if (!claimWithoutSession()) {
            return;
        }
        SessionResult result;
        try {
            result = ending.call();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            cannot.accept(e);
            return;
        }
        endClaimed(result);
    }

    /** Notes how far the follower got (after hand-overs and reads at most every two seconds, and on shutdown). */
    void saveCheckpoint() {
        SessionFollower f = follower;
        if (f == null || completed.get()) {
            return;
        }
        synchronized (checkpointLock) {
            try {
                unsaved = false; // before the follower's position is taken: what comes after it sets it again
                build.checkpoint(f.checkpoint());
            } catch (IOException | InterruptedException | RuntimeException e) {
                unsaved = true;
                LOGGER.log(Level.FINE, "could not save the checkpoint of a Copilot session", e);
            }
            lastCheckpointNanos = System.nanoTime(); // after a failure too: tried again when the next is due
        }
    }

    /**
     * Ends the session once (a session that never started included): on a recorder thread, deletes its folders on
     * the agent (bounded in time), records it on the build, and tells the build.
     */
    public void end(SessionResult ended) {
        if (claimWithoutSession()) {
            endClaimed(ended);
        }
    }

    /** The end of a session claimed by this caller: its folders, its record, then the build. */
    private void endClaimed(SessionResult ended) {
        AgentSession s = session;
        Following.recorders().submit(() -> {
            boolean written = false;
            SessionResult result = ended;
            try {
                result = AnswerFiles.held(build.state(), ended, build.listener());
                // the record first, from what the controller holds: it is what a controller that goes down before the
                // step ends finds when it is back (the step then ends as recorded); what needs the agent comes after
                countUsage(result);
                beforeRecording.run();
                recordOnBuild(result);
                String kept = build.state() == null ? null : build.state().plan().get(SessionSettings.SESSION);
                if (s != null && kept != null && follower != null) {
                    keepSoon(s, kept);
                }
                java.util.concurrent.atomic.AtomicReference<byte[]> spans = new java.util.concurrent.atomic.AtomicReference<>();
                if (s != null && follower != null && build.state() != null && build.state().plan().get(SessionSettings.OTEL)) {
                    boundedOnPool(() -> {
                        spans.set(SessionSpans.save(build.run(), invocationId, s, follower.masker(), build.state().traceParent(),
                                build.listener()));
                        return null;
                    }, why -> Messages.SessionSpans_Failed() + why);
                }
                if (s != null) {
                    SessionCleanup.Cleanup cleanup = SessionCleanup.now(s);
                    if (cleanup instanceof SessionCleanup.Cleanup.Refused refused) {
                        build.listener().getLogger().println(Messages.SessionDriver_CleanupRefused(s.location().controlFolder(),
                                s.location().displayNode(), refused.why()));
                    } else if (cleanup instanceof SessionCleanup.Cleanup.Unreachable) {
                        build.listener().getLogger().println(Messages.SessionDriver_CleanupLater(s.location().controlFolder(),
                                s.location().displayNode()));
                        SessionCleanup.later(s);
                    }
                }
                foldersSeenTo();
                written = s != null && ChangesFile.write(build.state(), result, build.listener());
                if (s != null) {
                    AnswerFiles.write(build.state(), result, build.listener());
                }
                try {
                    BuildTraces.ended(build.traceStep(), result, spans.get(), build.listener());
                    ResumeState state = build.state();
                    if (state != null) {
                        SessionChecks.ended(build.run(), state.plan(), state.startedAtMillis(), result, build.listener());
                    }
                } catch (IOException | InterruptedException | RuntimeException e) {
                    build.listener().getLogger().println(Messages.SessionRecording_CannotSave(e.getMessage()));
                }
            } finally {
                build.ended(result, written);
            }
        });
    }

    /** The session's folders are deleted, or will be: its build need not see to them as it completes. */
    private void foldersSeenTo() {
        try {
            UnendedSessions.endedWithItsFolders(build.run(), invocationId);
        } catch (IOException e) {
            LOGGER.log(Level.FINE, "no build to un-note a Copilot session in", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void recordOnBuild(SessionResult result) {
        try {
            SessionRecording.record(build.run(), invocationId, result, !agentTextInConsole(), build.listener());
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            build.listener().getLogger().println(Messages.SessionRecording_CannotSave(e.getMessage()));
        }
    }

    /** The session's last usage and its outcome into the usage index, whatever else fails at the end. */
    private void countUsage(SessionResult result) {
        try {
            Usage.ended(build.run(), invocationId, result);
        } catch (IOException | RuntimeException e) {
            LOGGER.log(Level.WARNING, "could not count a Copilot session's usage", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * What may call the agent, on the remote-call pool, waited for a bounded time; a failure or a timeout is one line of
     * the console, {@code failed} given why.
     */
    private void boundedOnPool(java.util.concurrent.Callable<Void> work, java.util.function.UnaryOperator<String> failed) {
        Future<Void> running = AgentCalls.pool().submit(work);
        try {
            running.get(AgentSession.REMOTE_TIMEOUT_SECONDS + 5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable why = e.getCause() == null ? e : e.getCause();
            build.listener().getLogger().println(failed.apply(why.getMessage() == null ? why.toString() : why.getMessage()));
        } catch (TimeoutException e) {
            running.cancel(true);
            build.listener().getLogger().println(failed.apply(e.toString()));
        } catch (InterruptedException e) {
            running.cancel(true);
            Thread.currentThread().interrupt();
        }
    }

    /** Keeps the session's state for the job's next build, on the remote-call pool, waited for a bounded time. */
    private void keepSoon(AgentSession s, String name) {
        boundedOnPool(() -> {
            KeptSessions.save(build.run(), name, s, follower.masker(), build.listener());
            return null;
        }, why -> Messages.KeptSessions_Failed(name, why));
    }

    /**
     * Marks the session as ended without a result to record (it never started, or cannot be followed at all);
     * true only the first time, when the caller is the one to end the build step.
     */
    public boolean claimWithoutSession() {
        if (!completed.compareAndSet(false, true)) {
            return false;
        }
        runWhenEnded();
        PollingScheduler.Handle h = handle;
        if (h != null) {
            h.cancel();
        }
        Following.done(this);
        return true;
    }

    /** Records a session the build no longer waits for (it ended while the session was being started). */
    public void recordOnly(SessionResult result) {
        Following.recorders().submit(() -> {
            countUsage(result);
            try {
                SessionRecording.record(build.run(), invocationId, result, !agentTextInConsole(), build.listener());
            } catch (IOException | InterruptedException | RuntimeException e) {
                LOGGER.log(Level.FINE, "could not record a Copilot session", e);
            }
        });
    }

    /** For the step's status (thread dumps): where the session runs and how far it got. */
    public String status() {
        AgentSession s = session;
        SessionFollower f = follower;
        if (s == null || f == null) {
            return "starting the Copilot CLI";
        }
        AgentSession.Trouble trouble = s.trouble();
        return "following the Copilot CLI in " + s.location().controlFolder() + " on " + s.location().displayNode() + ": "
                + f.state().events() + " events" + (trouble == null ? "" : " (" + trouble.message() + ")");
    }
}
