package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.follow.SessionDriver;
import io.jenkins.plugins.copilotautopilot.pages.Outcomes;
import io.jenkins.plugins.copilotautopilot.prepare.SessionRequest;
import io.jenkins.plugins.copilotautopilot.prepare.SessionStart;
import io.jenkins.plugins.copilotautopilot.session.CredentialSlots;
import io.jenkins.plugins.copilotautopilot.session.ResumeState;
import io.jenkins.plugins.copilotautopilot.trace.BuildTraces;

import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.Checkpoint;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.BuildVerdict;
import java.io.IOException;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A session of the Freestyle build step: started and followed as a Pipeline's ({@link SessionDriver}), while the
 * build's thread waits for it to be recorded. Interrupting that thread (an abort) stops the session; the interrupt is
 * consumed then, so that the build can still be saved, and the session ends ABORTED. A Freestyle build does not
 * survive a controller restart, so nothing is noted for one. Over the cap of its GitHub token's sessions, the build's
 * thread waits for a slot first ({@link CredentialSlots#await}), as Freestyle build steps wait; an abort ends the wait.
 */
final class FreestyleSession implements SessionDriver.Build {
    /** How long an abort may take before the build step ends anyway (as for the Pipeline step). */
    private static final long STOP_DEADLINE_SECONDS = Long.getLong(FreestyleSession.class.getName() + ".stopDeadlineSeconds", 60);

    private final Run<?, ?> run;
    private final hudson.tasks.BuildStep buildStep;
    private final Launcher launcher;
    private final TaskListener listener;
    private final CompletableFuture<SessionResult> recorded = new CompletableFuture<>();
    private volatile ResumeState state;
    /** Whether the build was stopped (its thread interrupted) while the session ran or ended. */
    private boolean stopped;

    private FreestyleSession(Run<?, ?> run, hudson.tasks.BuildStep buildStep, Launcher launcher, TaskListener listener) {
        this.run = run;
        this.buildStep = buildStep;
        this.launcher = launcher;
        this.listener = listener;
    }

    /** How a session ended, and what that makes of the build with the settings it ran with. */
    record Ended(SessionResult result, BuildVerdict verdict) {
    }

    /** Runs a session of {@code task} to its end, on this thread; the result is recorded on the build. */
    static Ended run(CopilotAutopilotStep task, hudson.tasks.BuildStep buildStep, Run<?, ?> run, FilePath workspace, EnvVars env, Launcher launcher,
                             TaskListener listener, String invocationId, Collection<String> sensitiveVariables)
            throws IOException, InterruptedException {
        FreestyleSession build = new FreestyleSession(run, buildStep, launcher, listener);
        SessionStart.Inputs inputs = SessionStart.gather(new SessionRequest(task.getPrompt(), task.settings(), true), run,
                workspace, env, launcher, listener, sensitiveVariables);
        CredentialSlots.Ticket ticket = inputs.ticket(run, invocationId);
        if (ticket != null) {
            CredentialSlots.get().await(ticket, listener); // on the build's executor; an abort takes it out of the queue
        }
        try {
            SessionDriver driver = new SessionDriver(invocationId, build);
            if (ticket != null) {
                driver.whenEnded(() -> CredentialSlots.get().release(ticket)); // the next waiter starts as this one ends
            }
            SessionStart.Prepared prepared = SessionStart.prepare(inputs, run, workspace, env, launcher, listener, invocationId);
            build.state = prepared.state();
            AgentSession session = SessionStart.launch(prepared, launcher, listener, driver);
            if (session == null) {
                driver.end(prepared.follower().result()); // it could not start: the follower says why
            } else {
                session.whileItsBuildRuns(); // a controller that dies with the build stops the CLI once it is back
                driver.follow(prepared.follower(), session);
            }
            try {
                SessionResult result = build.await(driver);
                return new Ended(result, build.stopped ? BuildVerdict.ABORTED : Outcomes.verdict(result, prepared.state().plan()));
            } finally {
                if (session != null) {
                    session.buildEnded();
                }
            }
        } finally {
            if (ticket != null) {
                CredentialSlots.get().release(ticket); // however it ended: once is all that counts
            }
        }
    }

    /** Waits until the session is recorded; an interrupt stops it, and past the deadline it ends anyway. */
    private SessionResult await(SessionDriver driver) throws IOException {
        long deadline = 0;
        while (true) {
            try {
                SessionResult result = deadline == 0 ? recorded.get() : recorded.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                // an interrupt that came as the result did is not thrown by get(), only left set: it is a stop all the same
                stopped |= Thread.interrupted();
                return result;
            } catch (InterruptedException e) {
                stopped = true;
                driver.requestStop();
                if (deadline == 0) {
                    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_DEADLINE_SECONDS);
                }
            } catch (TimeoutException e) {
                listener.getLogger().println(Messages.CopilotAutopilotStepExecution_StopTimedOut(STOP_DEADLINE_SECONDS));
                SessionFollower follower = driver.follower();
                driver.end(follower.abortedUnreachable(Messages.CopilotAutopilotStepExecution_NoStopWithin(STOP_DEADLINE_SECONDS)));
                deadline = Long.MAX_VALUE;
            } catch (ExecutionException e) {
                throw new IOException(e.getCause());
            }
        }
    }

    @Override
    public Run<?, ?> run() {
        return run;
    }

    @Override
    public Launcher launcher() {
        return launcher;
    }

    @Override
    public TaskListener listener() {
        return listener;
    }

    @Override
    public void checkpoint(Checkpoint checkpoint) {
        // a Freestyle build does not resume after a restart
    }

    @Override
    public boolean resumesAfterRestart() {
        return false;
    }

    @Override
    public ResumeState state() {
        return state;
    }

    @Override
    public void ended(SessionResult result, boolean changesFileWritten) {
        recorded.complete(result);
    }

    @Override
    public BuildTraces.Step traceStep() {
        return new BuildTraces.Step(run, null, buildStep);
    }
}
