package io.jenkins.plugins.copilotautopilot.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class TaskBlockersTest {
    private static String describe(String json) throws Exception {
        JsonNode data = new ObjectMapper().readTree("{\"blocker\":" + json + "}");
        return TaskBlockers.describe(data.get("blocker"));
    }

    @Test
    void aBlockerIsItsKindAndItsWords() throws Exception {
        assertThat(describe("{\"kind\":\"needs_decision\",\"description\":\"Pick a license.\",\"details\":\"MIT or Apache?\"}"))
                .isEqualTo("needs_decision: Pick a license. MIT or Apache?");
        assertThat(describe("{\"message\":\"No network.\"}")).isEqualTo("No network.");
        assertThat(describe("\"  The token expired.  \"")).isEqualTo("The token expired.");
    }

    @Test
    void aBlockerOfAnUnknownShapeIsKeptAsItCame() throws Exception {
        assertThat(describe("{\"kind\":\"x\",\"needs\":[\"a\",\"b\"]}")).isEqualTo("{\"kind\":\"x\",\"needs\":[\"a\",\"b\"]}");
        assertThat(describe("[1,2]")).isEqualTo("[1,2]");
    }

    @Test
    void noBlockerIsNull() throws Exception {
        assertThat(describe("null")).isNull();
        assertThat(describe("\"  \"")).isNull();
        assertThat(TaskBlockers.describe(null)).isNull();
    }

    @Test
    void aLongBlockerIsCut() throws Exception {
        assertThat(describe("\"" + "x".repeat(5_000) + "\"")).hasSizeLessThan(2_100);
    }
}
