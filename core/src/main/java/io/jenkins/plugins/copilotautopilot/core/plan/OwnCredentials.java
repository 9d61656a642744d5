package io.jenkins.plugins.copilotautopilot.core.plan;

import java.util.List;

/**
 * The variables that hold the Copilot CLI's own credentials: never handed to the agent's tools, always masked. The CLI
 * reads a GitHub token from {@link #GITHUB_TOKEN_VARIABLES}, in that order.
 */
public final class OwnCredentials {
    public static final String GITHUB_TOKEN_VARIABLE = "COPILOT_GITHUB_TOKEN";
    public static final String PROVIDER_API_KEY_VARIABLE = "COPILOT_PROVIDER_API_KEY";
    /** {@code COPILOT_AUTOPILOT_MCP_SECRET_1}, ...: the secret values of the MCP servers' configuration. */
    public static final String MCP_SECRET_VARIABLE = "COPILOT_AUTOPILOT_MCP_SECRET_";
    /** The variables the CLI reads a token from, in its order of precedence. */
    public static final List<String> GITHUB_TOKEN_VARIABLES = List.of(GITHUB_TOKEN_VARIABLE, "GH_TOKEN", "GITHUB_TOKEN");

    private OwnCredentials() {
    }

    /** Whether the variable holds a credential of the CLI's own (the token, the provider's key): never for tools. */
    public static boolean isOwn(String name) {
        return PROVIDER_API_KEY_VARIABLE.equals(name) || name.startsWith(MCP_SECRET_VARIABLE) || GITHUB_TOKEN_VARIABLES.contains(name);
    }
}
