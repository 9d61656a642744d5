package io.jenkins.plugins.copilotautopilot.core.quota;

/**
 * Tokens (in and out), premium requests and AI credits, as the CLI's usage records count them.
 *
 * @param aiCredits      the AI credits of the calls that reported them
 * @param creditsMissing whether some call reported no AI credits (an own provider, a service that sends none): then
 *                       {@code aiCredits} is not what the session cost, and an AI-credit quota cannot count it whole
 */
public record Spend(long tokens, double premiumRequests, double aiCredits, boolean creditsMissing) {
    public static final Spend NONE = new Spend(0, 0, 0, false);

    /** A spend whose AI credits are unknown (recorded before they were, or by a provider that reports none). */
    public Spend(long tokens, double premiumRequests) {
        this(tokens, premiumRequests, 0, true);
    }

    public Spend plus(Spend other) {
        return new Spend(tokens + other.tokens, premiumRequests + other.premiumRequests, aiCredits + other.aiCredits,
                creditsMissing || other.creditsMissing);
    }

    /** What grew since {@code other}; whether credits were missing is this one's. */
    public Spend minus(Spend other) {
        return new Spend(tokens - other.tokens, premiumRequests - other.premiumRequests, aiCredits - other.aiCredits, creditsMissing);
    }

    public double of(Quota.Metric metric) {
        return switch (metric) {
            case TOKENS -> tokens;
            case PREMIUM_REQUESTS -> premiumRequests;
            case AI_CREDITS -> aiCredits;
        };
    }

    /** Whether some of it grew. */
    boolean grew() {
        return tokens > 0 || premiumRequests > 0 || aiCredits > 0;
    }
}
