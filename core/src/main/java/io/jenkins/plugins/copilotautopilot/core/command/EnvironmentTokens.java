package io.jenkins.plugins.copilotautopilot.core.command;

import java.util.Map;

/** A GitHub token already present in an environment, where the Copilot CLI would look for one. */
public final class EnvironmentTokens {

    private EnvironmentTokens() {
    }

    /** The first non-blank token variable's value, or null. */
    public static String githubToken(Map<String, String> environment) {
        String name = githubTokenVariable(environment);
        return name == null ? null : environment.get(name);
    }

    /** The name of the first token variable with a non-blank value, as the CLI looks for them, or null. */
    public static String githubTokenVariable(Map<String, String> environment) {
        for (String name : io.jenkins.plugins.copilotautopilot.core.plan.OwnCredentials.GITHUB_TOKEN_VARIABLES) {
            String value = environment.get(name);
            if (value != null && !value.isBlank()) {
                return name;
            }
        }
        return null;
    }
}
