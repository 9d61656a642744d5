package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.follow.SessionEngines;
import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.LiveSessions;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import io.jenkins.plugins.copilotautopilot.record.SessionJournal;
import io.jenkins.plugins.copilotautopilot.session.ResumeState;
import io.jenkins.plugins.copilotautopilot.usage.Usage;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.engine.Checkpoint;
import io.jenkins.plugins.copilotautopilot.core.engine.JournalReplay;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.prepare.SessionPreparation;
import io.jenkins.plugins.copilotautopilot.core.prepare.Unusable;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Follows a session again after the controller restarted: the secrets are looked up again (from the same credentials
 * and variables), the journal is cut back to the last checkpoint, and the new follower reads the session up to there
 * without printing anything.
 */
public final class SessionResume {
    private SessionResume() {
    }

    /**
     * @throws AgentSession.FolderGone when the session's folder is gone (see {@link #withoutSession})
     * @throws IOException when the agent cannot be reached yet (try again later)
     */
    public static SessionFollower follower(ResumeState state, Run<?, ?> run, EnvVars env, TaskListener listener, AgentSession session)
            throws IOException, InterruptedException {
        return resume(state, run, env, listener, session);
    }

    /**
     * A follower for a session whose files cannot be read again (its folder went with its workspace, its agent has not
     * answered since the restart): it knows what the journal held up to the checkpoint (the turns, tool calls and model
     * calls, read again in silence) and has nothing more to read, so that the session is ended and recorded with them.
     */
    public static SessionFollower withoutSession(ResumeState state, Run<?, ?> run, EnvVars env, TaskListener listener)
            throws IOException, InterruptedException {
        return resume(state, run, env, listener, null);
    }

    /** {@code session} null: the session as its journal tells it. */
    private static SessionFollower resume(ResumeState state, Run<?, ?> run, EnvVars env, TaskListener listener, CliSession session)
            throws IOException, InterruptedException {
        ResumeState.SecretSources sources = state.secrets();
        List<String> taskSecrets = new ArrayList<>();
        if (sources.tokenCredentialsId() != null) {
            taskSecrets.add(StringCredentialLookup.again(run, sources.tokenCredentialsId(), "credentialsId"));
        }
        if (sources.providerCredentialsId() != null) {
            taskSecrets.add(StringCredentialLookup.again(run, sources.providerCredentialsId(), "providerCredentialsId"));
        }
        try {
            taskSecrets.addAll(SessionPreparation.mcpValues(sources.mcpReferences(),
                    (id, parameter) -> StringCredentialLookup.secret(run, id, parameter), env, "mcpServers").values());
        } catch (Unusable e) {
            throw new AbortException(Messages.SessionInputs_InvalidOptions(e.getMessage()));
        }
        List<String> secrets = CliCommand.secretValues(taskSecrets, new LinkedHashSet<>(sources.secretVariables()), env);
        Checkpoint checkpoint = SessionJournal.readCheckpoint(run, state.invocationId());
        java.time.Instant stoppedAt = EventJournal.firstStopping(SessionFiles.journal(run, state.invocationId()).toPath(),
                checkpoint.journalBytes());
        OutputStream journal = SessionJournal.continueAt(run, state.invocationId(), checkpoint);
        CliSession reading = session;
        if (session == null) {
            try {
                JournalReplay replay = JournalReplay.of(SessionFiles.journal(run, state.invocationId()).toPath(), checkpoint.journalBytes());
                reading = replay;
                checkpoint = replay.checkpoint();
            } catch (IOException e) {
                journal.close();
                throw e;
            }
        }
        LiveSessions.started(run, state.invocationId(), SessionFiles.journal(run, state.invocationId()), state.plan(),
                state.startedAtMillis());
        CopilotAutopilotRunAction.showLive(run);
        try {
            SessionFollower follower = SessionEngines.engine(listener, journal, state.plan().get(SessionSettings.AGENT_TEXT_IN_CONSOLE),
                            Usage.guard(run, state.invocationId()), state.secrets().tokenCredentialsId() == null ? null
                                    : "credential '" + state.secrets().tokenCredentialsId() + "'")
                    .resume(state.plan(), secrets, reading, checkpoint, state.startedAtMillis(), stoppedAt);
            if (follower.approvals() != null) {
                LiveSessions.approvals(run, state.invocationId(), follower.approvals());
            }
            return follower;
        } catch (IOException | InterruptedException | RuntimeException e) {
            journal.close();
            throw e;
        }
    }
}
