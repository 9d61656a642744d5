package io.jenkins.plugins.copilotautopilot.core.command;

import java.util.Map;

/** A GitHub token already present in an environment, where the Copilot CLI would look for one. */
public final class EnvironmentTokens {
    /** The variables the CLI reads a token from, in its order of precedence. */
    public static final String[] GITHUB_TOKEN_VARIABLES = {"COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"};

    private EnvironmentTokens() {
    }

    /** The first non-blank token variable's value, or null. */
    public static String githubToken(Map<String, String> environment) {
        for (String name : GITHUB_TOKEN_VARIABLES) {
            String value = environment.get(name);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }
}
