package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.follow.Following;
import io.jenkins.plugins.copilotautopilot.follow.SessionDriver;
import io.jenkins.plugins.copilotautopilot.follow.UnendedSessions;
import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.Outcomes;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.prepare.SessionRequest;
import io.jenkins.plugins.copilotautopilot.prepare.SessionResume;
import io.jenkins.plugins.copilotautopilot.prepare.SessionStart;
import io.jenkins.plugins.copilotautopilot.record.SessionJournal;
import io.jenkins.plugins.copilotautopilot.record.SessionRecording;
import io.jenkins.plugins.copilotautopilot.session.CredentialSlots;
import io.jenkins.plugins.copilotautopilot.session.ResumeState;
import io.jenkins.plugins.copilotautopilot.trace.BuildTraces;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Result;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.security.ACL;
import hudson.security.ACLContext;
import io.jenkins.plugins.copilotautopilot.core.engine.Checkpoint;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.BuildVerdict;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.Jenkins;
import jenkins.util.Timer;
import org.jenkinsci.plugins.workflow.actions.WarningAction;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.steps.AbstractStepExecutionImpl;
import org.jenkinsci.plugins.workflow.steps.EnvironmentExpander;
import org.jenkinsci.plugins.workflow.steps.FlowInterruptedException;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.springframework.security.core.Authentication;

/**
 * Runs the step the way {@code sh} runs a script: durable-task runs the CLI on the agent, detached, and the agent
 * hands its events over as they come ({@link SessionDriver}). Nothing blocks the CPS VM thread or a restart: after a
 * controller restart ({@link #onResume}) the session is followed again from where the log stopped; after an agent
 * reconnects, from where it was. A stop (abort, {@code timeout}) stops the CLI and ends the step once it is gone (or
 * when it cannot be reached), with the session recorded. Returns a plain map, usable in a sandboxed Pipeline.
 *
 * <p>Before anything starts on the agent, the session claims its GitHub token's slot ({@link CredentialSlots}); over the
 * administrator's cap it waits, in its turn, without a thread: the slots start it when one is free. A restart while it
 * waits queues it again in its place (what it asked for is kept meanwhile, {@link WaitingRequest}); a stop takes it out
 * of the queue at once. However the session ends, its slot is freed ({@link SessionDriver#whenEnded}).
 */
final class CopilotAutopilotStepExecution extends AbstractStepExecutionImpl implements SessionDriver.Build, CredentialSlots.Claimant {
    private static final long serialVersionUID = 1L;
    private static final Logger LOGGER = Logger.getLogger(CopilotAutopilotStepExecution.class.getName());
    /**
     * How long a stop may take before the step ends anyway (the CLI could not be reached or would not stop), with its
     * closing line and the session recorded: shorter than the minute {@code timeout} gives its body before it ends it
     * without a word.
     */
    @SuppressFBWarnings(value = "MS_SHOULD_BE_FINAL", justification = "tunable in tests")
    static long STOP_DEADLINE_SECONDS = Long.getLong(CopilotAutopilotStepExecution.class.getName() + ".stopDeadlineSeconds", 40);
    /** How long to wait before trying again to follow a session whose agent is not back yet after a restart. */
    private static final long RESUME_RETRY_SECONDS = 5;

    private final transient CopilotAutopilotStep step;
    /** Set before the CLI is started, and again once it runs: what a restarted controller needs to follow it again. */
    private ResumeState state;
    /** The step's invocation ({@code node-<id>}). */
    private String invocationId;
    /** The session's claim of its GitHub token's slot; null when it needs none (no token) or has not claimed it yet. */
    private volatile CredentialSlots.Ticket slot;
    /** What the step asked for while it waits for its slot (to gather it again after a restart); null once it has it. */
    private volatile WaitingRequest waiting;
    /** The inputs gathered before the wait; null after a restart (gathered again). */
    private transient volatile SessionStart.Inputs gathered;
    private transient Authentication auth;

    private transient volatile SessionDriver driver;
    private transient volatile Throwable stopCause;
    private transient TaskListener listener;
    private transient boolean reportedUnreachable;
    /** This execution was loaded after a controller restart (its session is followed again, or is to be). */
    private transient volatile boolean resumed;

    CopilotAutopilotStepExecution(CopilotAutopilotStep step, StepContext context) {
        super(context);
        this.step = step;
    }

