package io.jenkins.plugins.copilotautopilot.core.command;

/**
 * The settings of {@link AutopilotOptions} that a problem can be about. Each caller names them in its own
 * vocabulary: the Jenkins step by its parameter names ({@link #parameterName()}), the runner by its options.
 */
public enum Setting {
    PROMPT("prompt"),
    MODEL("model"),
    MAX_AUTOPILOT_CONTINUES("maxAutopilotContinues"),
    TIMEOUT("timeout"),
    INACTIVITY_TIMEOUT("inactivityTimeout"),
    TOOL_TIMEOUT("toolTimeout"),
    STARTUP_TIMEOUT("startupTimeout"),
    ALLOW_TOOLS("allowTools"),
    DENY_TOOLS("denyTools"),
    ADD_DIRS("addDirs"),
    ALLOW_URLS("allowUrls"),
    DENY_URLS("denyUrls"),
    VERIFY("verify"),
    MAX_VERIFY_ROUNDS("maxVerifyRounds"),
    SECRET_ENV_VARS("secretEnvVars"),
    TOOL_SECRETS("toolSecrets"),
    PROVIDER_BASE_URL("providerBaseUrl"),
    PROVIDER_TYPE("providerType"),
    PROVIDER_WIRE_API("providerWireApi"),
    MAX_PREMIUM_REQUESTS("maxPremiumRequests"),
    MAX_TOKENS("maxTokens");

    private final String parameterName;

    Setting(String parameterName) {
        this.parameterName = parameterName;
    }

    /** The name of the Jenkins step's parameter (and of the global configuration's field). */
    public String parameterName() {
        return parameterName;
    }
}
