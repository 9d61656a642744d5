package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.TestFolders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code toolTimeout} and {@code startupTimeout}, apart from the wall-clock and inactivity limits: the real CLI and a
 * scripted model, and a stand-in CLI that never prints.
 */
class CallLimitsTest {
    @Test
    void aToolCallRunningPastTheToolTimeoutEndsTheSessionTimedOutNamingIt() throws Exception {
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("sleep 120", "Slept."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(TOOL_TIMEOUT, Duration.ofSeconds(2)))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.TIMED_OUT);
        assertThat(run.result.reason()).isEqualTo("The tool call 'bash' (sleep 120) in turn 1 ran longer than 2s"
                + " (the toolTimeout limit); the Copilot CLI was stopped.");
        assertThat(run.result.ending().durationMillis()).isLessThan(60_000);
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot]   < bash INTERRUPTED"));
        assertThat(run.log.find("| limits: 1h wall clock, 10m without events, 2s per tool call")).isNotNull();
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
    }

    @Test
    void aToolCallWithinTheToolTimeoutIsLeftAlone() throws Exception {
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("sleep 1; echo done", "Done."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(TOOL_TIMEOUT, Duration.ofSeconds(30)).set(STARTUP_TIMEOUT, Duration.ofSeconds(30)))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
    }

    @Test
    void aCliThatPrintsNothingPastTheStartupTimeoutEndsTheSessionFailed() throws Exception {
        Path silent = Files.createTempDirectory(TestFolders.root(), "silent-").resolve("copilot");
        Files.writeString(silent, "#!/bin/sh\nexec sleep 120\n");
        Files.setPosixFilePermissions(silent, PosixFilePermissions.fromString("rwxr-xr-x"));

        E2eRun run = E2eRun.with(Scripts.bashThenComplete("true", "never"))
                .cli(new CliExecutable(silent.toString(), null))
                .options(o -> o.set(STARTUP_TIMEOUT, Duration.ofSeconds(2)))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result.reason()).isEqualTo("The Copilot CLI printed nothing within 2s of its start"
                + " (the startupTimeout limit); the Copilot CLI was stopped.");
        assertThat(run.result.ending().durationMillis()).isLessThan(60_000);
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
    }

    @Test
    void theLimitsAreValidated() {
        assertThat(TaskSpec.of("x")
                .set(TOOL_TIMEOUT, Duration.ofSeconds(-1)).set(STARTUP_TIMEOUT, -1).problems())
                .anyMatch(p -> p.startsWith("toolTimeout")).anyMatch(p -> p.startsWith("startupTimeout"));
    }
}
