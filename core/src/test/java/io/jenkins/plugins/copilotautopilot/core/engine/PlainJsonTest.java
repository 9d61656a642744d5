package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import io.jenkins.plugins.copilotautopilot.core.result.Activity;
import io.jenkins.plugins.copilotautopilot.core.result.Answer;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import io.jenkins.plugins.copilotautopilot.core.result.ModelUsage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tree built directly is the one Jackson's valueToTree makes: same nodes, same text in the journal. */
class PlainJsonTest {
    @Test
    void aResultsMapBecomesTheTreeJacksonWouldMake() {
        assertSameAsJackson(sampleResult().toMap());
    }

    @Test
    void everyKindOfPlainValueNestedOrNot() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("text", "caf\u00e9 \"quoted\"\n");
        values.put("none", null);
        values.put("yes", true);
        values.put("int", Integer.MIN_VALUE);
        values.put("long", Long.MAX_VALUE);
        values.put("double", 0.1);
        values.put("list", Arrays.asList(1, "two", null, List.of(3.5), Map.of("k", false)));
        values.put("map", Map.of("inner", List.of()));
        values.put("big", BigInteger.TEN.pow(30)); // not a result's kind: as Jackson writes it

        assertSameAsJackson(values);
    }

    private static void assertSameAsJackson(Map<String, Object> values) {
        JsonNode direct = PlainJson.object(values);
        JsonNode jackson = EventParser.mapper().valueToTree(values);

        assertThat(direct).isEqualTo(jackson);
        assertThat(direct.toString()).isEqualTo(jackson.toString());
    }

    private static SessionResult sampleResult() {
        return new SessionResult(
                new Ending(io.jenkins.plugins.copilotautopilot.core.outcome.Outcome.BLOCKED, "why", null, "blocked by x", null, null, 42,
                        null, "gpt"),
                new Activity(2, 3, 1, 0, 0, 1, List.of("https://example.invalid/"), 1), new ModelUsage(null, null, null, null, 7L, null),
                null, null, new Answer("{\"a\":[1,2.5,\"x\",{\"b\":null}],\"n\":12345678901}", 2, List.of()), List.of("w"));
    }
}
