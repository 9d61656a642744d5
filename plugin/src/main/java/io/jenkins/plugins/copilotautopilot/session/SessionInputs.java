package io.jenkins.plugins.copilotautopilot.session;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.agent.TimeLimits;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.SessionTask;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.output.AnswerRequest;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.build.BuildLogExcerpt;
import io.jenkins.plugins.copilotautopilot.core.build.GithubTokenSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * What a step asks for, made into what a session runs with: its settings merged with the administrator's defaults
 * into the plan (restricted for an untrusted change request), and beside it the task's text (the prompt or a
 * workspace file, the console's end appended), the credentials, the MCP servers with their secrets put in and a kept
 * session's state. Every problem of the settings and the task is one line; the secrets are never printed.
 */
final class SessionInputs {
    private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Console lines read beyond those asked for by {@code includeBuildLog}, for the step's own lines left out. */
    private static final int BUILD_LOG_SLACK_LINES = 2_000;

    /**
     * The plan, the task beside it, where the token came from and the MCP variables whose values are secrets (to look
     * them up again after a restart).
     */
    record Gathered(SessionPlan plan, SessionTask task, GithubTokenSource tokenSource, List<String> mcpReferences) {
    }

    private SessionInputs() {
    }

    /**
     * @param sensitiveVariables names of build variables whose values are secrets ({@code withCredentials})
     * @throws AbortException for settings or a task that cannot run (the message says what to change)
     */
    static Gathered gather(SessionRequest request, Run<?, ?> run, FilePath workspace, EnvVars env, TaskListener listener,
                           Collection<String> sensitiveVariables) throws IOException, InterruptedException {
        SessionPolicy policy = SessionPolicy.get();
        SessionPlan.Resolution resolution = SessionPlan.resolve(request.settings(), policy.defaults());
        SessionPlan plan = resolution.plan();
        if (!plan.fromDefaults().isEmpty()) {
            listener.getLogger().println(Messages.SessionInputs_FromDefaults(String.join(", ", plan.fromDefaults())));
        }
        GithubTokenSource tokenSource = GithubTokenSource.of(plan, env);
        String providerCredentialsId = plan.get(SessionSettings.PROVIDER_CREDENTIALS_ID);
        SessionTask task = SessionTask.of(null)
                .withGithubToken(githubToken(tokenSource, run, env))
                .withProviderApiKey(providerCredentialsId == null ? null
                        : StringCredentialLookup.secret(run, providerCredentialsId, "providerCredentialsId"));
        ChangeRequestTrust.Untrusted untrusted = ChangeRequestTrust.of(run, listener);
        SessionPolicy.UntrustedChangeRequests untrustedPolicy = policy.untrustedChangeRequests();
        if (untrusted != null && untrustedPolicy == SessionPolicy.UntrustedChangeRequests.REFUSE) {
            throw new AbortException(Messages.ChangeRequestTrust_Refused(untrusted.name()));
        }
        if (untrusted != null && untrustedPolicy == SessionPolicy.UntrustedChangeRequests.ALLOW) {
            listener.getLogger().println(Messages.ChangeRequestTrust_Allowed(untrusted.name()));
        }
        boolean restricted = untrusted != null && untrustedPolicy == SessionPolicy.UntrustedChangeRequests.RESTRICTED;
        task = task.withPrompt(prompt(request, plan, restricted ? untrusted : null, workspace, listener));
        List<String> problems = new ArrayList<>(task.problems());
        if (plan.get(SessionSettings.PROMPT_FILE) != null && request.prompt() != null && !request.prompt().isBlank()) {
            problems.add("Give the task as prompt or as promptFile, not both.");
        }
        problems.addAll(resolution.problems().messages());
        String schema = plan.get(SessionSettings.OUTPUT_SCHEMA);
        if (schema != null && problems.isEmpty()) {
            ChangeRequestTrust.Untrusted from = restricted ? untrusted : null;
            String text = TimeLimits.limit(workspace.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS,
                    Messages.SessionInputs_ReadingOutputSchema(displayNode(workspace)), () -> OutputSchemaSetting.text(schema, workspace, from));
            plan = plan.with(SessionSettings.OUTPUT_SCHEMA, text);
        }
        String schemaProblem = problems.isEmpty() ? AnswerRequest.problem(plan) : null;
        if (schemaProblem != null) {
            problems.add(schemaProblem);
        }
        if (!problems.isEmpty()) {
            throw new AbortException(Messages.SessionInputs_InvalidOptions(String.join(" ", problems)));
        }
        plan = withSensitiveVariables(plan, sensitiveVariables, env);
        List<String> mcpReferences = List.of();
        String mcpServers = plan.get(SessionSettings.MCP_SERVERS);
        if (mcpServers != null && !restricted) {
            String text = TimeLimits.limit(workspace.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS,
                    Messages.SessionInputs_ReadingMcpServers(displayNode(workspace)), () -> McpServersSetting.text(mcpServers, workspace));
            mcpReferences = McpServersSetting.references(text);
            task = task.withMcpServers(McpServersSetting.resolve(text, run, env));
        }
        if (restricted) {
            SessionPlan.Restricted r = plan.restrictedForUntrusted();
            plan = r.plan();
            listener.getLogger().println(Messages.ChangeRequestTrust_Restricted(untrusted.name(),
                    r.removed().isEmpty() ? "" : "; taken away: " + String.join(", ", r.removed())));
        }
        String session = plan.get(SessionSettings.SESSION);
        if (session != null) {
            task = task.withKeptState(KeptSessions.load(run, session, listener));
        }
        for (String name : plan.list(SessionSettings.TOOL_SECRETS)) {
            if (env.get(name) == null) {
                listener.getLogger().println(Messages.SessionInputs_ToolSecretUnset(name));
            }
        }
        Integer buildLogLines = plan.get(SessionSettings.INCLUDE_BUILD_LOG);
        if (buildLogLines != null && buildLogLines > 0) {
            task = withBuildLog(task, plan, buildLogLines, run, env, listener);
        }
        if (task.githubToken() == null && plan.get(SessionSettings.PROVIDER_BASE_URL) == null) {
            throw new AbortException(Messages.SessionInputs_NoCredentials());
        }
        String tokenProblem = plan.get(SessionSettings.PROVIDER_BASE_URL) != null ? null
                : io.jenkins.plugins.copilotautopilot.core.command.GithubTokens.problem(task.githubToken(), tokenSource.describe());
        if (tokenProblem != null) {
            throw new AbortException("copilotAutopilot: " + tokenProblem);
        }
        if (!tokenSource.isNone()) {
            listener.getLogger().println(Messages.SessionInputs_TokenSource(tokenSource.describe()));
        }
        return new Gathered(plan, task, tokenSource, mcpReferences);
    }

