package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptCli;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A CLI whose output ends in the middle of a line — its disk full, or the CLI killed as it wrote — and exits 1: the
 * launch script's next words (it waits to be told whether to go on after a refusal of GitHub's service) start on a line
 * of their own, so the follower reads them, answers, and the session ends at once instead of when the wait runs out.
 */
class CutLastLineTest {
    @TempDir
    Path dir;

    @Test
    void aLineCutByTheCliDoesNotSwallowWhatTheLaunchScriptSaysNext() throws Exception {
        Path out = dir.resolve("stdout.jsonl");
        Files.write(out, Captures.stdoutText("cli-happy").lines().limit(4).toList(), StandardCharsets.UTF_8);
        Path cli = ScriptCli.write(dir.resolve("bin"), "cat '" + out + "'\n"
                + "printf '%s' '{\"type\":\"tool.execution_partial_result\",\"data\":{\"toolCallId\":\"c1\",\"partialOutput\":\"0000'\n"
                + "exit 1");

        // serviceRetries is 2 by default: after exit 1 the launch script waits for the follower's word before it ends
        ScriptCli.Run run = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> ScriptCli.run(cli, dir));

        assertThat(run.result().outcome()).isEqualTo(Outcome.FAILED);
        List<String> lines = run.log().lines();
        assertThat(lines).noneMatch(l -> l.contains("autopilot.awaiting"));
        assertThat(lines).anyMatch(l -> l.startsWith("[copilot] cli: {\"type\":\"tool.execution_partial_result\""));
    }
}
