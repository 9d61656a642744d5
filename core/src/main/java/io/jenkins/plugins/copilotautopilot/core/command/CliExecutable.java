package io.jenkins.plugins.copilotautopilot.core.command;

/**
 * The Copilot CLI program to run: the native binary, never the npm loader script (killing the loader
 * would leave the native process running).
 *
 * @param path    absolute path of the executable
 * @param version its version when known (read from the npm package next to it), else null
 */
public record CliExecutable(String path, String version) implements java.io.Serializable {
}
