package io.jenkins.plugins.copilotautopilot.core.result;

import java.util.Map;

/**
 * What the session's model calls used, as the CLI recorded it; each value null when unknown (no usage records), which
 * is not zero.
 *
 * @param premiumRequests premium requests used, or null when the CLI did not say
 * @param aiCredits       the AI credits GitHub billed (a subtotal when {@code aiCreditsStatus} is partial), or null
 * @param aiCreditsStatus {@code complete}, {@code partial} or {@code unavailable}, or null when no call was recorded
 * @param cacheReadTokens input tokens read from the provider's cache
 */
public record ModelUsage(Double premiumRequests, Double aiCredits, String aiCreditsStatus, Long inputTokens, Long outputTokens,
                         Long cacheReadTokens) {
    public static final ModelUsage NONE = new ModelUsage(null, null, null, null, null, null);

    /** Its entries in the result's map (the Pipeline step's return value, the journal's closing record). */
    public void putInto(Map<String, Object> map) {
        map.put("premiumRequests", premiumRequests);
        map.put("aiCredits", aiCredits);
        map.put("aiCreditsStatus", aiCreditsStatus);
        map.put("inputTokens", inputTokens);
        map.put("outputTokens", outputTokens);
        map.put("cacheReadTokens", cacheReadTokens);
    }
}
