package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentCalls;
import io.jenkins.plugins.copilotautopilot.agent.AgentCliLauncher;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.checks.SessionChecks;
import io.jenkins.plugins.copilotautopilot.follow.SessionEngines;
import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.LiveSessions;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import io.jenkins.plugins.copilotautopilot.session.CredentialSlots;
import io.jenkins.plugins.copilotautopilot.session.ResumeState;
import io.jenkins.plugins.copilotautopilot.session.SessionPolicy;
import io.jenkins.plugins.copilotautopilot.usage.Usage;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Computer;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.output.AnswerRequest;
import io.jenkins.plugins.copilotautopilot.core.plan.InvalidSettingsException;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.prepare.SessionPreparation;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Collection;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * Starts a session for a build, Pipeline or Freestyle: {@link #gather} turns the step's request into the plan and
 * the task ({@link SessionInputs}), {@link #prepare} finds the CLI and the working directory on the agent ({@link CliLocation}),
 * builds the command line, begins the log, the journal, the live page and the check; {@link #launch} then starts the
 * CLI on the agent. Every decision about the session itself is the engine's.
 */
public final class SessionStart {
    private static final Logger LOGGER = Logger.getLogger(SessionStart.class.getName());

    private SessionStart() {
    }

    /**
     * A session ready to start: its command, its follower (the header is printed, the journal begun), its launch
     * folder and what a restarted controller needs of it.
     */
    public record Prepared(CliCommand command, SessionFollower follower, FilePath launchFolder, EnvVars env, ResumeState state) {
    }

    /**
     * What a step asks for, gathered: the plan, the task and where the GitHub token comes from; what the session's slot
     * of its token is claimed with ({@link CredentialSlots}) before anything starts on the agent.
     */
    public static final class Inputs {
        final SessionRequest request;
        final SessionPreparation.Prepared prepared;

        Inputs(SessionRequest request, SessionPreparation.Prepared prepared) {
            this.request = request;
            this.prepared = prepared;
        }

        /** The slot of its GitHub token it waits for; null when it has none. */
        public CredentialSlots.Ticket ticket(Run<?, ?> run, String invocationId) {
            return CredentialSlots.ticket(prepared.tokenSource(), prepared.task().githubToken(), run, invocationId);
        }
    }

    /**
     * Gathers what a session runs with (its settings, its task, its credentials); nothing starts on the agent, and
     * every read there is limited in time.
     *
     * @param sensitiveVariables names of build variables whose values are secrets ({@code withCredentials})
     * @throws AbortException for settings that cannot run (the message says what to change)
     */
    public static Inputs gather(SessionRequest request, Run<?, ?> run, FilePath workspace, EnvVars env, Launcher launcher,
                                TaskListener listener, Collection<String> sensitiveVariables) throws IOException, InterruptedException {
        if (!launcher.isUnix()) {
            throw new AbortException(Messages.AgentCliLauncher_NotUnix()); // before any lookup or download
        }
        Computer computer = workspace.toComputer();
        SessionPolicy.get().checkAllowed(computer == null ? null : computer.getNode(), SessionInputs.displayNode(workspace));
        Usage.checkStart(run);
        return new Inputs(request, SessionInputs.gather(request, run, workspace, env, listener, sensitiveVariables));
    }

    /**
     * Prepares a session from its gathered inputs, once it may start (it holds its token's slot): finds the CLI (maybe
     * installing it) and the working directory, begins the log, the journal, the live page and the check; the CLI
     * does not run yet, and every call to the agent is limited in time.
     */
    public static Prepared prepare(Inputs gathered, Run<?, ?> run, FilePath workspace, EnvVars env, Launcher launcher,
                                   TaskListener listener, String invocationId) throws IOException, InterruptedException {
        Usage.checkStart(run); // again: the quota may have been reached while the step waited for its slot
        SessionRequest request = gathered.request;
        SessionPreparation.Prepared inputs = gathered.prepared;
        SessionPlan plan = inputs.plan(); // as the preparation made it: nothing changes it from here on
        CliLocation.Located located = CliLocation.locate(plan, workspace, env, launcher, listener);
        FilePath workDir = located.workDir();
        CliExecutable cli = located.cli();
        FilePath launchFolder = AgentCliLauncher.newLaunchFolder(workspace);
        CliCommand command;
        try {
            command = CliCommandBuilder.build(plan, inputs.task(), cli, workDir.getRemote(), launchFolder.getRemote(), env);
        } catch (InvalidSettingsException e) {
            throw new AbortException(Messages.SessionInputs_InvalidOptions(String.join(" ", e.problems())));
        }
        File journal = SessionFiles.journal(run, invocationId);
        long startedAt = System.currentTimeMillis();
        SessionFollower follower = SessionEngines.engine(listener, Files.newOutputStream(journal.toPath()),
                plan.get(SessionSettings.AGENT_TEXT_IN_CONSOLE), Usage.guard(run, invocationId),
                inputs.tokenSource().isNone() ? null : inputs.tokenSource().describe()).follow(command, env, startedAt);
        String changesFile = plan.get(SessionSettings.CHANGES_FILE);
        ResumeState state = new ResumeState(invocationId, FilePathUtils.getNodeName(workspace), launchFolder.getRemote(), null,
                startedAt, plan, new ResumeState.SecretSources(inputs.tokenSource().credentialsId(),
                        plan.get(SessionSettings.PROVIDER_CREDENTIALS_ID), inputs.mcpReferences(), command.secretVariables()),
                changesFile == null ? null : workspace.child(changesFile).getRemote(), request.propagate());
        if (AnswerRequest.schema(plan) != null) {
            String outputFile = plan.get(SessionSettings.OUTPUT_FILE);
            String issuesFile = plan.get(SessionSettings.ISSUES_FILE);
            state.withAnswerPaths(new ResumeState.AnswerPaths(workspace.getRemote(), workDir.getRemote(),
                    outputFile == null ? null : workspace.child(outputFile).getRemote(),
                    issuesFile == null ? null : workspace.child(issuesFile).getRemote()));
        }
        if (plan.get(SessionSettings.OTEL)) {
            state.withTraceParent(env.get("TRACEPARENT"));
        }
        LiveSessions.started(run, invocationId, journal, plan, startedAt);
        if (follower.approvals() != null) {
            LiveSessions.approvals(run, invocationId, follower.approvals());
        }
        CopilotAutopilotRunAction.showLive(run);
        SessionChecks.started(run, plan, startedAt, listener);
        try {
            listener.getLogger().print(Messages.SessionStart_LivePrefix());
            listener.hyperlink("/" + run.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/", Messages.SessionStart_LiveLink());
            listener.getLogger().println();
        } catch (IOException e) {
            listener.getLogger().println(Messages.SessionStart_LiveLink());
        }
        return new Prepared(command, follower, launchFolder, env, state);
    }

    /**
     * Stops a CLI that started after its step had ended (the stop's deadline passed while it was being started), on a
     * thread of its own: removing its folders stops it.
     */
    public static void stopStartedTooLate(AgentSession session) {
        AgentCalls.pool().execute(() -> {
            try {
                session.stopNow();
                session.cleanup();
            } catch (IOException | InterruptedException | RuntimeException e) {
                LOGGER.log(Level.WARNING, "could not stop a Copilot CLI started after its step ended", e);
            }
        });
    }

    /** Removes the launch folder of a session the controller restarted while it was being started, which stops its CLI if it did start. */
    public static void removeLaunchFolder(ResumeState state) {
        FilePath launchFolder = FilePathUtils.find(state.launchNode(), state.launchFolder());
        if (launchFolder != null) {
            try {
                AgentSession.deleteFolders(launchFolder);
            } catch (IOException | InterruptedException e) {
                LOGGER.log(Level.FINE, "could not remove the launch folder of a Copilot session", e);
            }
        }
    }

    /**
     * Starts a prepared session on the agent. When it cannot start, the follower ends FAILED with the reason and
     * null is returned; nothing is left on the agent.
     */
    public static AgentSession launch(Prepared prepared, Launcher launcher, TaskListener listener, AgentSession.Owner owner)
            throws InterruptedException {
        try {
            return AgentCliLauncher.launch(prepared.command(), prepared.launchFolder(), launcher, prepared.env(), listener, owner);
        } catch (IOException e) {
            prepared.follower().launchFailed(e.getMessage() == null ? e.toString() : e.getMessage());
            return null;
        }
    }
}
