package io.jenkins.plugins.copilotautopilot;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Result;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.PollingScheduler;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.BuildVerdict;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import hudson.security.ACL;
import hudson.security.ACLContext;
import jenkins.model.Jenkins;
import jenkins.util.Timer;
import org.springframework.security.core.Authentication;
import org.jenkinsci.plugins.workflow.actions.WarningAction;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.steps.AbstractStepExecutionImpl;
import org.jenkinsci.plugins.workflow.steps.EnvironmentExpander;
import org.jenkinsci.plugins.workflow.steps.FlowInterruptedException;
import org.jenkinsci.plugins.workflow.steps.StepContext;

/**
 * Runs the step the way {@code sh} runs a script: the CLI works on the agent, detached, and the controller
 * follows its output files from a shared thread. Nothing blocks the CPS VM thread or a restart: after a
 * controller restart ({@link #onResume}) the session is followed again from where the log stopped; after an
 * agent reconnects, from where it was. A stop (abort, {@code timeout}) stops the CLI's process tree and ends
 * the step only once it is gone, with the session recorded. Returns a plain map, usable in a sandboxed Pipeline.
 */
final class CopilotAutopilotStepExecution extends AbstractStepExecutionImpl implements AgentSession.Access {
    private static final long serialVersionUID = 1L;
    private static final Logger LOGGER = Logger.getLogger(CopilotAutopilotStepExecution.class.getName());
    /** How long a stop may take before the step ends anyway (the CLI could not be reached or would not stop). */
    private static final long STOP_DEADLINE_SECONDS = Long.getLong(CopilotAutopilotStepExecution.class.getName() + ".stopDeadlineSeconds", 60);

    private final transient CopilotAutopilotStep step;
    /** Set once the CLI was started: all a restarted controller needs to follow it again. */
    private ResumeState state;

    private transient volatile SessionFollower follower;
    private transient volatile AgentSession session;
    private transient volatile PollingScheduler.Handle handle;
    private transient volatile Throwable stopCause;
    private transient volatile boolean completed;
    private transient TaskListener listener;
    private transient boolean reportedUnreachable;
    private transient long lastCheckpoint;

    CopilotAutopilotStepExecution(CopilotAutopilotStep step, StepContext context) {
        super(context);
        this.step = step;
    }

    @Override
    public boolean start() throws Exception {
        String invocationId = "node-" + getContext().get(FlowNode.class).getId();
        Authentication auth = Jenkins.getAuthentication2();
        Following.starters().submit(() -> {
            try (ACLContext ignored = ACL.as2(auth)) {
                launch(invocationId);
            }
        });
        return false;
    }

    private void launch(String invocationId) {
        try {
            StepContext context = getContext();
            EnvironmentExpander expander = context.get(EnvironmentExpander.class);
            Set<String> sensitive = expander == null ? Set.of() : expander.getSensitiveVariables();
            AutopilotStepRunner.Started started = AutopilotStepRunner.start(step, context.get(Run.class),
                    context.get(FilePath.class), context.get(EnvVars.class), launcher(), listener(), invocationId,
                    sensitive, step.isPropagate(), this);
            follower = started.follower();
            session = started.session();
            state = started.state();
            if (session == null) {
                complete(follower.result(), invocationId, step.isPropagate(), "FAILURE"); // it never started
                return;
            }
            if (stopCause != null) {
                follower.requestAbort();
            }
            context.saveState();
            Following.running(this);
            handle = Following.scheduler().submit(this::poll);
        } catch (Throwable e) {
            completed = true;
            getContext().onFailure(e);
        }
    }

    /** One look at the session, on a shared follower thread. */
    private PollingScheduler.Next poll() {
        if (completed) {
            return PollingScheduler.Next.DONE;
        }
        try {
            if (follower == null && !resumeFollowing()) {
                return completed ? PollingScheduler.Next.DONE : PollingScheduler.Next.LATER;
            }
            SessionFollower.Tick tick = follower.tick(session);
            reportedUnreachable = false;
            if (tick.finished()) {
                complete(tick.result(), state.invocationId, state.propagate, state.resultWhenIncomplete);
                return PollingScheduler.Next.DONE;
            }
            if (tick.gotData() && System.currentTimeMillis() - lastCheckpoint >= 1000) {
                saveCheckpoint();
            }
            return tick.gotData() ? PollingScheduler.Next.SOON : PollingScheduler.Next.LATER;
        } catch (AgentSession.GoneException e) {
            complete(follower.lost(null, e.getMessage()), state.invocationId, state.propagate, state.resultWhenIncomplete);
            return PollingScheduler.Next.DONE;
        } catch (IOException e) {
            return unreachable(e);
        } catch (InterruptedException e) {
            return PollingScheduler.Next.LATER;
        } catch (RuntimeException e) {
            LOGGER.log(Level.WARNING, "following a Copilot session failed", e);
            return PollingScheduler.Next.LATER;
        }
    }

