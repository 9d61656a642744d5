package io.jenkins.plugins.copilotautopilot.core.mask;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LineBreaksTest {
    private static final String[] PIECES = {"a", "b", "n", "r", "\\", "\\\\", "\n", "\r", "\u00e9", "\ud83d\ude00", "tok"};

    @Test
    void breaksAndTheirEscapesGoTheRestStaysInOrder() {
        assertThat(LineBreaks.flatten("ab\\ncd\ne\\\\nf", false)).isEqualTo("abcdef");
        assertThat(LineBreaks.flatten("se\\\\\\ncret", true)).isEqualTo("se\\\\cret");
        assertThat(LineBreaks.flatten("a\\tb", false)).isEqualTo("a\\tb");
    }

    @Test
    void theTextAloneIsTheSqueezedTextAndEveryCharacterMapsBackToItsOrigin() {
        Random random = new Random(32);
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(24); i > 0; i--) {
                text.append(PIECES[random.nextInt(PIECES.length)]);
            }
            String original = text.toString();
            for (boolean keep : new boolean[] {false, true}) {
                LineBreaks.Squeezed squeezed = LineBreaks.squeeze(original, keep);
                String flat = LineBreaks.flatten(original, keep);
                assertThat(flat).as("%s (keep %s)", original, keep).isEqualTo(squeezed.text());
                int previous = -1;
                for (int i = 0; i < flat.length(); i++) {
                    int origin = squeezed.originalStart(i);
                    assertThat(origin).as("%s at %d", original, i).isGreaterThan(previous);
                    assertThat(original.charAt(origin)).as("%s at %d", original, i).isEqualTo(flat.charAt(i));
                    previous = origin;
                }
                assertThat(flat.indexOf('\n')).isNegative();
                assertThat(flat.indexOf('\r')).isNegative();
            }
        }
    }
}
