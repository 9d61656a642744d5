package io.jenkins.plugins.copilotautopilot.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
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

    @Test
    void lookingNearTheEndFindsWhatASearchOfTheWholeOutputFinds() {
        Pattern whole = Pattern.compile("\\R?<shellId: [^>\\n]{1,40} completed with exit code -?\\d+>\\s*\\z");
        String id40 = "x".repeat(40);
        String[] outputs = {
            "long output ".repeat(2000) + "\n<shellId: 0 completed with exit code 0>",
            "<shellId: <shellId: 0 completed with exit code 1>",
            "a\r\n<shellId: " + "y".repeat(31) + "<shellId: 9 completed with exit code 2>",
            "b\n<shellId: " + "z".repeat(31) + "<shellId: completed with exit code 3>",
            "c\r\n<shellId: " + id40 + " completed with exit code 4>  \n",
            "d\n<shellId: " + id40 + "x completed with exit code 5>",
            "<shellId: 1 completed with exit code 0>\nthen <shellId: 2 completed with exit code 0> \t\n",
            "<shellId: 1 completed with exit code 0> and text after it",
        };
        for (String output : outputs) {
            assertThat(ShellMarker.strip(output)).as(output).isEqualTo(whole.matcher(output).replaceFirst(""));
        }
    }
}