    /** The agent cannot be reached: wait for it, unless the session should end anyway. */
    private PollingScheduler.Next unreachable(IOException e) {
        if (!reportedUnreachable) {
            listener().getLogger().println(Messages.CopilotAutopilotStepExecution_Unreachable(e.getMessage()));
            reportedUnreachable = true;
        }
        SessionFollower f = follower;
        if (f != null && (stopCause != null || f.pastWallClockLimit())) {
            SessionResult result = stopCause != null ? f.abortedUnreachable(e.getMessage()) : f.lost(null, e.getMessage());
            complete(result, state.invocationId, state.propagate, state.resultWhenIncomplete);
            return PollingScheduler.Next.DONE;
        }
        return PollingScheduler.Next.LATER;
    }

    /** After a controller restart: follow the session again, once its agent is back. */
    private boolean resumeFollowing() throws IOException, InterruptedException {
        if (state == null) {
            completed = true;
            getContext().onFailure(new AbortException(Messages.CopilotAutopilotStepExecution_RestartBeforeStart()));
            return false;
        }
        AgentSession resumed = new AgentSession(state.location, this);
        SessionFollower f = AutopilotStepRunner.resume(state, getContext().get(Run.class), getContext().get(EnvVars.class),
                listener(), resumed);
        session = resumed;
        follower = f;
        if (stopCause != null) {
            f.requestAbort();
        }
        listener().getLogger().println(Messages.CopilotAutopilotStepExecution_Resumed(
                state.location.node.isEmpty() ? "the built-in node" : state.location.node));
        return true;
    }

    /** Notes how far the log got, so a restarted controller goes on from there. */
    void saveCheckpoint() {
        SessionFollower f = follower;
        ResumeState s = state;
        if (f == null || s == null || completed) {
            return;
        }
        try {
            AutopilotStepRunner.saveCheckpoint(getContext().get(Run.class), s.invocationId, f.checkpoint());
            lastCheckpoint = System.currentTimeMillis();
        } catch (IOException | InterruptedException e) {
            LOGGER.log(Level.FINE, "could not save the checkpoint of a Copilot session", e);
        }
    }

    private void complete(SessionResult result, String invocationId, boolean propagate, String resultWhenIncomplete) {
        if (completed) {
            return;
        }
        completed = true;
        Following.done(this);
        PollingScheduler.Handle h = handle;
        if (h != null) {
            h.cancel();
        }
        try {
            AgentSession s = session;
            if (s != null) {
                try {
                    s.cleanup();
                } catch (IOException | RuntimeException e) {
                    listener().getLogger().println(Messages.AutopilotStepRunner_CannotDeleteHome(s.location().controlFolder, e.getMessage()));
                }
            }
            Run<?, ?> run = getContext().get(Run.class);
            AutopilotStepRunner.record(run, invocationId, result, listener());
            BuildVerdict verdict = AutopilotStepRunner.verdict(result, resultWhenIncomplete);
            if (verdict == BuildVerdict.ABORTED) {
                Throwable cause = stopCause;
                getContext().onFailure(cause != null ? cause : new FlowInterruptedException(Result.ABORTED, true));
                return;
            }
            if (verdict == BuildVerdict.FAILURE && propagate) {
                getContext().onFailure(new AbortException(AutopilotStepRunner.failureMessage(result)));
                return;
            }
            if (verdict == BuildVerdict.UNSTABLE || verdict == BuildVerdict.FAILURE) {
                // unstable, or a failure the Pipeline asked to get back as a result (propagate: false)
                listener().getLogger().println(Messages.CopilotAutopilotStepExecution_Warning(result.outcome().name(), result.reason()));
                if (verdict == BuildVerdict.UNSTABLE) {
                    getContext().get(FlowNode.class).addOrReplaceAction(new WarningAction(Result.UNSTABLE).withMessage(result.reason()));
                    run.setResult(Result.UNSTABLE);
                }
            }
            getContext().onSuccess(new LinkedHashMap<>(result.toMap()));
        } catch (Throwable e) {
            getContext().onFailure(e);
        }
    }

    @Override
    public void stop(Throwable cause) throws Exception {
        if (stopCause == null) {
            stopCause = cause;
        }
        SessionFollower f = follower;
        if (f != null) {
            f.requestAbort();
        }
        PollingScheduler.Handle h = handle;
        if (h != null) {
            h.wake();
        }
        // a stop ends the step once the CLI is gone; if that cannot be done, the step ends anyway
        Timer.get().schedule(() -> {
            if (!completed) {
                completed = true;
                Following.done(this);
                listener().getLogger().println(Messages.CopilotAutopilotStepExecution_StopTimedOut(STOP_DEADLINE_SECONDS));
                getContext().onFailure(cause);
            }
        }, STOP_DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void onResume() {
        Following.running(this);
        handle = Following.scheduler().submit(this::poll);
    }

    @Override
    public String getStatus() {
        ResumeState s = state;
        SessionFollower f = follower;
        if (s == null) {
            return "starting the Copilot CLI";
        }
        return "following the Copilot CLI in " + s.location.controlFolder + " on "
                + (s.location.node.isEmpty() ? "the built-in node" : s.location.node)
                + (f == null ? " (waiting to resume)" : ": " + f.state().events() + " events");
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
}
