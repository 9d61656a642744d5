package io.jenkins.plugins.copilotautopilot.core.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerVersionTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int print(Map<String, String> env, String... args) throws Exception {
        RunnerArguments.Parsed parsed = RunnerArguments.parse(args, env, new ByteArrayInputStream(new byte[0]));
        assertThat(parsed.version()).isTrue();
        return RunnerVersion.print(parsed, env.get("PATH"), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void printsTheRunnersVersionAndTheCliItWouldRun() throws Exception {
        String cli = TestCli.executable().path();
        assertThat(print(Map.of("COPILOT_CLI", cli), "--version")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "copilot-autopilot " + RunnerVersion.runnerVersion(),
                "Copilot CLI " + CliLocator.PINNED_VERSION + " (" + cli + ")");
        assertThat(RunnerVersion.runnerVersion()).matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void withoutACliItSaysSoAndWhy(@TempDir Path dir) throws Exception {
        assertThat(print(Map.of("PATH", dir.toString()), "--version")).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "copilot-autopilot " + RunnerVersion.runnerVersion(), "Copilot CLI: not found");
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("copilot-autopilot: The Copilot CLI was not found on the PATH.")
                .contains("--copilot or COPILOT_CLI");
    }
}
