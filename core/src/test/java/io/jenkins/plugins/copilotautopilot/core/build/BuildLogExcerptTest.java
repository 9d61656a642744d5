package io.jenkins.plugins.copilotautopilot.core.build;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuildLogExcerptTest {
    private static final java.util.function.UnaryOperator<String> MASKER = SecretMasker.of(List.of("s3cr3t-value"))::mask;

    @Test
    void theLastLinesFollowTheTaskCleanedMaskedAndWithoutThePluginsOwn() {
        List<String> console = List.of("Started", "[Pipeline] sh", "+ npm test", "\u001B[31mFAIL\u001B[0m add 2 3 = -1",
                "[copilot] Turn 1", "[copilot]", "[copilot]   > bash: npm test", "using s3cr3t-value now", "[Pipeline] copilotAutopilot");

        BuildLogExcerpt excerpt = BuildLogExcerpt.append("Fix the build.\n", console, 5, MASKER, "Jenkins build app #7");

        assertThat(excerpt.task()).isEqualTo("Fix the build.\n\nThe last 5 lines of the console of Jenkins build app #7, up to this step:\n"
                + "<build_log>\n[Pipeline] sh\n+ npm test\nFAIL add 2 3 = -1\nusing **** now\n[Pipeline] copilotAutopilot\n</build_log>\n");
        assertThat(excerpt.lines()).isEqualTo(5);
        assertThat(excerpt.leftOutLines()).isEqualTo(3);
    }

    @Test
    void aShortConsoleGivesWhatThereIs() {
        BuildLogExcerpt excerpt = BuildLogExcerpt.append("Task", List.of("only line"), 100, SecretMasker.none()::mask, "b #1");
        assertThat(excerpt.lines()).isEqualTo(1);
        assertThat(excerpt.task()).contains("The last 1 line of the console of b #1").contains("<build_log>\nonly line\n</build_log>");
    }

    @Test
    void theTaskStaysWithinThePromptLimit() {
        List<String> console = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            console.add(i + " " + "x".repeat(300));
        }
        String task = "y".repeat(200_000);
        BuildLogExcerpt excerpt = BuildLogExcerpt.append(task, console, 10_000, SecretMasker.none()::mask, "b #1");

        assertThat(excerpt.task().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(MAX_PROMPT_BYTES);
        assertThat(excerpt.lines()).isLessThan(10_000).isGreaterThan(2_000);
        assertThat(excerpt.task()).contains("\n9999 x").startsWith(task);
        assertThat(TaskSpec.of(excerpt.task()).problems()).isEmpty();
    }
}
