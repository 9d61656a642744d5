package io.jenkins.plugins.copilotautopilot.core.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
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
    /** The modified files named at most. */
    static final int MAX_MODIFIED_FILES = 20;

    /** What the CLI's {@code result} line says. */
    static ResultInfo of(JsonNode root) {
        JsonNode usage = root.path("usage");
        JsonNode changes = usage.path("codeChanges");
        JsonNode files = changes.path("filesModified");
        List<String> someFiles = new ArrayList<>();
        int fileCount = 0;
        if (files.isArray()) {
            fileCount = files.size();
            for (JsonNode file : files) {
                if (someFiles.size() < MAX_MODIFIED_FILES) {
                    someFiles.add(file.asText());
                }
            }
        }
        return new ResultInfo(ToolCalls.text(root, "sessionId"),
                root.path("exitCode").canConvertToInt() ? root.path("exitCode").asInt() : null,
                usage.path("premiumRequests").isNumber() ? usage.path("premiumRequests").asDouble() : null,
                usage.path("totalApiDurationMs").canConvertToLong() ? usage.path("totalApiDurationMs").asLong() : null,
                usage.path("sessionDurationMs").canConvertToLong() ? usage.path("sessionDurationMs").asLong() : null,
                changes.path("linesAdded").asLong(0), changes.path("linesRemoved").asLong(0), fileCount,
                List.copyOf(someFiles));
    }
}