    @Override
    public boolean start() throws Exception {
        invocationId = "node-" + getContext().get(FlowNode.class).getId();
        auth = Jenkins.getAuthentication2();
        driver = new SessionDriver(invocationId, this);
        Following.starters().submit(() -> {
            try (ACLContext ignored = ACL.as2(auth)) {
                launch();
            }
        });
        return false;
    }

    /**
     * On a starter thread: gathers the session's inputs, claims its token's slot and, when it may start now, prepares
     * and starts it; else the slots start it in its turn ({@link #slotGranted}).
     */
    private void launch() {
        SessionDriver d = driver;
        try {
            SessionRequest request = new SessionRequest(step.getPrompt(), step.settings(), step.isPropagate());
            SessionStart.Inputs inputs = gather(request);
            CredentialSlots.Ticket ticket = inputs.ticket(run(), invocationId);
            if (ticket != null) {
                slot = ticket;
                d.whenEnded(this::releaseSlot);
                gathered = inputs;
                waiting = WaitingRequest.of(request);
                if (!CredentialSlots.get().acquire(ticket, listener(), this::slotGranted)) {
                    getContext().saveState(); // a restart while it waits queues it again, in its turn
                    if (stopCause != null) {
                        stopWhileWaiting(d, stopCause); // stopped as it came to wait
                    } else if (d.isCompleted()) {
                        releaseSlot();
                    }
                    return;
                }
                waiting = null;
                gathered = null;
            }
            prepareAndStart(inputs);
        } catch (Throwable e) {
            if (d.isCompleted()) {
                return;
            }
            failOnce(d, e);
        }
    }

    private SessionStart.Inputs gather(SessionRequest request) throws IOException, InterruptedException {
        StepContext context = getContext();
        EnvironmentExpander expander = context.get(EnvironmentExpander.class);
        Set<String> sensitive = expander == null ? Set.of() : expander.getSensitiveVariables();
        return SessionStart.gather(request, context.get(Run.class), context.get(FilePath.class), context.get(EnvVars.class),
                launcher(), listener(), sensitive);
    }

    /** The session's slot is free (the slots' thread): it starts on a starter thread. */
    @Override
    public void slotGranted() {
        Authentication as = auth;
        Following.starters().submit(() -> {
            if (as == null) {
                afterWait(); // after a restart, as the session's resumption runs
                return;
            }
            try (ACLContext ignored = ACL.as2(as)) {
                afterWait();
            }
        });
    }

    /** On a starter thread, once the slot is the session's: gathers its inputs again if a restart lost them, and starts it. */
    private void afterWait() {
        SessionDriver d = ensureDriver();
        try {
            if (stopCause != null || d.isCompleted()) {
                releaseSlot(); // stopped as its turn came: the stop ends the step
                return;
            }
            CredentialSlots.Ticket ticket = slot;
            CredentialSlots.get().startingAfterWait(ticket, listener());
            SessionStart.Inputs inputs = gathered;
            WaitingRequest asked = waiting;
            if (inputs == null) {
                inputs = gather(asked.request());
            }
            waiting = null;
            gathered = null;
            prepareAndStart(inputs);
        } catch (Throwable e) {
            if (!d.isCompleted()) {
                failOnce(d, e);
            }
        }
    }

    /** Stopped while it waits for its slot: out of the queue, one line, and the step ends now. */
    private void stopWhileWaiting(SessionDriver d, Throwable cause) {
        CredentialSlots.Ticket ticket = slot;
        if (d.claimWithoutSession()) {
            CredentialSlots.get().stoppedWhileWaiting(ticket, listener());
            getContext().onFailure(cause);
        }
    }

    private void releaseSlot() {
        CredentialSlots.Ticket ticket = slot;
        if (ticket != null) {
            CredentialSlots.get().release(ticket);
        }
    }

    /** The driver, made once (after a restart, by whichever comes first: the resumption or the slot's turn). */
    private synchronized SessionDriver ensureDriver() {
        if (driver == null) {
            driver = new SessionDriver(state != null ? state.invocationId() : invocationId != null ? invocationId : "unknown", this);
            if (slot != null) {
                driver.whenEnded(this::releaseSlot);
            }
        }
        return driver;
    }

