package io.jenkins.plugins.copilotautopilot.core.session;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;

/**
 * What one model call used, from the {@code session.usage_record} the CLI writes into its session state (not on
 * stdout) when the call ends.
 *
 * @param turn             the turn of the call (1-based), 0 when it could not be told
 * @param model            the model, or null
 * @param inputTokens      input tokens
 * @param outputTokens     output tokens
 * @param cacheReadTokens  input tokens read from the provider's cache
 * @param cacheWriteTokens input tokens written to it
 * @param premiumRequests  the call's cost in premium requests (0 with an own provider)
 * @param durationMillis   how long the call took, or -1
 */
public record UsageRecord(int turn, String model, long inputTokens, long outputTokens, long cacheReadTokens,
                          long cacheWriteTokens, double premiumRequests, long durationMillis) {

    /** The record in a usage event; {@code turn} as the tracker attributes it. */
    static UsageRecord of(CliEvent event, int turn) {
        JsonNode usage = event.data().path("usage");
        return new UsageRecord(turn, usage.path("model").isTextual() ? usage.path("model").asText() : null,
                usage.path("inputTokens").asLong(0), usage.path("outputTokens").asLong(0),
                usage.path("cacheReadTokens").asLong(0), usage.path("cacheWriteTokens").asLong(0),
                usage.path("cost").asDouble(0), usage.path("duration").canConvertToLong() ? usage.path("duration").asLong() : -1);
    }

    public long tokens() {
        return inputTokens + outputTokens;
    }
}
