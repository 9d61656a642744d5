package io.jenkins.plugins.copilotautopilot.core.command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Builds the CLI invocation for one autopilot task from {@link AutopilotOptions}:
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
    public static final String GITHUB_TOKEN_VARIABLE = "COPILOT_GITHUB_TOKEN";
    public static final String PROVIDER_API_KEY_VARIABLE = "COPILOT_PROVIDER_API_KEY";
    /** {@code COPILOT_AUTOPILOT_MCP_SECRET_1}, ...: the secret values of the MCP servers' configuration. */
    public static final String MCP_SECRET_VARIABLE = "COPILOT_AUTOPILOT_MCP_SECRET_";

    private CliCommandBuilder() {
    }

    /**
     * @param options             the task; validated here
     * @param executable          the native CLI binary; an npm install folder, or an empty path for
     *                            {@code copilot} on the PATH, is resolved by the launch script
     * @param workingDirectory    where the agent works (absolute path on the machine that runs the CLI)
     * @param launchFolder        a new folder for the launch files (absolute path on that machine)
     * @param inheritedEnvironment the environment the CLI will inherit: GitHub token variables found there are
     *                            hidden from the agent's tools and masked too
     * @throws InvalidOptionsException when the options cannot run
     */
    public static CliCommand build(AutopilotOptions options, CliExecutable executable, String workingDirectory,
                                   String launchFolder, Map<String, String> inheritedEnvironment) {
        options.validated();
        for (String path : new String[] {executable.path(), workingDirectory, launchFolder}) {
            if (path == null || path.chars().anyMatch(c -> c < 0x20)) {
                throw new InvalidOptionsException(List.of("The path '" + path + "' is empty or contains a line break or control character."));
            }
        }
        List<String> args = new ArrayList<>();
        args.add("--autopilot");
        args.add("--output-format");
        args.add("json");
        args.add("--no-ask-user");
        args.add("--no-auto-update");
        if (options.maxAutopilotContinues() != null) {
            args.add("--max-autopilot-continues=" + options.maxAutopilotContinues());
        }
        ProviderOptions provider = options.provider();
        if (options.model() != null && provider == null) {
            args.add("--model=" + options.model());
        }
        if (options.allowAllTools()) {
            args.add("--allow-all-tools");
        }
        if (options.allowAllPaths()) {
            args.add("--allow-all-paths");
        }
        options.allowTools().forEach(p -> args.add("--allow-tool=" + p.strip()));
        options.denyTools().forEach(p -> args.add("--deny-tool=" + p.strip()));
        options.addDirs().forEach(d -> args.add("--add-dir=" + d.strip()));
        options.allowUrls().forEach(u -> args.add("--allow-url=" + u.strip()));
        options.denyUrls().forEach(u -> args.add("--deny-url=" + u.strip()));
        if (options.sandbox()) {
            args.add("--sandbox");
        }
        if (options.untrusted()) {
            args.add("--no-custom-instructions");
            args.add("--disable-builtin-mcps");
        }

        Map<String, String> env = new LinkedHashMap<>();
        Set<String> secretNames = new LinkedHashSet<>();
        env.put("COPILOT_AUTO_UPDATE", "false");
        // Tools run with the environment they were given (the build's), not one captured from a login shell:
        // reproducible, and no 4 s wait when a login shell is slow or blocks (seen with a locked pyenv).
        env.put("COPILOT_DISABLE_LOGIN_SHELL_ENV", "1");
        if (options.githubToken() != null) {
            env.put(GITHUB_TOKEN_VARIABLE, options.githubToken());
            secretNames.add(GITHUB_TOKEN_VARIABLE);
        }
        if (provider != null) {
            env.put("COPILOT_PROVIDER_BASE_URL", provider.baseUrl().strip());
            if (provider.type() != null) {
                env.put("COPILOT_PROVIDER_TYPE", provider.type().toLowerCase(java.util.Locale.ROOT));
            }
            if (provider.apiKey() != null) {
                env.put(PROVIDER_API_KEY_VARIABLE, provider.apiKey());
                secretNames.add(PROVIDER_API_KEY_VARIABLE);
            }
            if (provider.wireApi() != null) {
                env.put("COPILOT_PROVIDER_WIRE_API", provider.wireApi().toLowerCase(java.util.Locale.ROOT));
            }
            env.put("COPILOT_MODEL", options.model());
            if (provider.offline()) {
                env.put("COPILOT_OFFLINE", "true");
            }
        }
        if (options.mcpServers() != null) {
            // the values put into the MCP servers' configuration: named to the CLI, so that it redacts them too
            List<String> values = options.mcpServers().secretValues();
            for (int i = 0; i < values.size(); i++) {
                env.put(MCP_SECRET_VARIABLE + (i + 1), values.get(i));
                secretNames.add(MCP_SECRET_VARIABLE + (i + 1));
            }
            // the variables whose values went to a server: the tools would read them from the environment
            secretNames.addAll(options.mcpServers().variables());
        }
        secretNames.addAll(options.secretEnvVars());
        for (String name : EnvironmentTokens.GITHUB_TOKEN_VARIABLES) {
            String value = inheritedEnvironment.get(name);
            if (value != null && !value.isBlank()) {
                secretNames.add(name);
            }
        }
        Set<String> masked = new LinkedHashSet<>(secretNames);
        masked.addAll(options.toolSecrets());
        secretNames.removeAll(options.toolSecrets()); // handed to the tools, masked all the same
        if (!secretNames.isEmpty()) {
            args.add("--secret-env-vars=" + String.join(",", secretNames));
        }
        env.put(CliCommand.RUN_MARKER_VARIABLE, UUID.randomUUID().toString());
        return new CliCommand(executable, args, env, workingDirectory, launchFolder, masked, secretNames, options);
    }

    /** Whether the variable holds a credential of the CLI's own (the token, the provider's key): never for tools. */
    public static boolean isOwnCredential(String name) {
        return GITHUB_TOKEN_VARIABLE.equals(name) || PROVIDER_API_KEY_VARIABLE.equals(name) || name.startsWith(MCP_SECRET_VARIABLE)
                || java.util.Arrays.asList(EnvironmentTokens.GITHUB_TOKEN_VARIABLES).contains(name);
    }
}