    /** Prepares the session (maybe installing the CLI), then starts it unless the step was stopped. */
    private void prepareAndStart(SessionStart.Inputs inputs) throws Exception {
        SessionDriver d = ensureDriver();
        StepContext context = getContext();
        SessionStart.Prepared prepared = SessionStart.prepare(inputs, context.get(Run.class), context.get(FilePath.class),
                context.get(EnvVars.class), launcher(), listener(), invocationId);
        state = prepared.state();
        if (stopCause != null || d.isCompleted()) {
            SessionResult aborted = prepared.follower().abortedBeforeStart();
            if (d.isCompleted()) {
                d.recordOnly(aborted); // the step ended meanwhile (the stop's deadline): record the session anyway
            } else {
                d.end(aborted);
            }
            return;
        }
        context.saveState(); // a restart from here on removes the launch folder, which stops a CLI that started
        UnendedSessions.launching(context.get(Run.class), invocationId, state.launchNode(), state.launchFolder());
        AgentSession session = SessionStart.launch(prepared, launcher(), listener(), d);
        if (session == null) {
            d.end(prepared.follower().result()); // it could not start: the follower says why
            return;
        }
        if (d.isCompleted()) {
            // the step ended while the CLI was being started (its stop's deadline passed): stop it, and record the session
            SessionStart.stopStartedTooLate(session);
            d.recordOnly(prepared.follower().abortedBeforeStart());
            return;
        }
        state = state.started(session.location());
        context.saveState();
        saveCheckpointNow(invocationId, prepared.follower());
        d.follow(prepared.follower(), session);
        if (stopCause != null) {
            d.requestStop(); // stopped while it was starting
        }
    }

    private void saveCheckpointNow(String invocationId, SessionFollower follower) {
        try {
            SessionJournal.saveCheckpoint(getContext().get(Run.class), invocationId, follower.checkpoint());
        } catch (IOException | InterruptedException e) {
            LOGGER.log(Level.FINE, "could not save the first checkpoint of a Copilot session", e);
        }
    }

    /** Ends the step with {@code e} unless it has ended already. */
    private void failOnce(SessionDriver d, Throwable e) {
        if (d.claimWithoutSession()) {
            getContext().onFailure(e);
        }
    }

    @Override
    public void onResume() {
        resumed = true;
        ensureDriver();
        if (waitsForSlot()) {
            // the slots, rebuilt from the running steps, start it in its turn
            listener().getLogger().println(CredentialSlots.stillWaiting(slot));
            return;
        }
        Following.starters().submit(this::resume);
    }

    /** After a controller restart, on a starter thread: follows the session again once its agent is back. */
    private void resume() {
        SessionDriver d = driver;
        ResumeState s = state;
        if (d.isCompleted()) {
            return;
        }
        if (s == null) {
            failOnce(d, new AbortException(Messages.CopilotAutopilotStepExecution_RestartBeforeStart()));
            return;
        }
        if (s.location() == null) {
            SessionStart.removeLaunchFolder(s); // restarted while the CLI was being started: which stops it if it did start
            failOnce(d, new AbortException(Messages.CopilotAutopilotStepExecution_RestartBeforeStart()));
            return;
        }
        if (endedAsRecorded(d, s) || endedAsJournaled(d, s)) {
            return;
        }
        try {
            AgentSession session = new AgentSession(s.location(), d);
            SessionFollower follower = SessionResume.follower(s, getContext().get(Run.class),
                    getContext().get(EnvVars.class), listener(), session);
            if (d.isCompleted()) {
                return; // stopped meanwhile: ended without it
            }
            listener().getLogger().println(Messages.CopilotAutopilotStepExecution_Resumed(s.location().displayNode()));
            d.follow(follower, session);
            if (stopCause != null) {
                d.requestStop();
            }
        } catch (AbortException e) {
            // a credential is gone: nobody may follow this session any more, so it has to stop
            stopUnfollowable(d, s, e);
        } catch (AgentSession.FolderGone e) {
            endWithFolderGone(d, s, e);
        } catch (FlowInterruptedException e) {
            endWithAgentGone(d, s, e);
        } catch (IOException e) {
            unreachable(d, s, e);
        } catch (hudson.remoting.RequestAbortedException e) {
            // remoting's word, unchecked, for a call its channel's end cut off: the agent went away as it answered
            unreachable(d, s, new IOException(e.getMessage(), e));
        } catch (InterruptedException e) {
            if (controllerGoesDown()) {
                return; // Jenkins stops its threads as it shuts down: the step is resumed again once it is back
            }
            failAbandoning(d, s, e);
        } catch (RuntimeException e) {
            failAbandoning(d, s, e);
        }
    }

    /**
     * Ends the step without following its session again: whatever of the session still runs on its agent is stopped
     * once that agent answers (its folders are deleted, which ends the CLI), instead of running on for nobody.
     */
    private void failAbandoning(SessionDriver d, ResumeState s, Throwable e) {
        if (d.claimWithoutSession()) {
            abandon(d, s);
            getContext().onFailure(e);
        }
    }

