package io.jenkins.plugins.copilotautopilot.core.session;

/**
 * GitHub's billing unit for Copilot since June 2026: one AI credit is US$0.01; the CLI counts them in nano AI units
 * (10^9 to a credit). Whether an amount is known goes by the CLI's own words for it.
 */
public final class AiCredits {
    /** Every call supplied an amount (an explicit zero included). */
    public static final String COMPLETE = "complete";
    /** Some calls supplied an amount and some did not: the sum is a subtotal. */
    public static final String PARTIAL = "partial";
    /** No call supplied one (an own provider, or a service that sends none): not a zero cost. */
    public static final String UNAVAILABLE = "unavailable";

    private static final double NANO_AIU_PER_CREDIT = 1e9;

    private AiCredits() {
    }

    public static double of(long nanoAiu) {
        return nanoAiu / NANO_AIU_PER_CREDIT;
    }

    /** The status of {@code calls} model calls of which {@code credited} reported an amount; null for no calls. */
    public static String status(int calls, int credited) {
        if (calls <= 0) {
            return null;
        }
        return credited >= calls ? COMPLETE : credited == 0 ? UNAVAILABLE : PARTIAL;
    }

    /** An amount as the log and the pages write it: at most two decimals ({@code 2.5}, {@code 1,250}, {@code <0.01}). */
    public static String format(double credits) {
        return io.jenkins.plugins.copilotautopilot.core.text.Texts.credits(credits);
    }
}
