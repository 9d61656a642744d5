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
        return CliCommandBuilder.build(options, new CliExecutable("/opt/copilot/copilot", "1.0.102"), "/work", "/tmp/home");
    }

    public static CliCommand simple() {
        return of(AutopilotOptions.builder("Do the task").githubToken("github_pat_testtoken123456").build());
    }
}
