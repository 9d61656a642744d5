package io.jenkins.plugins.copilotautopilot.core.testing;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;

/** Commands for tests that do not start the real CLI. */
public final class Commands {
    private Commands() {
    }

    public static CliCommand of(TaskSpec spec) {
        return CliCommandBuilder.build(spec.plan(), spec.task(), new CliExecutable("/opt/copilot/copilot", "1.0.102"), "/work",
                "/tmp/copilot-autopilot-control", java.util.Map.of());
    }

    /** Engine timings that make the tests fast: limits that are broken fail quickly instead of hanging. */
    public static final io.jenkins.plugins.copilotautopilot.core.engine.EngineTimings FAST =
            new io.jenkins.plugins.copilotautopilot.core.engine.EngineTimings(java.time.Duration.ofMillis(5),
                    java.time.Duration.ofMillis(50), java.time.Duration.ofMillis(500), java.time.Duration.ofSeconds(5), 64 * 1024);

    /** A command for the spec, built as a launcher would build it. */
    public static CliCommand build(TaskSpec spec, CliExecutable cli, String workingDirectory, String launchFolder,
                                   java.util.Map<String, String> inheritedEnvironment) {
        return CliCommandBuilder.build(spec.plan(), spec.task(), cli, workingDirectory, launchFolder, inheritedEnvironment);
    }

    public static CliCommand simple() {
        return of(TaskSpec.of("Do the task").githubToken("github_pat_testtoken123456"));
    }
}
