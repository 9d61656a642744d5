package io.jenkins.plugins.copilotautopilot.core.build;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;

/**
 * Where a step's GitHub token comes from; never the token itself.
 *
 * @param credentialsId the credential to read, or null
 * @param variable      the environment variable to read, or null
 * @param fromDefaults  the credential is the global configuration's default
 */
public record GithubTokenSource(String credentialsId, String variable, boolean fromDefaults) {

    /**
     * Where a session's GitHub token comes from, in this order: the step's credential; {@code COPILOT_GITHUB_TOKEN} in
     * the build's environment (a token the pipeline bound on purpose); the administrator's default credential;
     * {@code GH_TOKEN} or {@code GITHUB_TOKEN} in the environment.
     *
     * @param environment the build's environment variables
     */
    public static GithubTokenSource of(SessionPlan plan, java.util.Map<String, String> environment) {
        String credentialsId = plan.get(SessionSettings.CREDENTIALS_ID);
        boolean defaultCredential = plan.fromDefaults().contains(SessionSettings.CREDENTIALS_ID.name());
        if (credentialsId != null && !defaultCredential) {
            return credential(credentialsId, false);
        }
        if (isSet(environment.get("COPILOT_GITHUB_TOKEN"))) {
            return environment("COPILOT_GITHUB_TOKEN");
        }
        if (credentialsId != null) {
            return credential(credentialsId, true);
        }
        for (String name : new String[] {"GH_TOKEN", "GITHUB_TOKEN"}) {
            if (isSet(environment.get(name))) {
                return environment(name);
            }
        }
        return none();
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }

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
