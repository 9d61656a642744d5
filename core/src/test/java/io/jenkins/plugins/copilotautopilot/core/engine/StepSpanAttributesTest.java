package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a session adds to its step's span: the outcome and numbers, the tokens only when the CLI recorded usage. */
class StepSpanAttributesTest {
    @Test
    void aSessionWithUsageGivesItsOutcomeNumbersTokensAndModel() {
        SessionResult result = new SessionResult(Outcome.COMPLETED, "done", "s", 3, 5, 1, 2, 0, 1.5, 900, "sess-1", 0, "demo-model",
                0, 0, 0, 3600L, 120L, null, List.of(), null, List.of());

        assertThat(StepSpanAttributes.of(result)).containsExactly(
                java.util.Map.entry("copilot.autopilot.outcome", "COMPLETED"),
                java.util.Map.entry("copilot.autopilot.turns", 3L),
                java.util.Map.entry("copilot.autopilot.tool_calls", 5L),
                java.util.Map.entry("copilot.autopilot.denied_tool_calls", 2L),
                java.util.Map.entry("copilot.autopilot.premium_requests", 1.5),
                java.util.Map.entry("copilot.autopilot.tokens", 3720L),
                java.util.Map.entry("gen_ai.usage.input_tokens", 3600L),
                java.util.Map.entry("gen_ai.usage.output_tokens", 120L),
                java.util.Map.entry("gen_ai.request.model", "demo-model"),
                java.util.Map.entry("gen_ai.conversation.id", "sess-1"));
    }

    @Test
    void whatTheCliDidNotRecordIsLeftOut() {
        SessionResult result = new SessionResult(Outcome.FAILED, "the CLI was not found", null, 0, 0, 0, 0, 0, null, 5, null, null, null,
                0, 0, 0);

        assertThat(StepSpanAttributes.of(result)).containsOnlyKeys("copilot.autopilot.outcome", "copilot.autopilot.turns",
                "copilot.autopilot.tool_calls", "copilot.autopilot.denied_tool_calls");
    }
}
