package io.jenkins.plugins.copilotautopilot.core.settings;

/**
 * Where a step's GitHub token comes from; never the token itself.
 *
 * @param credentialsId the credential to read, or null
 * @param variable      the environment variable to read, or null
 * @param fromDefaults  the credential is the global configuration's default
 */
public record GithubTokenSource(String credentialsId, String variable, boolean fromDefaults) {

    static GithubTokenSource credential(String id, boolean fromDefaults) {
        return new GithubTokenSource(id, null, fromDefaults);
    }

    static GithubTokenSource environment(String variable) {
        return new GithubTokenSource(null, variable, false);
    }

    static GithubTokenSource none() {
        return new GithubTokenSource(null, null, false);
    }

    public boolean isNone() {
        return credentialsId == null && variable == null;
    }

    /** For the log: {@code credential 'copilot-token' (global default)}, {@code $COPILOT_GITHUB_TOKEN}. */
    public String describe() {
        if (credentialsId != null) {
            return "credential '" + credentialsId + "'" + (fromDefaults ? " (global default)" : "");
        }
        return variable != null ? "$" + variable : "none";
    }
}
