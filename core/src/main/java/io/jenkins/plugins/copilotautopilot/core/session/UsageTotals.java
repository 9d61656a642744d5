package io.jenkins.plugins.copilotautopilot.core.session;

/**
 * What the model calls of a session used so far, added up from their {@link UsageRecord}s.
 *
 * @param calls            model calls with a usage record
 * @param inputTokens      input tokens
 * @param outputTokens     output tokens
 * @param cacheReadTokens  input tokens read from the provider's cache
 * @param cacheWriteTokens input tokens written to it
 * @param premiumRequests  premium requests (the calls' cost)
 * @param nanoAiu          the AI credits of the calls that reported them, in nano AI units
 * @param creditedCalls    the calls that reported AI credits
 */
public record UsageTotals(int calls, long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens,
                          double premiumRequests, long nanoAiu, int creditedCalls) {
    public static final UsageTotals NONE = new UsageTotals(0, 0, 0, 0, 0, 0, 0, 0);

    public UsageTotals plus(UsageRecord r) {
        return new UsageTotals(calls + 1, inputTokens + r.inputTokens(), outputTokens + r.outputTokens(),
                cacheReadTokens + r.cacheReadTokens(), cacheWriteTokens + r.cacheWriteTokens(), premiumRequests + r.premiumRequests(),
                nanoAiu + (r.nanoAiu() == null ? 0 : r.nanoAiu()), creditedCalls + (r.nanoAiu() == null ? 0 : 1));
    }

    /**
     * The session's premium requests: the count the CLI reported in its result line, else (no result line, e.g. the
     * CLI was stopped) the sum of the calls' records, else null (unknown).
     */
    public Double sessionPremiumRequests(ResultInfo result) {
        if (result != null && result.premiumRequests() != null) {
            return result.premiumRequests();
        }
        return calls > 0 ? Double.valueOf(premiumRequests) : null;
    }

    /** Input plus output tokens. */
    public long tokens() {
        return inputTokens + outputTokens;
    }

    /** The AI credits the calls reported (a subtotal when {@link #aiCreditsStatus()} is partial), or null when none did. */
    public Double aiCredits() {
        return creditedCalls == 0 ? null : AiCredits.of(nanoAiu);
    }

    /** {@link AiCredits#COMPLETE}, {@link AiCredits#PARTIAL} or {@link AiCredits#UNAVAILABLE}; null before any call. */
    public String aiCreditsStatus() {
        return AiCredits.status(calls, creditedCalls);
    }
}
