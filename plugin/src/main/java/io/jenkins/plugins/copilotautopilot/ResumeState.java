package io.jenkins.plugins.copilotautopilot;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;

/**
 * What a session leaves in the Pipeline's saved state, so that a restarted controller can follow it again: where it
 * runs, when it started, its limits, and where its secrets come from (never the secrets). Saved once before the CLI
 * is started (without a location: a restart then removes the launch folder, which stops a CLI that had started) and
 * once it runs.
 */
final class ResumeState implements Serializable {
    private static final long serialVersionUID = 2L;

    final String invocationId;
    /** The agent and the launch folder: known before the CLI starts. */
    final String launchNode;
    final String launchFolder;
    /** Where the session runs, once it was started; null before. */
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
    /** FAILURE, UNSTABLE or SUCCESS; null (from an older version): as for INCOMPLETE. */
    final String resultWhenBlocked;
    /** The file to write the agent's changes into, as the step names it, or null. */
    final String changesFile;
    /** That file on the launch node. */
    final String changesPath;
    /** The name of the check the session is published as, or null for none. */
    final String checksName;
    /** The limit on one tool call in milliseconds, or null for none. */
    final Long toolTimeoutMillis;
    /** The limit on the CLI's first output in milliseconds, or null for none. */
    final Long startupTimeoutMillis;
    /** The name the session is kept under at its end, or null. */
    final String session;
    /** The MCP configuration's references ({@code credentials:ID}, {@code env:NAME}): their values are masked; null in older states. */
    final ArrayList<String> mcpReferences;
    /** The acceptance check's command, or null (null too in the state of an older version). */
    final String verify;
    /** How often it runs at most. */
    final int maxVerifyRounds;
    /** False: the step returns its result for every outcome but ABORTED instead of failing. */
    final boolean propagate;
    /** The budget: the most premium requests, or null. */
    final Double maxPremiumRequests;
    /** The budget: the most tokens, or null. */
    final Long maxTokens;
    /** Whether what the agent writes is printed in the console (else only the session page shows it, to some). */
    final boolean agentTextInConsole;

    ResumeState(String invocationId, String launchNode, String launchFolder, AgentSession.Location location,
                long startedAtMillis, Long timeoutMillis,
                Long inactivityMillis, String tokenCredentialsId, String providerCredentialsId,
                Collection<String> secretVariables, String resultWhenIncomplete, boolean propagate,
                Double maxPremiumRequests, Long maxTokens, boolean agentTextInConsole, String resultWhenBlocked,
                String changesFile, String changesPath, String checksName, Long toolTimeoutMillis, Long startupTimeoutMillis,
                String verify, int maxVerifyRounds, Collection<String> mcpReferences, String session) {
        this.invocationId = invocationId;
        this.launchNode = launchNode;
        this.launchFolder = launchFolder;
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
        this.agentTextInConsole = agentTextInConsole;
        this.resultWhenBlocked = resultWhenBlocked;
        this.changesFile = changesFile;
        this.changesPath = changesPath;
        this.checksName = checksName;
        this.toolTimeoutMillis = toolTimeoutMillis;
        this.startupTimeoutMillis = startupTimeoutMillis;
        this.verify = verify;
        this.maxVerifyRounds = maxVerifyRounds;
        this.mcpReferences = new ArrayList<>(mcpReferences);
        this.session = session;
    }

    /** The same, once the session runs at {@code where}. */
    ResumeState started(AgentSession.Location where) {
        return new ResumeState(invocationId, launchNode, launchFolder, where, startedAtMillis, timeoutMillis, inactivityMillis,
                tokenCredentialsId, providerCredentialsId, secretVariables, resultWhenIncomplete, propagate, maxPremiumRequests,
                maxTokens, agentTextInConsole, resultWhenBlocked, changesFile, changesPath, checksName, toolTimeoutMillis,
                startupTimeoutMillis, verify, maxVerifyRounds, mcpReferences == null ? java.util.List.of() : mcpReferences, session);
    }
}
