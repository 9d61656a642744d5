package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.result.Activity;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import io.jenkins.plugins.copilotautopilot.core.result.ModelUsage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a session adds to its step's span: the outcome and numbers, the tokens only when the CLI recorded usage. */
class StepSpanAttributesTest {
    @Test
    void aSessionWithUsageGivesItsOutcomeNumbersTokensAndModel() {
        SessionResult result = new SessionResult(new Ending(Outcome.COMPLETED, "done", "s", null, null, 0, 900, "sess-1", "demo-model"),
                new Activity(3, 5, 1, 2, 0, 0, List.of(), 0), new ModelUsage(1.5, null, null, 3600L, 120L, null), null, null, null,
                List.of());

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
        SessionResult result = new SessionResult(new Ending(Outcome.FAILED, "the CLI was not found", null, null, null, null, 5, null,
                null));

        assertThat(StepSpanAttributes.of(result)).containsOnlyKeys("copilot.autopilot.outcome", "copilot.autopilot.turns",
                "copilot.autopilot.tool_calls", "copilot.autopilot.denied_tool_calls");
    }
}
