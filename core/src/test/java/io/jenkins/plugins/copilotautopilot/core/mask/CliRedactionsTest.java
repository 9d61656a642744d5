package io.jenkins.plugins.copilotautopilot.core.mask;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the CLI's own redaction of a short secret garbled is read back; nothing else is touched. */
class CliRedactionsTest {
    private static final String GARBLED = "{\"type\":\"session.tas******_complete\",\"data\":{\"summary\":\"o******\"}}";

    @Test
    void theOneShortSecretIsReadBack() {
        CliRedactions redactions = CliRedactions.of(List.of("k", "github_pat_0123456789abcdefghij"));
        assertThat(redactions.restore(GARBLED)).isEqualTo("{\"type\":\"session.task_complete\",\"data\":{\"summary\":\"ok\"}}");
        String clean = "{\"type\":\"assistant.idle\"}";
        assertThat(redactions.restore(clean)).isSameAs(clean);
    }

    @Test
    void longSecretsOrSeveralShortOnesAreLeftAsTheCliWroteThem() {
        assertThat(CliRedactions.of(List.of("github_pat_0123456789abcdefghij")).restore(GARBLED)).isEqualTo(GARBLED);
        assertThat(CliRedactions.of(List.of("k", "abc")).restore(GARBLED)).as("which secret was it? unknown").isEqualTo(GARBLED);
        assertThat(CliRedactions.of(List.of("k", "k")).restore(GARBLED)).contains("session.task_complete");
        assertThat(CliRedactions.none().restore(GARBLED)).isEqualTo(GARBLED);
    }

    @Test
    void shortMeansUnderEightCharacters() {
        assertThat(CliRedactions.isShort("1234567")).isTrue();
        assertThat(CliRedactions.isShort("12345678")).isFalse();
        assertThat(CliRedactions.isShort("")).isFalse();
        assertThat(CliRedactions.isShort(null)).isFalse();
    }
}
