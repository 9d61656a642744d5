package io.jenkins.plugins.copilotautopilot;

import io.jenkins.plugins.copilotautopilot.core.settings.TaskSettings;
import java.util.List;

/**
 * The settings of one autopilot task, shared by the Pipeline step ({@link CopilotAutopilotStep}) and the
 * Freestyle build step ({@link CopilotAutopilotBuilder}); {@link AutopilotStepRunner} runs either.
 */
public interface CopilotAutopilotTask {
    String getPrompt();

    String getModel();

    /** ID of a Secret text credential holding the GitHub token, or null. */
    String getCredentialsId();

    Integer getMaxAutopilotContinues();

    /** The most premium requests the session may use, or null for the default (none). */
    Double getMaxPremiumRequests();

    /** The most tokens (input plus output) the session may use, or null for the default (none). */
    Long getMaxTokens();

    /** True or false, or null for the global configuration's default (itself off unless an administrator sets it). */
    Boolean getAllowAllTools();

    List<String> getAllowTools();

    List<String> getDenyTools();

    List<String> getAddDirs();

    /** Names of environment variables whose values are secrets. */
    List<String> getSecretEnvVars();

    /** Relative to the workspace; null or empty for the workspace itself. */
    String getWorkingDirectory();

    /** Wall-clock limit in minutes; null for the default, 0 for none. */
    Integer getTimeout();

    /** Longest time without an event, in minutes; null for the default, 0 for none. */
    Integer getInactivityTimeout();

    /** FAILURE (default), UNSTABLE or SUCCESS. */
    String getResultWhenIncomplete();

    /** The CLI executable or its npm install folder on the agent; wins over {@link #getInstallation()}. */
    String getCopilotPath();

    /** The name of a Copilot CLI tool installation ({@link CopilotCliInstallation}), or null for the default. */
    String getInstallation();

    String getProviderBaseUrl();

    String getProviderType();

    String getProviderWireApi();

    /** ID of a Secret text credential holding the provider's API key, or null. */
    String getProviderCredentialsId();

    boolean isOffline();

    /** These settings as the engine's value, to be completed from the global configuration. */
    default TaskSettings toSettings() {
        return TaskSettings.builder()
                .prompt(getPrompt())
                .model(getModel())
                .credentialsId(getCredentialsId())
                .maxAutopilotContinues(getMaxAutopilotContinues())
                .maxPremiumRequests(getMaxPremiumRequests())
                .maxTokens(getMaxTokens())
                .allowAllTools(getAllowAllTools())
                .allowTools(getAllowTools())
                .denyTools(getDenyTools())
                .addDirs(getAddDirs())
                .secretEnvVars(getSecretEnvVars())
                .workingDirectory(getWorkingDirectory())
                .timeoutMinutes(getTimeout())
                .inactivityTimeoutMinutes(getInactivityTimeout())
                .resultWhenIncomplete(getResultWhenIncomplete())
                .copilotPath(getCopilotPath())
                .installation(getInstallation())
                .providerBaseUrl(getProviderBaseUrl())
                .providerType(getProviderType())
                .providerWireApi(getProviderWireApi())
                .providerCredentialsId(getProviderCredentialsId())
                .offline(isOffline())
                .build();
    }

    /** For the configuration form: a list setting ({@code allowTools}, ...) as one entry per line. */
    default String listText(String field) {
        List<String> entries = switch (field) {
            case "allowTools" -> getAllowTools();
            case "denyTools" -> getDenyTools();
            case "addDirs" -> getAddDirs();
            case "secretEnvVars" -> getSecretEnvVars();
            default -> throw new IllegalArgumentException("not a list setting: " + field);
        };
        return FormLists.text(entries);
    }
}
