package io.jenkins.plugins.copilotautopilot.core.parts;

import io.jenkins.plugins.copilotautopilot.core.session.UsageTotals;

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
     * @param usage what the session's model calls used so far (tokens, premium requests, AI credits where reported)
     * @param model the model the CLI named for the session so far (as its result will), or null when it named none
     */
    String reached(UsageTotals usage, String model);

    /**
     * A warning for the log, asked once when a model call reported no AI credits: which limit cannot count the
     * session whole then (an AI-credit quota, say), or null when none is affected.
     */
    default String uncounted(UsageTotals usage) {
        return null;
    }
}
