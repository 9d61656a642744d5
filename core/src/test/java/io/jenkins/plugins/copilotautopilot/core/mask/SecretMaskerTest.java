package io.jenkins.plugins.copilotautopilot.core.mask;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecretMaskerTest {
    private static final String TOKEN = "github_pat_11ABCDEFG0123456789_abcdefXYZ";
    private final SecretMasker masker = SecretMasker.of(List.of(TOKEN));

    /**
     * The masker finds exactly what searching every spelling in the text as it is and, character by character,
     * in the text without line breaks finds: random texts of secret pieces, letters, breaks and backslashes.
     */
    @Test
    void findsWhatTheSearchInBothTextsFinds() {
        String secret = "nr\\tok\"en/9";
        SecretMasker both = SecretMasker.of(List.of(TOKEN, secret));
        List<String> spellings = new java.util.ArrayList<>(SecretMasker.SecretSpellings.of(TOKEN));
        spellings.addAll(SecretMasker.SecretSpellings.of(secret));
        spellings.removeIf(sp -> sp.length() < SecretMasker.MIN_SECRET_LENGTH);
        String[] pieces = {"a", "n", "r", "\\", "\\\\", "\n", "\r", "\\n", "\"", "/", "x y", TOKEN.substring(0, 9),
            TOKEN.substring(9), TOKEN, secret.substring(0, 3), secret.substring(3), "\u00e9", "é"};
        java.util.Random random = new java.util.Random(42);
        int withSecrets = 0;
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(12); i >= 0; i--) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            String t = text.toString();
            List<int[]> expected = referenceFind(t, spellings);
            assertThat(both.find(t)).as("in %s", t).containsExactlyElementsOf(expected);
            withSecrets += expected.isEmpty() ? 0 : 1;
        }
        assertThat(withSecrets).isGreaterThan(1_000);
    }

    /**
     * Every spelling searched in the text as it is and, character by character, in the text without breaks: once
     * with each run of backslashes before an n or r taken out whole, once with only the break's own escape taken out
     * (one backslash of an odd run, two of an even one).
     */
    private static List<int[]> referenceFind(String text, List<String> spellings) {
        boolean[] masked = new boolean[text.length()];
        for (String spelling : spellings) {
            for (int at = text.indexOf(spelling); at >= 0; at = text.indexOf(spelling, at + spelling.length())) {
                java.util.Arrays.fill(masked, at, at + spelling.length(), true);
            }
        }
        for (boolean keepEscaped : new boolean[] {false, true}) {
            StringBuilder flat = new StringBuilder();
            List<Integer> origin = new java.util.ArrayList<>();
            for (int i = 0; i < text.length(); ) {
                char c = text.charAt(i);
                if (c == '\n' || c == '\r') {
                    i++;
                    continue;
                }
                int after = i;
                while (after < text.length() && text.charAt(after) == '\\') {
                    after++;
                }
                if (after > i && after < text.length() && (text.charAt(after) == 'n' || text.charAt(after) == 'r')) {
                    int run = after - i;
                    int keep = keepEscaped ? Math.max(0, run - (run % 2 == 1 ? 1 : 2)) : 0;
                    for (int j = i; j < i + keep; j++) {
                        flat.append('\\');
                        origin.add(j);
                    }
                    i = after + 1;
                    continue;
                }
                for (int j = i; j < Math.max(after, i + 1); j++) {
                    flat.append(text.charAt(j));
                    origin.add(j);
                }
                i = Math.max(after, i + 1);
            }
            String f = flat.toString();
            for (String spelling : spellings) {
                for (int at = f.indexOf(spelling); at >= 0; at = f.indexOf(spelling, at + spelling.length())) {
                    java.util.Arrays.fill(masked, origin.get(at), origin.get(at + spelling.length() - 1) + 1, true);
                }
            }
        }
        List<int[]> ranges = new java.util.ArrayList<>();
        for (int i = 0; i < masked.length; i++) {
            if (masked[i]) {
                int start = i;
                while (i < masked.length && masked[i]) {
                    i++;
                }
                ranges.add(new int[] {start, i});
            }
        }
        return ranges;
    }

    @Test
    void masksTheLiteralValue() {
        assertThat(masker.mask("token=" + TOKEN + " end")).isEqualTo("token=**** end");
        assertThat(masker.mask(TOKEN + TOKEN)).isEqualTo("****");
    }

    @Test
    void leavesTextWithoutSecretsUntouchedAndUnchangedInstance() {
        String text = "nothing secret here";
        assertThat(masker.mask(text)).isSameAs(text);
        assertThat(masker.containsSecret(text)).isFalse();
    }

    @Test
    void masksBase64AtEveryAlignment() {
        for (String prefix : List.of("", "u", "us", "user:", "ab:")) {
            String encoded = Base64.getEncoder().encodeToString((prefix + TOKEN + ":x").getBytes(StandardCharsets.UTF_8));
            String masked = masker.mask("Authorization: Basic " + encoded);
            assertThat(masked).as("prefix '%s'", prefix).contains("****");
            // what is left of the encoding is too short to decode the token back
            assertThat(masked.replace("Authorization: Basic ", "").replace("****", "").length()).isLessThan(12);
        }
    }

    @Test
    void masksUrlSafeBase64() {
        byte[] bytes = ("??>" + TOKEN).getBytes(StandardCharsets.UTF_8);
        String encoded = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        assertThat(masker.mask(encoded)).contains("****");
    }

    @Test
    void masksASecretSplitAcrossLines() {
        String half1 = TOKEN.substring(0, 15);
        String half2 = TOKEN.substring(15);
        assertThat(masker.mask("a " + half1 + "\n" + half2 + " b")).isEqualTo("a **** b");
        assertThat(masker.mask("a " + half1 + "\r\n" + half2 + " b")).isEqualTo("a **** b");
        // inside a raw JSON event line the break is the two characters \ and n
        assertThat(masker.mask("{\"text\":\"" + half1 + "\\n" + half2 + "\"}")).isEqualTo("{\"text\":\"****\"}");
    }

    @Test
    void masksJsonEscapedSecrets() {
        SecretMasker quoted = SecretMasker.of(List.of("pa\"ss\\wörd/1"));
        assertThat(quoted.mask("{\"v\":\"pa\\\"ss\\\\wörd/1\"}")).isEqualTo("{\"v\":\"****\"}");
        assertThat(quoted.mask("{\"v\":\"pa\\\"ss\\\\w\\u00f6rd\\/1\"}")).doesNotContain("ss\\\\w");
        assertThat(quoted.mask("{\"v\":\"pa\\\"ss\\\\w\\u00f6rd/1\"}")).isEqualTo("{\"v\":\"****\"}");
    }

    @Test
    void masksSecretsEscapedTwiceAndThreeTimes() {
        SecretMasker quoted = SecretMasker.of(List.of("Tok\"en\\Val"));
        // a tool printed {"k":"Tok\"en\\Val"}; the event line escapes that once more
        assertThat(quoted.mask("{\"content\":\"{\\\"k\\\":\\\"Tok\\\\\\\"en\\\\\\\\Val\\\"}\"}"))
                .isEqualTo("{\"content\":\"{\\\"k\\\":\\\"****\\\"}\"}");
        String thrice = "Tok\\\\\\\\\\\\\\\"en" + "\\".repeat(8) + "Val";
        assertThat(quoted.mask("x " + thrice + " y")).isEqualTo("x **** y");
        // split by a line break that is itself escaped twice
        assertThat(quoted.mask("Tok\\\\\\\"e\\\\nn\\\\\\\\Val")).isEqualTo("****");
    }

    @Test
    void masksUrlEncodedSecrets() {
        SecretMasker spaced = SecretMasker.of(List.of("key with/slash+plus"));
        assertThat(spaced.mask("?k=key+with%2Fslash%2Bplus&x")).isEqualTo("?k=****&x");
        assertThat(spaced.mask("?k=key%20with%2Fslash%2Bplus&x")).isEqualTo("?k=****&x");
    }

    @Test
    void ignoresBlankAndTooShortValues() {
        SecretMasker weak = SecretMasker.of(java.util.Arrays.asList(null, "", "  ", "abc"));
        assertThat(weak.isEmpty()).isTrue();
        assertThat(weak.mask("abc abc")).isEqualTo("abc abc");
    }

    @Test
    void overlappingSecretsMergeIntoOneMask() {
        SecretMasker two = SecretMasker.of(List.of("abcdef123", "def123xyz"));
        assertThat(two.mask("--abcdef123xyz--")).isEqualTo("--****--");
    }

    @Test
    void withAddsSecrets() {
        SecretMasker more = masker.with(List.of("another-secret-value"));
        assertThat(more.mask(TOKEN + " another-secret-value")).isEqualTo("**** ****");
    }
}
