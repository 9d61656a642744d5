package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The runner's warm-up of the session's end describes a result with every kind of value, as the end does. */
class EngineWarmUpTest {
    @Test
    void describesASampleResultAsTheSessionsEndDoes() {
        JsonNode described = AutopilotEngine.warmUp();

        assertThat(described.path("outcome").asText()).isEqualTo("COMPLETED");
        assertThat(described.path("changedFiles").get(0).path("path").asText()).isEqualTo("a");
        assertThat(described.path("findings").get(0).path("message").asText()).isEqualTo("warm-up");
        assertThat(described.path("output").path("warm").get(1).asBoolean()).isTrue();
        assertThat(described.path("premiumRequests").isNumber()).isTrue();
    }
}
