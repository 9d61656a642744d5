package io.jenkins.plugins.copilotautopilot.core.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a session adds to the span of the step that ran it, where the opentelemetry plugin traces the build: its outcome
 * and numbers, under {@code copilot.autopilot.*}, the tokens and model under the GenAI conventions' names (as the CLI's
 * own spans carry them). Values are Strings, Longs and Doubles; what the CLI did not record is left out.
 */
public final class StepSpanAttributes {
    public static final String OUTCOME = "copilot.autopilot.outcome";
    public static final String TURNS = "copilot.autopilot.turns";
    public static final String TOOL_CALLS = "copilot.autopilot.tool_calls";
    public static final String DENIED_TOOL_CALLS = "copilot.autopilot.denied_tool_calls";
    public static final String PREMIUM_REQUESTS = "copilot.autopilot.premium_requests";
    public static final String AI_CREDITS = "copilot.autopilot.ai_credits";
    public static final String TOKENS = "copilot.autopilot.tokens";
    public static final String INPUT_TOKENS = "gen_ai.usage.input_tokens";
    public static final String OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
    public static final String MODEL = "gen_ai.request.model";
    public static final String SESSION_ID = "gen_ai.conversation.id";

    private StepSpanAttributes() {
    }

    /** The attributes of {@code result}, in a fixed order. */
    public static Map<String, Object> of(SessionResult result) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put(OUTCOME, result.outcome().name());
        attributes.put(TURNS, (long) result.activity().turns());
        attributes.put(TOOL_CALLS, (long) result.activity().toolCalls());
        attributes.put(DENIED_TOOL_CALLS, (long) result.activity().deniedToolCalls());
        if (result.usage().premiumRequests() != null) {
            attributes.put(PREMIUM_REQUESTS, result.usage().premiumRequests());
        }
        if (result.usage().aiCredits() != null) {
            attributes.put(AI_CREDITS, result.usage().aiCredits());
        }
        if (result.usage().inputTokens() != null || result.usage().outputTokens() != null) {
            long input = result.usage().inputTokens() == null ? 0 : result.usage().inputTokens();
            long output = result.usage().outputTokens() == null ? 0 : result.usage().outputTokens();
            attributes.put(TOKENS, input + output);
            attributes.put(INPUT_TOKENS, input);
            attributes.put(OUTPUT_TOKENS, output);
        }
        if (result.ending().model() != null) {
            attributes.put(MODEL, result.ending().model());
        }
        if (result.ending().sessionId() != null) {
            attributes.put(SESSION_ID, result.ending().sessionId());
        }
        return attributes;
    }
}
