package io.jenkins.plugins.copilotautopilot.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TextsTest {
    @Test
    void truncateMarksTheCutAndNeverSplitsASurrogatePair() {
        assertThat(Texts.truncate("abcdef", 4)).isEqualTo("abc…");
        assertThat(Texts.truncate("abc", 4)).isEqualTo("abc");
        assertThat(Texts.truncate("ab\uD83D\uDE00cd", 4)).isEqualTo("ab…");
    }

    @Test
    void lineHelpers() {
        assertThat(Texts.oneLine("  a\n\tb  c ")).isEqualTo("a b c");
        assertThat(Texts.singleLine("  a\r\nb\n")).isEqualTo("  a b ");
        assertThat(Texts.number(3.0)).isEqualTo("3");
        assertThat(Texts.number(1.25)).isEqualTo("1.25");
    }

    @Test
    void textWithoutAVisibleCharacterIsBlank() {
        for (String invisible : new String[] {null, "", " ", "\u00A0", "\u2007", "\u202F", "\u200B", "\uFEFF", "\0", "\u200E",
            "\u2028", "\u180E", "\u3164", "\uFE0F", "\u001B[0m".substring(0, 1), "\uDB40\uDC01", "\uD800", "\t\u00A0\u200B\0"}) {
            assertThat(Texts.isBlank(invisible)).as("%s", invisible == null ? null
                    : invisible.chars().mapToObj(c -> String.format("U+%04X", c)).toList()).isTrue();
        }
        for (String visible : new String[] {"a", "\u00A0.\u00A0", "\uD83D\uDE00", "\u4E2D", "\u0301x", "0"}) {
            assertThat(Texts.isBlank(visible)).as(visible).isFalse();
        }
    }

    @Test
    void nonBlankKeepsStrippedEntriesInOrder() {
        assertThat(Texts.nonBlank(java.util.Arrays.asList(" a ", null, "", "\t", "b"))).containsExactly("a", "b");
        assertThat(Texts.nonBlank(null)).isEmpty();
        java.util.List<String> copy = Texts.nonBlank(java.util.List.of("x"));
        copy.add("y");
        assertThat(copy).containsExactly("x", "y");
    }

    @Test
    void byteCountsInWords() {
        assertThat(Texts.bytes(0)).isEqualTo("0 B");
        assertThat(Texts.bytes(1023)).isEqualTo("1023 B");
        assertThat(Texts.bytes(1536)).isEqualTo("1.5 KB");
        assertThat(Texts.bytes(197_462_848)).isEqualTo("188.3 MB");
        assertThat(Texts.bytes(5L << 40)).isEqualTo("5.0 TB");
    }

    @Test
    void durationsInWords() {
        assertThat(Durations.describe(Duration.ofMillis(250))).isEqualTo("250 ms");
        assertThat(Durations.describe(Duration.ofMillis(2400))).isEqualTo("2.4s");
        assertThat(Durations.describe(Duration.ofSeconds(8))).isEqualTo("8s");
        assertThat(Durations.describe(Duration.ofSeconds(3725))).isEqualTo("1h 2m 5s");
        assertThat(Durations.describe(Duration.ofMinutes(60))).isEqualTo("1h");
        assertThat(Durations.describe(null)).isEqualTo("an unknown time");
    }

    @Test
    void consoleTextRemovesEscapesAndControls() {
        assertThat(ConsoleText.clean("plain text\twith tab\nand line")).isEqualTo("plain text\twith tab\nand line");
        assertThat(ConsoleText.clean("\u001b[1;31mbold red\u001b[0m")).isEqualTo("bold red");
        assertThat(ConsoleText.clean("\u001b]0;title\u001b\\after")).isEqualTo("after");
        assertThat(ConsoleText.clean("a\u001bcb")).isEqualTo("ab");
        assertThat(ConsoleText.clean("x\r\u0008\u009b\u202Ey")).isEqualTo("x\uFFFD\uFFFD\uFFFD\uFFFDy");
        assertThat(ConsoleText.clean("unterminated \u001b[")).isEqualTo("unterminated ");
    }
}
