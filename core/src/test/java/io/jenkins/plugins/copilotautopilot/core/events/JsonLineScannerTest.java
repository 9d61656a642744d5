package io.jenkins.plugins.copilotautopilot.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand-written scanner agrees with Jackson's strict parser on validity, type and data fields. */
class JsonLineScannerTest {
    private static final String ALPHABET = "{}[]\":,\\ -+0123456789.eEtrufalsn/bfu\t\n\u0001\u00e9x";

    /** What Jackson says: null when invalid (or no string type), else the tree. */
    private static JsonNode jackson(String line) {
        try {
            JsonNode root = EventParser.mapper().readTree(line);
            return root != null && root.isObject() && root.path("type").isTextual() ? root : null;
        } catch (Exception e) {
            return null;
        }
    }

    private static void assertAgrees(String line) {
        CliEvent event = new JsonLineScanner().scan(line);
        JsonNode tree = jackson(line);
        assertThat(event != null).as("valid? %s", line).isEqualTo(tree != null);
        if (event != null) {
            assertThat(event.type()).isEqualTo(tree.path("type").asText());
            assertThat(event.ephemeral()).isEqualTo(tree.path("ephemeral").isBoolean() && tree.path("ephemeral").asBoolean());
            tree.path("data").fields().forEachRemaining(field -> {
                JsonNode v = field.getValue();
                if (v.isNumber()) {
                    assertThat(new java.math.BigDecimal(event.dataText(field.getKey())))
                            .isEqualByComparingTo(v.decimalValue());
                } else if (v.isValueNode() && !v.isNull()) {
                    assertThat(event.dataText(field.getKey())).as("%s in %s", field.getKey(), line).isEqualTo(v.asText());
                }
            });
        }
    }

    private static List<String> captureLines() {
        List<String> lines = new ArrayList<>();
        for (String capture : List.of("cli-happy", "cli-nudge", "cli-error500", "cli-perm-autopilot-noallow")) {
            Captures.stdoutText(capture).lines().filter(l -> !l.isBlank()).forEach(lines::add);
        }
        return lines;
    }

    @Test
    void agreesOnEveryRealLine() {
        captureLines().forEach(JsonLineScannerTest::assertAgrees);
    }

    @Test
    void agreesOnHandPickedEdgeCases() {
        for (String line : List.of("{\"type\":\"a\"}", " {\"type\" : \"a\" } ", "{\"type\":\"a\"} x", "{\"type\":\"a\"}}",
                "{\"type\":1}", "{\"type\":\"a\",\"type\":\"b\"}", "{\"type\":\"a\",\"type\":2}", "{\"type\":\"\\u0041\\n\"}",
                "{\"type\":\"a\",\"data\":{\"n\":01}}", "{\"type\":\"a\",\"data\":{\"n\":-0.5e+3,\"b\":true,\"z\":null}}",
                "{\"type\":\"a\",\"data\":{\"n\":1.}}", "{\"type\":\"a\",\"data\":{\"n\":.5}}", "{\"type\":\"a\",\"data\":{\"x\":\"\\x\"}}",
                "{\"type\":\"a\",\"data\":{\"x\":\"tab\there\"}}", "{\"type\":\"a\",\"data\":{\"x\":truex}}", "{\"type\":\"a\",}",
                "{\"type\":\"a\",\"data\":[1,2,]}", "{\"type\":\"a\",\"data\":{\"d\\u0061ta\":\"v\"}}", "{\"type\":\"a\" \"b\":1}",
                "{\"type\":\"a\",\"ephemeral\":true}", "{\"type\":\"a\",\"ephemeral\":\"true\"}", "{}", "{\"type\":\"a\"",
                "{\"type\":\"a\",\"data\":{\"s\":\"\\ud83d\\ude80\"}}", "{\"type\":\"a\",\"data\":{\"n\":1e5,\"m\":-12}}",
                "{\"type\":\"a\"}\n", "{\"type\":\"a\",\"data\":{\"x\":NaN}}", "{\"type\":\"a\",\"data\":{\"x\":-}}")) {
            assertAgrees(line);
        }
        String deep = "{\"type\":\"a\",\"data\":" + "[".repeat(1200) + "]".repeat(1200) + "}";
        assertAgrees(deep);
    }

    @Test
    void agreesOnRandomlyMutatedLines() {
        Random random = new Random(20261130L);
        List<String> lines = captureLines();
        for (int round = 0; round < 20_000; round++) {
            StringBuilder line = new StringBuilder(lines.get(random.nextInt(lines.size())));
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits && line.length() > 0; e++) {
                int at = random.nextInt(line.length());
                char c = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
                switch (random.nextInt(3)) {
                    case 0 -> line.setCharAt(at, c);
                    case 1 -> line.insert(at, c);
                    default -> line.deleteCharAt(at);
                }
            }
            assertAgrees(line.toString());
        }
    }
}
