package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import java.io.IOException;
import java.util.Map;

/**
 * Starts a CLI command somewhere: on this machine ({@link LocalCliLauncher}) or on a Jenkins agent (the
 * plugin's launcher). Either way it fills the command's control folder ({@code LaunchFiles}) and starts the
 * launch script there, detached from the caller, so the session outlives whoever follows it.
 */
public interface CliLauncher {
    /**
     * @throws IOException when the session cannot be started (the message says why)
     */
    CliSession launch(CliCommand command) throws IOException, InterruptedException;

    /**
     * The environment the CLI inherits before the command's own variables are added, so that the values of
     * its secret variables can be masked.
     */
    default Map<String, String> inheritedEnvironment() {
        return Map.of();
    }
}
