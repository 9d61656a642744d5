package io.jenkins.plugins.copilotautopilot.core.command;

import io.jenkins.plugins.copilotautopilot.core.plan.InvalidSettingsException;
import io.jenkins.plugins.copilotautopilot.core.plan.OwnCredentials;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Builds the CLI invocation for one autopilot task from its {@link SessionPlan} and {@link SessionTask}:
 *
 * <pre>copilot --autopilot --output-format json --no-ask-user --no-auto-update
 *         [--max-autopilot-continues=N] [--model=M] [--allow-all-tools] [--allow-tool=P]... [--deny-tool=P]...
 *         [--add-dir=D]... [--secret-env-vars=VAR,...] &lt; TASK</pre>
 *
 * <p>The task goes to the CLI's standard input (in prompt mode the CLI reads it there when {@code -p} is
 * left out), so it is never on a command line. Values are attached with {@code =} so that a pattern starting
 * with {@code -} is never taken for a flag. Credentials go into the environment only: {@code COPILOT_GITHUB_TOKEN} for
 * GitHub-hosted models, {@code COPILOT_PROVIDER_*} and {@code COPILOT_MODEL} for an own provider; their
 * names are passed to {@code --secret-env-vars} so the CLI strips them from tool environments and
 * redacts them as well. Each run gets its own {@code COPILOT_HOME}; auto-update and the login-shell
 * environment capture are off.
 */
public final class CliCommandBuilder {
    /** The least AI credits the CLI's {@code --max-ai-credits} takes. */
    static final int CLI_LEAST_AI_CREDITS = 30;
    public static final String GITHUB_TOKEN_VARIABLE = OwnCredentials.GITHUB_TOKEN_VARIABLE;
    public static final String PROVIDER_API_KEY_VARIABLE = OwnCredentials.PROVIDER_API_KEY_VARIABLE;
    /** {@code COPILOT_AUTOPILOT_MCP_SECRET_1}, ...: the secret values of the MCP servers' configuration. */
    public static final String MCP_SECRET_VARIABLE = OwnCredentials.MCP_SECRET_VARIABLE;

    private CliCommandBuilder() {
    }

