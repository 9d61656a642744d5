package io.jenkins.plugins.copilotautopilot.core.session;

import java.util.List;

/**
 * The final {@code result} line of the CLI.
 *
 * @param sessionId          the CLI's session id
 * @param exitCode           the exit code the CLI reports for itself
 * @param premiumRequests    premium requests used (may be fractional), or null
 * @param totalApiDurationMs time spent in model calls, or null
 * @param sessionDurationMs  the CLI's own session duration, or null
 * @param linesAdded         lines added by the agent's edits
 * @param linesRemoved       lines removed by the agent's edits
 * @param filesModified      how many files the agent modified
 * @param someModifiedFiles  the first few modified file paths
 */
public record ResultInfo(String sessionId, Integer exitCode, Double premiumRequests, Long totalApiDurationMs,
                         Long sessionDurationMs, long linesAdded, long linesRemoved, int filesModified,
                         List<String> someModifiedFiles) {
}
