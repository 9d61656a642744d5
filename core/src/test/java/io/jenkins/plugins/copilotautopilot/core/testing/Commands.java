package io.jenkins.plugins.copilotautopilot.core.testing;

import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;

/** Commands for tests that do not start the real CLI. */
public final class Commands {
    private Commands() {
    }

    public static CliCommand of(AutopilotOptions options) {
        return CliCommandBuilder.build(options, new CliExecutable("/opt/copilot/copilot", "1.0.102"), "/work",
                "/tmp/copilot-autopilot-control", java.util.Map.of());
    }

    /** Engine timings that make the tests fast: limits that are broken fail quickly instead of hanging. */
    public static final io.jenkins.plugins.copilotautopilot.core.engine.EngineTimings FAST =
            new io.jenkins.plugins.copilotautopilot.core.engine.EngineTimings(java.time.Duration.ofMillis(5),
                    java.time.Duration.ofMillis(50), java.time.Duration.ofMillis(500), java.time.Duration.ofSeconds(5), 64 * 1024);

    public static CliCommand simple() {
        return of(AutopilotOptions.builder("Do the task").githubToken("github_pat_testtoken123456").build());
    }
}
