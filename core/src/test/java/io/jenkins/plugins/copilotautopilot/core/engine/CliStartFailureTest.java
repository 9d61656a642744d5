package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptCli;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CLI that dies at its start: the reason quotes the first line that says what went wrong, not the tail of the error
 * object Node prints after it. The stderr is CLI 1.0.102's own, captured in a container run as uid 1001 with HOME=/.
 */
class CliStartFailureTest {
    private static final String UNPACK_FAILURE = String.join("\n",
            "Failed to extract bundled package: Error: EACCES: permission denied, mkdir '/.cache'",
            "    at Object.mkdirSync (node:fs:1372:26)",
            "    at extractBundle (/snapshot/copilot/sea-loader.js:41:8) {",
            "  errno: -13,",
            "  code: 'EACCES',",
            "  syscall: 'mkdir',",
            "  path: '/.cache'",
            "}");

    @TempDir
    Path dir;

    @Test
    void theReasonQuotesTheFirstLineThatSaysWhatWentWrong() throws Exception {
        Path cli = ScriptCli.write(dir.resolve("bin"), "cat >&2 <<'EOF'\n" + UNPACK_FAILURE + "\nEOF\nexit 1");
        ScriptCli.Run run = ScriptCli.run(cli, dir, o -> { }, e -> { });

        assertThat(run.result().outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result().reason()).isEqualTo("The Copilot CLI exited with code 1: Failed to extract bundled package: Error:"
                + " EACCES: permission denied, mkdir '/.cache'");
    }

    @Test
    void stackFramesAndFieldsOfAnErrorObjectSayNothingByThemselves() {
        assertThat(StderrCollector.saysWhatWentWrong("Error: No authentication information found.")).isTrue();
        assertThat(StderrCollector.saysWhatWentWrong("Failed to extract bundled package: Error: EACCES")).isTrue();
        assertThat(StderrCollector.saysWhatWentWrong("    at Object.mkdirSync (node:fs:1372:26)")).isFalse();
        assertThat(StderrCollector.saysWhatWentWrong("  code: 'EACCES',")).isFalse();
        assertThat(StderrCollector.saysWhatWentWrong("}")).isFalse();
        assertThat(StderrCollector.saysWhatWentWrong("Loading the session")).isFalse();
    }
}
