package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.launch.LaunchFiles;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Starts a session on this machine: fills the control folder (readable by its owner only) and runs the launch
 * script with {@code sh}, with this JVM's environment, its output (the CLI's events) into
 * {@link ControlFolder#OUTPUT}. No user text reaches a command line.
 */
public final class LocalCliLauncher implements CliLauncher {
    private final Duration killGrace;
    private final Map<String, String> environment;

    public LocalCliLauncher() {
        this(ProcessTreeKiller.DEFAULT_GRACE);
    }

    /** @param killGrace how long processes get to stop after SIGTERM before they are killed */
    public LocalCliLauncher(Duration killGrace) {
        this(killGrace, System.getenv());
    }

    /** @param environment the variables the launch script, the CLI and the verify command start with */
    public LocalCliLauncher(Duration killGrace, Map<String, String> environment) {
        this.killGrace = killGrace;
        this.environment = Map.copyOf(environment);
    }

    @Override
    public Map<String, String> inheritedEnvironment() {
        return environment;
    }

    @Override
    public CliSession launch(CliCommand command) throws IOException {
        if (command.workingDirectory() != null && !new File(command.workingDirectory()).isDirectory()) {
            throw new IOException("the working directory " + command.workingDirectory() + " does not exist");
        }
        Path folder = Path.of(command.launchFolder());
        LaunchFiles.write(folder, LaunchFiles.of(command));
        ProcessBuilder builder = new ProcessBuilder("sh", folder.resolve(ControlFolder.SCRIPT).toString())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(folder.resolve(ControlFolder.OUTPUT).toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().clear();
        builder.environment().putAll(environment);
        if (command.workingDirectory() != null) {
            builder.directory(new File(command.workingDirectory()));
        }
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IOException("cannot run sh to start the Copilot CLI: " + e.getMessage(), e);
        }
        return new LocalCliSession(folder, process, command.runId(), killGrace);
    }
}
