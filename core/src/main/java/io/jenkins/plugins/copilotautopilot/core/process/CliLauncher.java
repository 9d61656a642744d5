package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * Starts the CLI somewhere: on this machine ({@link LocalCliLauncher}) or on a Jenkins agent (the
 * plugin's launcher). The process's stdout and stderr must be copied into the given streams as they
 * arrive, and each stream closed when the process's side of it ends.
 */
public interface CliLauncher {
    /**
     * @throws IOException when the process cannot be started (the message says why)
     */
    RunningCli launch(CliCommand command, OutputStream stdout, OutputStream stderr) throws IOException;

    /**
     * The environment the CLI inherits before the command's own variables are added, so that the values of
     * the options' {@code secretEnvVars} can be masked.
     */
    default Map<String, String> inheritedEnvironment() {
        return Map.of();
    }
}
