package io.jenkins.plugins.copilotautopilot;

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

    boolean isAllowAllTools();

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

    /** The CLI executable or its npm install folder on the agent; null to search the PATH. */
    String getCopilotPath();

    String getProviderBaseUrl();

    String getProviderType();

    String getProviderWireApi();

    /** ID of a Secret text credential holding the provider's API key, or null. */
    String getProviderCredentialsId();

    boolean isOffline();

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
