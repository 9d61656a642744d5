package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import org.junit.jupiter.api.Test;

/**
 * The CLI's path policy, apart from its tool policy: with every tool allowed, a command reading outside the working
 * directory is still denied, and the log says it was the path; {@code allowAllPaths} lifts it. The real CLI 1.0.102.
 */
class PathPolicyTest {
    private static final String OUTSIDE = "cat /etc/hostname";

    @Test
    void withEveryToolAllowedAPathOutsideTheWorkingDirectoryIsDeniedAndTheLogSaysWhy() throws Exception {
        E2eRun run = E2eRun.with(Scripts.bashThenComplete(OUTSIDE, "Tried."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.activity().deniedToolCalls()).isEqualTo(1);
        assertThat(run.log.lines()).contains("[copilot] Paths: the working directory only (allowAllPaths is off)");
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot]   < bash DENIED")
                && l.contains("(a path outside the allowed ones: every tool is allowed)"));
        assertThat(run.command.commandLine()).doesNotContain("--allow-all-paths");
    }

    @Test
    void allowAllPathsLetsTheToolReadThere() throws Exception {
        E2eRun run = E2eRun.with(Scripts.bashThenComplete(OUTSIDE, "Read it."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(ALLOW_ALL_PATHS, true))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.activity().deniedToolCalls()).isZero();
        assertThat(run.log.lines()).contains("[copilot] Paths: any (allowAllPaths)");
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot]   < bash ok"));
        assertThat(run.command.commandLine()).contains("--allow-all-paths");
    }
}
