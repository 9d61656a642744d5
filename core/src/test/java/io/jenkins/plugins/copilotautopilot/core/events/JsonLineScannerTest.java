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
            assertThat(event.id()).as("id of %s", line).isEqualTo(tree.path("id").asText(null));
            tree.path("data").fields().forEachRemaining(field -> {
                JsonNode v = field.getValue();
                if (v.isFloatingPointNumber()) { // the tree holds a double
                    assertThat(Double.parseDouble(event.dataText(field.getKey()))).isEqualTo(v.doubleValue());
                } else if (v.isNumber()) {
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
        for (int depth : new int[] {998, 999, 1000, 1001}) {
            assertAgrees("{\"type\":\"a\",\"data\":" + "[".repeat(depth) + "]".repeat(depth) + "}");
            assertAgrees("{\"type\":\"a\",\"data\":" + "{\"x\":".repeat(depth) + "1" + "}".repeat(depth) + "}");
        }
    }

    @Test
    void agreesOnTheEventsOwnId() {
        for (String line : List.of("{\"type\":\"a\",\"id\":\"e-1\"}", "{\"id\":\"x\\u0041\\n\",\"type\":\"a\"}",
                "{\"type\":\"a\",\"id\":7}", "{\"type\":\"a\",\"id\":null}", "{\"type\":\"a\",\"id\":\"one\",\"id\":\"two\"}",
                "{\"type\":\"a\",\"id\":\"one\",\"id\":2}", "{\"type\":\"a\",\"data\":{\"id\":\"inner\"}}",
                "{\"type\":\"a\",\"\\u0069d\":\"escaped name\"}", "{\"type\":\"a\",\"id\":{\"k\":1}}")) {
            assertAgrees(line);
        }
        assertThat(new JsonLineScanner().scan("{\"type\":\"a\",\"id\":\"e-1\"}").id()).isEqualTo("e-1");
        assertThat(new JsonLineScanner().scan("{\"type\":\"a\",\"data\":{\"id\":\"inner\"}}").id()).isNull();
    }

    @Test
    void agreesOnEscapedKeys() {
        for (String line : List.of("{\"\\u0074ype\":\"a\"}", "{\"typ\\u0065\":\"a\",\"d\\u0061ta\":{\"\\u0078\":\"v\"}}",
                "{\"type\":\"a\",\"\\u0065phemeral\":true}", "{\"type\":\"a\",\"data\":{\"k\":1},\"d\\u0061ta\":[1]}",
                "{\"type\":\"a\",\"data\":{\"k\":1},\"data\":{\"m\":2}}", "{\"t\\/ype\":\"a\"}",
                "{\"type\":\"a\",\"timest\\u0061mp\":\"2026-11-30T07:58:47.390Z\"}")) {
            assertAgrees(line);
        }
        CliEvent event = new EventParser().parse("{\"\\u0074ype\":\"result\",\"exitCode\":0}") instanceof CliEvent e ? e : null;
        assertThat(event).isNotNull();
        assertThat(event.type()).isEqualTo("result");
        assertThat(event.root().path("exitCode").asInt(-1)).isZero();
    }

    @Test
    void agreesOnJacksonsReadLimits() {
        String digits = "1".repeat(1000);
        for (String number : List.of(digits, digits + "1", "-" + digits, "-" + digits + "1", "0." + digits, "0." + digits + "1",
                "1e" + "1".repeat(999), digits + ".5", "1." + "5".repeat(998), "1." + "5".repeat(999), "1." + "5".repeat(1000))) {
            assertAgrees("{\"type\":\"result\",\"exitCode\":0,\"n\":" + number + "}");
            assertAgrees("{\"type\":\"a\",\"data\":{\"n\":" + number + "}}");
        }
        assertAgrees("{\"type\":\"a\",\"" + "k".repeat(50_000) + "\":1}");
        assertAgrees("{\"type\":\"a\",\"data\":{\"n\":1e+" + "1".repeat(998) + ",\"m\":1E-" + "1".repeat(999) + "}}");
        assertAgrees("{\"type\":\"a\",\"data\":{\"n\":-1.5e-" + "1".repeat(998) + "}}");
        assertAgrees("{\"type\":\"a\",\"" + "k".repeat(50_001) + "\":1}");
        assertAgrees("{\"type\":\"a\",\"data\":{\"" + "k".repeat(50_001) + "\":1}}");
    }

    @Test
    void agreesOnStringsPastJacksonsLengthLimit() {
        int limit = com.fasterxml.jackson.core.StreamReadConstraints.DEFAULT_MAX_STRING_LEN;
        assertAgrees("{\"type\":\"a\",\"data\":{\"s\":\"" + "x".repeat(limit + 1) + "\"}}");
        assertAgrees("{\"type\":\"a\",\"data\":{\"s\":\"" + "x".repeat(limit - 10) + "\"}}");
    }

    @Test
    void anEventIsAlwaysReadableAsATree() {
        for (String line : List.of("{\"type\":\"result\",\"exitCode\":3,\"n\":" + "9".repeat(1001) + "}",
                "{\"\\u0074ype\":\"result\",\"exitCode\":3}", "{\"type\":\"result\",\"exitCode\":3,\"" + "k".repeat(50_001) + "\":1}")) {
            if (new EventParser().parse(line) instanceof CliEvent event) {
                assertThat(event.root().isMissingNode()).as("tree of %s", line.substring(0, Math.min(40, line.length()))).isFalse();
                assertThat(event.root().path("exitCode").asInt()).isEqualTo(3);
            }
        }
    }

    @Test
    void agreesOnRandomlyMutatedLines() {
        Random random = new Random(20261130L);
        List<String> lines = captureLines();
        // the cases where the scanner once disagreed: escaped keys, numbers, names near Jackson's limits
        lines.addAll(List.of("{\"\\u0074ype\":\"result\",\"exitCode\":0,\"d\\u0061ta\":{\"k\\u0065y\":\"v\"}}",
                "{\"type\":\"result\",\"exitCode\":1,\"n\":" + "7".repeat(1000) + "}",
                "{\"type\":\"a\",\"data\":{\"f\":0." + "5".repeat(1000) + ",\"e\":1e-" + "3".repeat(998) + "}}",
                "{\"type\":\"a\",\"data\":{\"" + "k".repeat(50_000) + "\":true}}"));
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