    /**
     * @param plan                the session's settings, resolved
     * @param task                the task's text, the credentials, the MCP servers, a kept state; its text checked here
     * @param executable          the native CLI binary; an npm install folder, or an empty path for
     *                            {@code copilot} on the PATH, is resolved by the launch script
     * @param workingDirectory    where the agent works (absolute path on the machine that runs the CLI)
     * @param launchFolder        a new folder for the launch files (absolute path on that machine)
     * @param inheritedEnvironment the environment the CLI will inherit: GitHub token variables found there are
     *                            hidden from the agent's tools and masked too
     * @throws InvalidSettingsException when the task cannot run
     */
    public static CliCommand build(SessionPlan plan, SessionTask task, CliExecutable executable, String workingDirectory,
                                   String launchFolder, Map<String, String> inheritedEnvironment) {
        List<String> problems = task.problems();
        for (String path : new String[] {executable.path(), workingDirectory, launchFolder}) {
            if (path == null || path.chars().anyMatch(c -> c < 0x20)) {
                problems.add("The path '" + path + "' is empty or contains a line break or control character.");
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        List<String> args = new ArrayList<>();
        args.add("--autopilot");
        args.add("--output-format");
        args.add("json");
        args.add("--no-ask-user");
        args.add("--no-auto-update");
        Integer continues = plan.get(SessionSettings.MAX_AUTOPILOT_CONTINUES);
        if (continues != null) {
            args.add("--max-autopilot-continues=" + continues);
        }
        String providerBaseUrl = plan.get(SessionSettings.PROVIDER_BASE_URL);
        String model = plan.get(SessionSettings.MODEL);
        if (model != null && providerBaseUrl == null) {
            args.add("--model=" + model);
        }
        Double maxAiCredits = plan.get(SessionSettings.MAX_AI_CREDITS);
        if (maxAiCredits != null && maxAiCredits >= CLI_LEAST_AI_CREDITS && providerBaseUrl == null) {
            // the CLI stops at a model call's end, before the next, where the follower reads the calls' records a
            // moment later (the CLI refuses fewer than 30)
            args.add("--max-ai-credits=" + (long) Math.ceil(maxAiCredits));
        }
        String effort = plan.get(SessionSettings.REASONING_EFFORT);
        if (effort != null) {
            args.add("--reasoning-effort=" + effort);
        }
        if (plan.get(SessionSettings.ALLOW_ALL_TOOLS)) {
            args.add("--allow-all-tools");
        }
        if (plan.get(SessionSettings.ALLOW_ALL_PATHS)) {
            args.add("--allow-all-paths");
        }
        plan.list(SessionSettings.ALLOW_TOOLS).forEach(p -> args.add("--allow-tool=" + p));
        plan.list(SessionSettings.DENY_TOOLS).forEach(p -> args.add("--deny-tool=" + p));
        plan.list(SessionSettings.ADD_DIRS).forEach(d -> args.add("--add-dir=" + d));
        plan.list(SessionSettings.ALLOW_URLS).forEach(u -> args.add("--allow-url=" + u));
        plan.list(SessionSettings.DENY_URLS).forEach(u -> args.add("--deny-url=" + u));
        if (plan.get(SessionSettings.SANDBOX)) {
            args.add("--sandbox");
        }
        if (!plan.get(SessionSettings.CLIENT_TELEMETRY)) {
            // GitHub's own telemetry of the CLI (not OpenTelemetry, not the model's service): off unless allowed
            args.add("--disable-client-telemetry");
        }
        if (plan.get(SessionSettings.UNTRUSTED)) {
            args.add("--no-custom-instructions");
        }
        if (plan.get(SessionSettings.UNTRUSTED) || !plan.get(SessionSettings.GITHUB_MCP_SERVER)) {
            // the built-in GitHub MCP server acts with the session's token: not for a change request's agent
            args.add("--disable-builtin-mcps");
        }

        Map<String, String> env = new LinkedHashMap<>();
        Set<String> secretNames = new LinkedHashSet<>();
        env.put("COPILOT_AUTO_UPDATE", "false");
        // Tools run with the environment they were given (the build's), not one captured from a login shell:
        // reproducible, and no 4 s wait when a login shell is slow or blocks (seen with a locked pyenv).
        env.put("COPILOT_DISABLE_LOGIN_SHELL_ENV", "1");
        if (task.githubToken() != null) {
            env.put(GITHUB_TOKEN_VARIABLE, task.githubToken());
            secretNames.add(GITHUB_TOKEN_VARIABLE);
        }
        if (providerBaseUrl != null) {
            env.put("COPILOT_PROVIDER_BASE_URL", providerBaseUrl);
            String type = plan.get(SessionSettings.PROVIDER_TYPE);
            if (type != null) {
                env.put("COPILOT_PROVIDER_TYPE", type.toLowerCase(java.util.Locale.ROOT));
            }
            if (task.providerApiKey() != null) {
                env.put(PROVIDER_API_KEY_VARIABLE, task.providerApiKey());
                secretNames.add(PROVIDER_API_KEY_VARIABLE);
            }
            String wireApi = plan.get(SessionSettings.PROVIDER_WIRE_API);
            if (wireApi != null) {
                env.put("COPILOT_PROVIDER_WIRE_API", wireApi.toLowerCase(java.util.Locale.ROOT));
            }
            env.put("COPILOT_MODEL", model);
            if (plan.get(SessionSettings.OFFLINE)) {
                env.put("COPILOT_OFFLINE", "true");
            }
        }
        if (task.mcpServers() != null) {
            // the values put into the MCP servers' configuration: named to the CLI, so that it redacts them too
            List<String> values = task.mcpServers().secretValues();
            for (int i = 0; i < values.size(); i++) {
                env.put(MCP_SECRET_VARIABLE + (i + 1), values.get(i));
                secretNames.add(MCP_SECRET_VARIABLE + (i + 1));
            }
            // the variables whose values went to a server: the tools would read them from the environment
            secretNames.addAll(task.mcpServers().variables());
        }
        secretNames.addAll(plan.list(SessionSettings.SECRET_ENV_VARS));
        for (String name : OwnCredentials.GITHUB_TOKEN_VARIABLES) {
            String value = inheritedEnvironment.get(name);
            if (value != null && !value.isBlank()) {
                secretNames.add(name);
            }
        }
        Set<String> masked = new LinkedHashSet<>(secretNames);
        List<String> toolSecrets = plan.list(SessionSettings.TOOL_SECRETS);
        masked.addAll(toolSecrets);
        secretNames.removeAll(toolSecrets); // handed to the tools, masked all the same
        if (!secretNames.isEmpty()) {
            args.add("--secret-env-vars=" + String.join(",", secretNames));
        }
        env.put(CliCommand.RUN_MARKER_VARIABLE, UUID.randomUUID().toString());
        return new CliCommand(executable, args, env, workingDirectory, launchFolder, masked, secretNames, plan, task);
    }

    /** Whether the variable holds a credential of the CLI's own (the token, the provider's key): never for tools. */
    public static boolean isOwnCredential(String name) {
        return OwnCredentials.isOwn(name);
    }
}
