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
 * @param nanoAiu          what GitHub billed for the call in nano AI units (10^9 make one AI credit), or null when the
 *                         service reported no amount ({@code aiCreditsStatus} other than {@code complete}: an own
 *                         provider, or a service that sends none) — unknown, which is not zero
 * @param auto             whether GitHub's routing ({@code --model auto}) chose the call's model; false also when it
 *                         was asked to and failed, and the CLI fell back to its default model
 */
public record UsageRecord(int turn, String model, long inputTokens, long outputTokens, long cacheReadTokens,
                          long cacheWriteTokens, double premiumRequests, long durationMillis, Long nanoAiu, boolean auto) {

    /** A record of a call whose model was not routed. */
    public UsageRecord(int turn, String model, long inputTokens, long outputTokens, long cacheReadTokens,
                       long cacheWriteTokens, double premiumRequests, long durationMillis, Long nanoAiu) {
        this(turn, model, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, premiumRequests, durationMillis, nanoAiu, false);
    }

    /** A record without AI credits (an own provider). */
    public UsageRecord(int turn, String model, long inputTokens, long outputTokens, long cacheReadTokens,
                       long cacheWriteTokens, double premiumRequests, long durationMillis) {
        this(turn, model, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, premiumRequests, durationMillis, null);
    }

    /** The record in a usage event; {@code turn} as the tracker attributes it. */
    static UsageRecord of(CliEvent event, int turn) {
        JsonNode usage = event.data().path("usage");
        return new UsageRecord(turn, usage.path("model").isTextual() ? usage.path("model").asText() : null,
                usage.path("inputTokens").asLong(0), usage.path("outputTokens").asLong(0),
                usage.path("cacheReadTokens").asLong(0), usage.path("cacheWriteTokens").asLong(0),
                premiumRequests(usage), usage.path("duration").canConvertToLong() ? usage.path("duration").asLong() : -1,
                nanoAiu(usage), usage.path("isAuto").asBoolean(false));
    }

    /**
     * The call's cost in premium requests: its model's multiplier ({@code cost}) when the user's turn made the call; a
     * call the agent made on its own (after a tool, a retry: {@code initiator: agent}) costs none, as the CLI's own
     * count in its result line has it.
     */
    private static double premiumRequests(JsonNode usage) {
        return "agent".equals(usage.path("initiator").asText("")) ? 0 : usage.path("cost").asDouble(0);
    }

    /**
     * The call's amount when the CLI says the service supplied one (an explicit 0 included); the CLI writes 0 with
     * {@code aiCreditsStatus: unavailable} when it got none, which must not read as free.
     */
    private static Long nanoAiu(JsonNode usage) {
        JsonNode total = usage.path("copilotUsage").path("totalNanoAiu");
        String status = usage.path("aiCreditsStatus").asText("");
        boolean reported = status.isEmpty() ? total.isNumber() : AiCredits.COMPLETE.equals(status);
        return reported && total.isNumber() ? Long.valueOf(total.asLong()) : null;
    }

    public long tokens() {
        return inputTokens + outputTokens;
    }

    /** The call's AI credits, or null when unknown. */
    public Double aiCredits() {
        return nanoAiu == null ? null : AiCredits.of(nanoAiu);
    }
}
