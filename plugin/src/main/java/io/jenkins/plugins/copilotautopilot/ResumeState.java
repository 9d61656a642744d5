package io.jenkins.plugins.copilotautopilot;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;

/**
 * What a running session leaves in the Pipeline's saved state, so that a restarted controller can follow it
 * again: where it runs, when it started, its limits, and where its secrets come from (never the secrets).
 */
final class ResumeState implements Serializable {
    private static final long serialVersionUID = 1L;

    final String invocationId;
    final AgentSession.Location location;
    final long startedAtMillis;
    /** The wall-clock limit in milliseconds, or null for none. */
    final Long timeoutMillis;
    /** The inactivity limit in milliseconds, or null for none. */
    final Long inactivityMillis;
    /** The credential that held the GitHub token, or null. */
    final String tokenCredentialsId;
    /** The provider's API key credential, or null. */
    final String providerCredentialsId;
    /** Variables whose values are secrets (the token's variable among them). */
    final ArrayList<String> secretVariables;
    /** FAILURE, UNSTABLE or SUCCESS. */
    final String resultWhenIncomplete;
    /** False: the step returns its result for every outcome but ABORTED instead of failing. */
    final boolean propagate;
    /** The budget: the most premium requests, or null. */
    final Double maxPremiumRequests;
    /** The budget: the most tokens, or null. */
    final Long maxTokens;

    ResumeState(String invocationId, AgentSession.Location location, long startedAtMillis, Long timeoutMillis,
                Long inactivityMillis, String tokenCredentialsId, String providerCredentialsId,
                Collection<String> secretVariables, String resultWhenIncomplete, boolean propagate,
                Double maxPremiumRequests, Long maxTokens) {
        this.invocationId = invocationId;
        this.location = location;
        this.startedAtMillis = startedAtMillis;
        this.timeoutMillis = timeoutMillis;
        this.inactivityMillis = inactivityMillis;
        this.tokenCredentialsId = tokenCredentialsId;
        this.providerCredentialsId = providerCredentialsId;
        this.secretVariables = new ArrayList<>(secretVariables);
        this.resultWhenIncomplete = resultWhenIncomplete;
        this.propagate = propagate;
        this.maxPremiumRequests = maxPremiumRequests;
        this.maxTokens = maxTokens;
    }
}
