package io.jenkins.plugins.copilotautopilot.session;

import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.core.launch.LaunchScript;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a session leaves in the Pipeline's saved state, so that a restarted controller can follow it again: the plan
 * it runs with (no secret in it), where it runs, when it started, and where its secrets come from (never the secrets).
 * Saved once before the CLI is started (without a location: a restart then removes the launch folder, which stops a
 * CLI that had started) and once it runs.
 */
public final class ResumeState implements Serializable {
    private static final long serialVersionUID = 3L;

    /** Where a session's secrets come from, to look them up again after a restart: credential ids and variable names. */
    public record SecretSources(String tokenCredentialsId, String providerCredentialsId, ArrayList<String> mcpReferences,
                                ArrayList<String> secretVariables) implements Serializable {
        public SecretSources {
            mcpReferences = new ArrayList<>(mcpReferences);
            secretVariables = new ArrayList<>(secretVariables);
        }

        public SecretSources(String tokenCredentialsId, String providerCredentialsId, Collection<String> mcpReferences,
                             Collection<String> secretVariables) {
            this(tokenCredentialsId, providerCredentialsId, new ArrayList<>(mcpReferences), new ArrayList<>(secretVariables));
        }
    }

    final String invocationId;
    /** The agent and the launch folder: known before the CLI starts. */
    final String launchNode;
    final String launchFolder;
    /** Where the session runs, once it was started; null before. */
    final AgentSession.Location location;
    final long startedAtMillis;
    final SessionPlan plan;
    final SecretSources secrets;
    /** The changes file on the launch node, or null. */
    final String changesPath;
    /** False: the step returns its result for every outcome but ABORTED instead of failing. */
    final boolean propagate;
    /** Where the answer's files go and what its findings are relative to; null when the session asks for no answer. */
    AnswerPaths answerPaths;
    /** The build's trace context ({@code TRACEPARENT}, as the opentelemetry plugin sets it) the session's spans go under, or null. */
    String traceParent;

    /**
     * The workspace and the working directory on the launch node (findings are held to the one and read relative to
     * the other), and the {@code outputFile} and {@code issuesFile} there, each null when not asked for.
     */
    public record AnswerPaths(String workspace, String workingDirectory, String outputFile, String issuesFile)
            implements java.io.Serializable {
    }

    public ResumeState(String invocationId, String launchNode, String launchFolder, AgentSession.Location location, long startedAtMillis,
                SessionPlan plan, SecretSources secrets, String changesPath, boolean propagate) {
        this.invocationId = invocationId;
        this.launchNode = launchNode;
        this.launchFolder = launchFolder;
        this.location = location;
        this.startedAtMillis = startedAtMillis;
        this.plan = plan;
        this.secrets = secrets;
        this.changesPath = changesPath;
        this.propagate = propagate;
    }

    /** This state once the CLI runs, at {@code where}. */
    public ResumeState started(AgentSession.Location where) {
        ResumeState started = new ResumeState(invocationId, launchNode, launchFolder, where, startedAtMillis, plan, secrets, changesPath,
                propagate);
        started.answerPaths = answerPaths;
        started.traceParent = traceParent;
        return started;
    }

    /** This state with where the answer's files go. */
    public ResumeState withAnswerPaths(AnswerPaths paths) {
        answerPaths = paths;
        return this;
    }

    /** This state with the build's trace context ({@code otel}). */
    public ResumeState withTraceParent(String header) {
        traceParent = header;
        return this;
    }

    public String traceParent() {
        return traceParent;
    }

    public AnswerPaths answerPaths() {
        return answerPaths;
    }

    public String invocationId() {
        return invocationId;
    }

    public String launchNode() {
        return launchNode;
    }

    public String launchFolder() {
        return launchFolder;
    }

    public AgentSession.Location location() {
        return location;
    }

    public long startedAtMillis() {
        return startedAtMillis;
    }

    /**
     * How long after its start the CLI has ended on its agent whatever happened: its wall-clock limit and the launch
     * script's grace; {@link Long#MAX_VALUE} without a limit.
     */
    public long endedForSureAfterMillis() {
        Duration timeout = plan.limit(SessionSettings.TIMEOUT);
        return timeout == null ? Long.MAX_VALUE : timeout.toMillis() + TimeUnit.SECONDS.toMillis(2L * LaunchScript.WATCHDOG_GRACE_SECONDS);
    }

    public SessionPlan plan() {
        return plan;
    }

    public SecretSources secrets() {
        return secrets;
    }

    public String changesPath() {
        return changesPath;
    }

    public boolean propagate() {
        return propagate;
    }

    /** The secret variables' names, for tests and diagnostics. */
    public List<String> secretVariables() {
        return List.copyOf(secrets.secretVariables());
    }
}