    private void abandon(SessionDriver d, ResumeState s) {
        new AgentSession(s.location(), d).deleteFoldersLater();
        try {
            UnendedSessions.endedWithItsFolders(getContext().get(Run.class), s.invocationId());
        } catch (IOException e) {
            LOGGER.log(Level.FINE, "the build is gone: its completion saw to the session's folders", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The session's agent did not answer the resumption: tried again in a while, unless the build gave up on it. */
    private void unreachable(SessionDriver d, ResumeState s, IOException e) {
        if (!buildGoesOn()) {
            endWithAgentGone(d, s, e);
            return;
        }
        if (System.currentTimeMillis() - s.startedAtMillis() > s.endedForSureAfterMillis()) {
            failAbandoning(d, s, new AbortException(Messages.CopilotAutopilotStepExecution_NeverBack(s.location().displayNode())));
            return;
        }
        if (!reportedUnreachable) {
            reportedUnreachable = true;
            listener().getLogger().println(Messages.CopilotAutopilotStepExecution_Unreachable(e.getMessage()));
        }
        Timer.get().schedule(() -> Following.starters().submit(this::resume), RESUME_RETRY_SECONDS, TimeUnit.SECONDS);
    }

    private static boolean controllerGoesDown() {
        Jenkins controller = Jenkins.getInstanceOrNull();
        return Following.stopping() || controller == null || controller.isTerminating();
    }

    /**
     * The session's folder went with its workspace while the controller was down: whatever still runs of it is
     * stopped (durable-task's stop needs no files), and the session ends FAILED, recorded with what its journal held.
     */
    private void endWithFolderGone(SessionDriver d, ResumeState s, AgentSession.FolderGone gone) {
        try {
            new AgentSession(s.location(), d).stopNow();
        } catch (IOException | InterruptedException | RuntimeException e) {
            LOGGER.log(Level.FINE, "could not stop a Copilot session whose folder is gone", e);
        }
        d.endWith(() -> SessionResume.withoutSession(s, getContext().get(Run.class), getContext().get(EnvVars.class), listener())
                .lost(null, gone.getMessage()), e -> getContext().onFailure(new AbortException(gone.getMessage())));
    }

    /** False once the build has ended without this step (its {@code node} block gave up on the agent). */
    private boolean buildGoesOn() {
        try {
            return getContext().get(Run.class).isBuilding();
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /**
     * The {@code node} block the session runs in ended while the controller came back: its agent did not return in
     * time (the {@code node} step waits five minutes for it), and the build ended without this step. The session ends
     * FAILED, recorded with what its journal held; its folders are deleted once the agent answers again, which stops
     * the CLI if it still runs there. The build's variables are not to be had without the agent: the ending is masked
     * with the credentials' values.
     */
    private void endWithAgentGone(SessionDriver d, ResumeState s, Exception gone) {
        endUnfollowed(d, s, gone, f -> f.lost(null, Messages.CopilotAutopilotStepExecution_AgentNotBack(s.location().displayNode())));
    }

    /** Ends a session this step has not followed since the restart, recorded; its folders go once the agent answers. */
    private void endUnfollowed(SessionDriver d, ResumeState s, Throwable cause,
                               java.util.function.Function<SessionFollower, SessionResult> ending) {
        d.endWith(() -> {
            AgentSession session = new AgentSession(s.location(), d);
            SessionFollower f = SessionResume.withoutSession(s, getContext().get(Run.class), new EnvVars(), listener());
            d.unfollowed(f, session);
            return ending.apply(f);
        }, e -> {
            // the build ended meanwhile (a forcible end leaves it no log to write to): not recorded, but still stopped
            LOGGER.log(Level.FINE, "could not record a Copilot session that was not followed again", e);
            abandon(d, s);
            getContext().onFailure(cause);
        });
    }

    private void stopUnfollowable(SessionDriver d, ResumeState s, AbortException why) {
        try {
            AgentSession session = new AgentSession(s.location(), d);
            session.stopNow();
            session.cleanup();
        } catch (IOException | InterruptedException | RuntimeException e) {
            LOGGER.log(Level.FINE, "could not stop a Copilot session that cannot be followed", e);
        }
        failOnce(d, why);
    }

    @Override
    public void stop(Throwable cause) throws Exception {
        if (stopCause == null) {
            stopCause = cause;
        }
        ResumeState s = state;
        // stopped after a restart before the step resumed (a timeout that expired meanwhile): its driver is made here
        boolean beforeResume = driver == null && s != null && s.location() != null;
        SessionDriver d = beforeResume ? ensureDriver() : driver;
        if (d == null && waiting == null) {
            getContext().onFailure(cause);
            return;
        }
        if (waiting != null && slot != null) {
            stopWhileWaiting(ensureDriver(), cause);
            return;
        }
        if ((resumed || beforeResume) && d.follower() == null && s != null && s.location() != null && !d.isCompleted()) {
            if (endedAsRecorded(d, s) || endedAsJournaled(d, s)) {
                return;
            }
            // stopped after a restart before the session was followed again (its agent may not have answered since):
            // the session ends at once; deleting its folders stops the CLI, now or once the agent answers
            endUnfollowed(d, s, cause, f -> f.abortedUnreachable(
                    Messages.CopilotAutopilotStepExecution_StoppedUnfollowed(s.location().displayNode())));
            return;
        }
        d.requestStop();
        // a stop ends the step once the CLI is gone; if that cannot be done, the step ends anyway, with the session
        // recorded as ABORTED (the CLI may still run: the log says so, and its watchdog ends it at the latest limit)
        long deadline = STOP_DEADLINE_SECONDS;
        Timer.get().schedule(() -> {
            if (d.isCompleted()) {
                return;
            }
            listener().getLogger().println(Messages.CopilotAutopilotStepExecution_StopTimedOut(deadline));
            SessionFollower f = d.follower();
            if (f != null) {
                d.end(f.abortedUnreachable(Messages.CopilotAutopilotStepExecution_NoStopWithin(deadline)));
            } else if (d.claimWithoutSession()) {
                getContext().onFailure(cause);
            }
        }, deadline, TimeUnit.SECONDS);
    }

    // ---- SessionDriver.Build ----

    @Override
    public Run<?, ?> run() throws IOException, InterruptedException {
        return getContext().get(Run.class);
    }

    @Override
    public void checkpoint(Checkpoint checkpoint) throws IOException, InterruptedException {
        ResumeState s = state;
        if (s != null) {
            SessionJournal.saveCheckpoint(run(), s.invocationId(), checkpoint);
        }
    }

    @Override
    public boolean resumesAfterRestart() {
        return true;
    }

    @Override
    public ResumeState state() {
        return state;
    }

    @Override
    public BuildTraces.Step traceStep() throws IOException, InterruptedException {
        return new BuildTraces.Step(run(), getContext().get(FlowNode.class), null);
    }

    /** How the session's end ends the step (a recorder thread; the session is recorded). */
    @Override
    public void ended(SessionResult result, boolean changesFileWritten) {
        ResumeState s = state;
        endStep(Outcomes.verdict(result, s == null ? null : s.plan()), result.outcome().name(), result.reason(), () -> {
            LinkedHashMap<String, Object> map = new LinkedHashMap<>(result.toMap());
            map.put("changesFile", changesFileWritten ? s.plan().get(SessionSettings.CHANGES_FILE) : null);
            return map;
        });
    }

    /**
     * The session had ended and was recorded when the controller went down, before Pipeline saved the step's end (a
     * {@code kill -9} in between): the step ends as the record says, and the session is not ended again. Its folders
     * were deleted as it ended, or are in the background deletions, which a restart keeps. The step's value is the
     * result its journal closed with (whether a {@code changesFile} was written is not known again: it is left out).
     *
     * @return whether it had been recorded (the step is ended, or was already)
     */
    /**
     * The session had ended and its follower had made its result (its closing lines printed, its journal closed with
     * it) when the controller went down before recording it; the agent may well have deleted its folders since (it
     * does once it has handed the end over). It is recorded as its journal closed, without its closing lines again.
     */
    private boolean endedAsJournaled(SessionDriver d, ResumeState s) {
        SessionResult journaled;
        try {
            journaled = SessionJournal.closedWith(getContext().get(Run.class), s.invocationId());
        } catch (IOException | InterruptedException e) {
            return false;
        }
        if (journaled == null) {
            return false;
        }
        listener().getLogger().println(Messages.CopilotAutopilotStepExecution_EndedAsJournaled(journaled.outcome().name()));
        d.endWith(() -> {
            d.journaled(new AgentSession(s.location(), d));
            return journaled;
        }, e -> getContext().onFailure(e));
        return true;
    }

    private boolean endedAsRecorded(SessionDriver d, ResumeState s) {
        SessionRecord recorded;
        Run<?, ?> run;
        try {
            run = getContext().get(Run.class);
            CopilotAutopilotRunAction action = run == null ? null : run.getAction(CopilotAutopilotRunAction.class);
            recorded = action == null ? null : action.getSessions().stream()
                    .filter(r -> s.invocationId().equals(r.getInvocationId())).findFirst().orElse(null);
        } catch (IOException | InterruptedException e) {
            return false;
        }
        if (recorded == null) {
            return false;
        }
        if (d.claimWithoutSession()) {
            String outcome = recorded.getEnding().getOutcome();
            Outcome known = Outcomes.parse(outcome);
            listener().getLogger().println(Messages.CopilotAutopilotStepExecution_EndedAsRecorded(outcome));
            Map<String, Object> value = SessionJournal.recordedResult(run, recorded.getJournalFile());
            endStep(known == null ? BuildVerdict.FAILURE : Outcomes.verdict(known, s.plan()), outcome, recorded.getEnding().getReason(), () -> {
                LinkedHashMap<String, Object> map = new LinkedHashMap<>();
                if (value != null) {
                    map.putAll(value);
                } else {
                    map.put("outcome", outcome);
                    map.put("reason", recorded.getEnding().getReason());
                }
                map.put("changesFile", null);
                return map;
            });
        }
        return true;
    }

    /** Ends the step as a session's verdict says: fails it, marks the build, or returns {@code value}. */
    private void endStep(BuildVerdict verdict, String outcome, String reason, Supplier<Map<String, Object>> value) {
        ResumeState s = state;
        boolean propagate = s == null ? step == null || step.isPropagate() : s.propagate();
        try {
            Throwable cause = stopCause;
            if (verdict == BuildVerdict.ABORTED || cause != null) {
                // a stop asked for while the session was ending still stops the build, as durable-task's steps do
                if (verdict != BuildVerdict.ABORTED) {
                    listener().getLogger().println(Messages.CopilotAutopilotStepExecution_StoppedAsItEnded(outcome));
                }
                getContext().onFailure(cause != null ? cause : new FlowInterruptedException(Result.ABORTED, true));
                return;
            }
            if (verdict == BuildVerdict.FAILURE && propagate) {
                getContext().onFailure(new AbortException(SessionRecording.failureMessage(outcome, reason)));
                return;
            }
            if (verdict == BuildVerdict.UNSTABLE || verdict == BuildVerdict.FAILURE) {
                // unstable, or a failure the Pipeline asked to get back as a result (propagate: false)
                listener().getLogger().println(Messages.CopilotAutopilotStepExecution_Warning(outcome, reason));
                if (verdict == BuildVerdict.UNSTABLE) {
                    getContext().get(FlowNode.class).addOrReplaceAction(new WarningAction(Result.UNSTABLE).withMessage(reason));
                    run().setResult(Result.UNSTABLE);
                }
            }
            getContext().onSuccess(value.get());
        } catch (Throwable e) {
            getContext().onFailure(e);
        }
    }

    @Override
    public String getStatus() {
        CredentialSlots.Ticket ticket = slot;
        if (waiting != null && ticket != null) {
            return CredentialSlots.status(ticket) + (stopCause == null ? "" : "; asked to stop");
        }
        SessionDriver d = driver;
        String status = d == null ? "starting the Copilot CLI" : d.status();
        return stopCause == null ? status : status + "; asked to stop";
    }

    @Override
    public Launcher launcher() throws IOException, InterruptedException {
        Launcher launcher = getContext().get(Launcher.class);
        if (launcher == null) {
            throw new IOException("no launcher in " + getContext());
        }
        return launcher;
    }

    @Override
    public synchronized TaskListener listener() {
        if (listener == null) {
            try {
                listener = getContext().get(TaskListener.class);
            } catch (IOException | InterruptedException e) {
                LOGGER.log(Level.FINE, "no listener", e);
            }
            if (listener == null) {
                return TaskListener.NULL;
            }
        }
        return listener;
    }

    // ---- CredentialSlots.Claimant ----

    @Override
    public CredentialSlots.Ticket slotTicket() {
        return slot;
    }

    @Override
    public boolean waitsForSlot() {
        return slot != null && waiting != null && state == null;
    }

    @Override
    public boolean holdsSlot() {
        SessionDriver d = driver;
        return slot != null && waiting == null && (d == null || !d.isCompleted());
    }

    /** For {@link Following#running()}: the session's driver, once there is one. */
    SessionDriver driver() {
        return driver;
    }
}