    /** The task's text: the prompt, or the text of {@code promptFile} (from the trusted revision for an untrusted build). */
    private static String prompt(SessionRequest request, SessionPlan plan, ChangeRequestTrust.Untrusted untrusted,
                                 FilePath workspace, TaskListener listener) throws IOException, InterruptedException {
        String name = plan.get(SessionSettings.PROMPT_FILE);
        if (name == null) {
            return request.prompt();
        }
        String text;
        if (untrusted != null) {
            text = ChangeRequestTrust.readTrusted(untrusted, name);
            listener.getLogger().println(Messages.SessionInputs_PromptFromTrustedFile(name, text.length()));
        } else {
            text = TimeLimits.limit(workspace.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS,
                    Messages.SessionInputs_ReadingPromptFile(name, displayNode(workspace)), () -> PromptFile.read(workspace, name));
            listener.getLogger().println(Messages.SessionInputs_PromptFromFile(name, text.length()));
        }
        return text;
    }

    private static String githubToken(GithubTokenSource source, Run<?, ?> run, EnvVars env) throws AbortException {
        if (source.credentialsId() != null) {
            return StringCredentialLookup.secret(run, source.credentialsId(),
                    source.fromDefaults() ? "credentialsId (global default)" : "credentialsId");
        }
        return source.variable() != null ? env.get(source.variable()) : null;
    }

    /** The plan with the build's secret variables that are set among its {@code secretEnvVars}: masked, hidden from tools. */
    private static SessionPlan withSensitiveVariables(SessionPlan plan, Collection<String> names, EnvVars env) {
        Set<String> all = new LinkedHashSet<>(plan.list(SessionSettings.SECRET_ENV_VARS));
        for (String name : names) {
            if (name != null && VARIABLE_NAME.matcher(name).matches() && env.get(name) != null) {
                all.add(name);
            }
        }
        return all.size() == plan.list(SessionSettings.SECRET_ENV_VARS).size() ? plan
                : plan.with(SessionSettings.SECRET_ENV_VARS, new ArrayList<>(all));
    }

    /** The task with the end of this build's console appended, masked ({@code includeBuildLog}). */
    private static SessionTask withBuildLog(SessionTask task, SessionPlan plan, int lines, Run<?, ?> run, EnvVars env,
                                            TaskListener listener) throws IOException {
        // more than asked for: the step's own lines are left out afterwards
        List<String> console = run.getLog(lines + BUILD_LOG_SLACK_LINES);
        Set<String> secretVariables = new LinkedHashSet<>(plan.list(SessionSettings.SECRET_ENV_VARS));
        secretVariables.addAll(plan.list(SessionSettings.TOOL_SECRETS));
        SecretMasker masker = SecretMasker.of(CliCommand.secretValues(task.secretValues(), secretVariables, env));
        BuildLogExcerpt excerpt = BuildLogExcerpt.append(task.prompt(), console, lines, masker::mask,
                "Jenkins build " + run.getFullDisplayName());
        SessionTask with = task.withPrompt(excerpt.task());
        List<String> problems = with.problems();
        if (!problems.isEmpty()) {
            throw new AbortException(Messages.SessionInputs_InvalidOptions(String.join(" ", problems)));
        }
        listener.getLogger().println(Messages.SessionInputs_BuildLogIncluded(excerpt.lines(), excerpt.leftOutLines()));
        return with;
    }

    static String displayNode(FilePath workspace) {
        String name = FilePathUtils.getNodeName(workspace);
        return name.isEmpty() ? "the built-in node" : name;
    }
}
