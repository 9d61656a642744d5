package io.jenkins.plugins.copilotautopilot.core.launch;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What goes into a {@link ControlFolder} before the launch script runs: the task, the arguments, the working
 * directory and the variables, each a file. Names are relative to the control folder; the variables are in
 * {@link ControlFolder#ENVIRONMENT}, which must be readable by its owner only (they hold secrets).
 */
public final class LaunchFiles {
    private LaunchFiles() {
    }

    /** File name → content for {@code command}; {@link ControlFolder#SCRIPT} included. */
    public static Map<String, byte[]> of(CliCommand command) {
        return of(command, false);
    }

    /**
     * Like {@link #of(CliCommand)}; the watchdog stops the CLI at the wall-clock limit plus
     * {@link LaunchScript#WATCHDOG_GRACE_SECONDS}, even if nobody follows it any more.
     *
     * @param describeCli whether the launch script is to say which CLI it found ({@link ControlFolder#CLI_EVENT}),
     *                    because the caller could not look (a container's file system)
     */
    public static Map<String, byte[]> of(CliCommand command, boolean describeCli) {
        long watchdogSeconds = command.options().timeout() == null ? 0
                : command.options().timeout().toSeconds() + LaunchScript.WATCHDOG_GRACE_SECONDS;
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(ControlFolder.PROMPT, utf8(command.options().prompt()));
        StringBuilder arguments = new StringBuilder(command.executable().path()).append('\n');
        command.arguments().forEach(a -> arguments.append(a).append('\n'));
        files.put(ControlFolder.ARGUMENTS, utf8(arguments.toString()));
        files.put(ControlFolder.WORKING_DIRECTORY, utf8(command.workingDirectory() + "\n"));
        command.environment().forEach((name, value) -> files.put(environmentFile(name), utf8(value)));
        if (command.options().keptSession() != null) {
            files.put(ControlFolder.KEPT_SESSION, command.options().keptSession());
        }
        if (command.options().mcpServers() != null) {
            files.put(ControlFolder.MCP_CONFIG, utf8(command.options().mcpServers().json()));
        }
        String verify = command.options().verify();
        if (verify != null) {
            files.put(ControlFolder.VERIFY, utf8(verify));
        }
        files.put(ControlFolder.LAUNCH_SETTINGS, utf8("watchdog=" + watchdogSeconds + "\n" + "describe=" + (describeCli ? "1" : "")
                + "\nchanges=" + (command.options().recordChanges() ? "1" : "0")
                + "\nrounds=" + (verify == null ? 0 : command.options().maxVerifyRounds())
                + "\nmask=" + String.join(",", command.secretVariables())
                + "\nkeep=" + (command.options().keepSession() ? "1" : "") + "\n"));
        files.put(ControlFolder.SCRIPT, utf8(LaunchScript.render(command.launchFolder())));
        return files;
    }

    /**
     * Creates the control folder and its variables' folder, readable by their owner only, and writes {@code files}
     * (from {@link #of}) into it; a name that would lead outside the folder is refused. Runs where the CLI runs: in
     * this JVM for the runner, on the agent for Jenkins.
     */
    public static void write(Path folder, Map<String, byte[]> files) throws IOException {
        Path root = folder.toAbsolutePath().normalize();
        Files.createDirectories(root);
        ownerOnly(root);
        Path environment = root.resolve(ControlFolder.ENVIRONMENT);
        Files.createDirectories(environment);
        ownerOnly(environment);
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path target = root.resolve(file.getKey()).normalize();
            if (!target.startsWith(root) || target.equals(root)) {
                throw new IOException("refusing to write outside the control folder: " + file.getKey());
            }
            Files.write(target, file.getValue());
        }
    }

    private static void ownerOnly(Path dir) throws IOException {
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: nothing to tighten
        }
    }

    /** The file that holds a variable, relative to the control folder. */
    public static String environmentFile(String variable) {
        return ControlFolder.ENVIRONMENT + "/" + variable;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
