package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Properties;

/** {@code --version}: the runner's version and the version of the Copilot CLI it would run. */
public final class RunnerVersion {
    private static final String RESOURCE = "runner-version.properties";

    private RunnerVersion() {
    }

    /**
     * Prints two lines on {@code out}: the runner's version, and the CLI that {@link CliLocator} finds with its
     * version. When no CLI is found, says so on {@code out} and why on {@code err}.
     *
     * @return the exit code: 0, or 1 when no CLI was found
     */
    public static int print(RunnerArguments.Parsed parsed, String pathVariable, PrintStream out, PrintStream err) {
        out.println(RunnerMain.NAME + " " + runnerVersion());
        CliExecutable cli;
        try {
            cli = new CliLocator().locate(parsed.copilotPath(), pathVariable, RunnerArguments.HOW_TO_SET_CLI);
        } catch (CliNotFoundException e) {
            out.println("Copilot CLI: not found");
            err.println(RunnerMain.NAME + ": " + e.getMessage());
            return 1;
        }
        out.println("Copilot CLI " + (cli.version() == null ? "(version unknown)" : cli.version()) + " (" + cli.path() + ")");
        return 0;
    }

    /** The runner's version as the build recorded it, or "unknown". */
    static String runnerVersion() {
        Properties properties = new Properties();
        try (InputStream in = RunnerVersion.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        String version = properties.getProperty("version", "");
        return version.isBlank() || version.startsWith("${") ? "unknown" : version;
    }
}
