package io.jenkins.plugins.copilotautopilot.core.engine;

/**
 * Decides, as a session's usage grows, whether what it spent with the others' crosses a limit set across runs (the
 * plugin's quotas, counted in {@code quota.UsageLedger}). Called on the follower's thread whenever the session's
 * totals grew; quick, and never blocking on anything remote.
 */
@FunctionalInterface
public interface SpendGuard {
    /**
     * Takes the session's totals so far; returns why it must stop (one line naming the limit, what was spent and when
     * it frees), or null while it may go on.
     *
     * @param model the model the CLI named for the session so far (as its result will), or null when it named none
     */
    String reached(long tokens, double premiumRequests, String model);
}
