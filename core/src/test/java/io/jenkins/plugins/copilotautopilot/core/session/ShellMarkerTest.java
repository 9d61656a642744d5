package io.jenkins.plugins.copilotautopilot.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The CLI's bookkeeping line at the end of a shell's result is left out; what the command printed stays. */
class ShellMarkerTest {
    @Test
    void theMarkerAtTheEndGoesAndNothingElse() {
        assertThat(ShellMarker.strip("hello-from-fake-model\n<shellId: 0 completed with exit code 0>")).isEqualTo("hello-from-fake-model");
        assertThat(ShellMarker.strip("\n<shellId: 0 completed with exit code 1>")).isEmpty();
        assertThat(ShellMarker.strip("<shellId: 12 completed with exit code 127>\n")).isEmpty();
        assertThat(ShellMarker.strip("a\r\n<shellId: 3 completed with exit code -1>")).isEqualTo("a");
        String quoted = "grep printed: <shellId: 0 completed with exit code 0>\nand more";
        assertThat(ShellMarker.strip(quoted)).as("only at the end").isEqualTo(quoted);
        assertThat(ShellMarker.strip("plain")).isEqualTo("plain");
        assertThat(ShellMarker.strip(null)).isNull();
    }
}
