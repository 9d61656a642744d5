package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.output.Finding;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a finished run reports: the outcome and its reason, the agent's summary, and the numbers. All
 * text is already masked.
 *
 * @param outcome         how it ended
 * @param reason          one line saying why
 * @param summary         the agent's {@code task_complete} summary, or null
 * @param turns           turns taken
 * @param toolCalls       tool calls made
 * @param failedToolCalls tool calls that failed
 * @param deniedToolCalls tool calls refused by the permission policy
 * @param nudges          autopilot continuations
 * @param premiumRequests premium requests used, or null when the CLI did not say
 * @param durationMillis  wall-clock time of the run
 * @param sessionId       the CLI's session id, or null
 * @param exitCode        the CLI's exit code, or null when it never exited by itself
 * @param model           the model used, when known
 * @param linesAdded      lines added by the agent's edits (0 when unknown)
 * @param linesRemoved    lines removed by the agent's edits (0 when unknown)
 * @param filesModified   files modified by the agent's edits (0 when unknown)
 * @param inputTokens     input tokens of the model calls, or null when the CLI recorded no usage
 * @param outputTokens    output tokens, or null
 * @param cacheReadTokens input tokens read from the provider's cache, or null
 * @param changedFiles    the files the agent changed in the git work tree (empty when none, or not a work tree)
 * @param patch           what it changed there as a unified diff (masked, cut after 1 MiB), or null; not in {@link #toMap()}
 * @param warnings        what the log warned of that the result should carry too (a budget that could not be
 *                        enforced, say), one line each
 * @param blocker         what the agent said blocks it, when it ended {@link Outcome#BLOCKED}, or null
 * @param patchCut        whether {@code patch} was cut (it is then no whole patch)
 * @param deniedFetches   denied tool calls the policy refused for a URL (counted in {@code deniedToolCalls} too)
 * @param deniedUrls      the distinct URLs refused, at most 20
 * @param verified        whether the acceptance check passed last, or null when there is none
 * @param verifyRounds    how often it ran
 * @param verifyExitCode  its last exit code, or null
 * @param output          the agent's answer ({@code outputSchema}, {@code reviewFindings}) as JSON text (masked), when it
 *                        followed the schema; else null
 * @param outputRounds    how many answers were checked against the schema
 * @param findings        the review findings of that answer, their paths as the agent wrote them (see
 *                        {@link io.jenkins.plugins.copilotautopilot.core.output.ReviewFindings#inWorkspace})
 * @param aiCredits       the AI credits GitHub billed for the model calls (a subtotal when {@code aiCreditsStatus} is
 *                        partial), or null when no call reported any: unknown, not zero
 * @param aiCreditsStatus {@code complete}, {@code partial} or {@code unavailable} as the calls reported them, or null
 *                        when no call was recorded
 * @param failure         why the service refused the session, when it ended FAILED for that; else null
 * @param policyDeniedToolCalls denied tool calls after the organisation's policy overrode the tool permissions
 *                        (counted in {@code deniedToolCalls} too)
 */
public record SessionResult(Outcome outcome, String reason, String summary, int turns, int toolCalls,
                            int failedToolCalls, int deniedToolCalls, int nudges, Double premiumRequests,
                            long durationMillis, String sessionId, Integer exitCode, String model,
                            long linesAdded, long linesRemoved, int filesModified, Long inputTokens,
                            Long outputTokens, Long cacheReadTokens, List<ChangedFile> changedFiles, String patch,
                            List<String> warnings, String blocker, boolean patchCut, int deniedFetches,
                            List<String> deniedUrls, Boolean verified, int verifyRounds, Integer verifyExitCode,
                            String output, int outputRounds, List<Finding> findings, Double aiCredits,
                            String aiCreditsStatus, ServiceFailure failure, int policyDeniedToolCalls) {

    public SessionResult {
        findings = findings == null ? List.of() : List.copyOf(findings);
        changedFiles = changedFiles == null ? List.of() : List.copyOf(changedFiles);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        deniedUrls = deniedUrls == null ? List.of() : List.copyOf(deniedUrls);
    }

    /** A result without AI credits, a service failure or a policy's denials. */
    public SessionResult(Outcome outcome, String reason, String summary, int turns, int toolCalls,
                         int failedToolCalls, int deniedToolCalls, int nudges, Double premiumRequests,
                         long durationMillis, String sessionId, Integer exitCode, String model,
                         long linesAdded, long linesRemoved, int filesModified, Long inputTokens,
                         Long outputTokens, Long cacheReadTokens, List<ChangedFile> changedFiles, String patch,
                         List<String> warnings, String blocker, boolean patchCut, int deniedFetches,
                         List<String> deniedUrls, Boolean verified, int verifyRounds, Integer verifyExitCode,
                         String output, int outputRounds, List<Finding> findings) {
        this(outcome, reason, summary, turns, toolCalls, failedToolCalls, deniedToolCalls, nudges, premiumRequests,
                durationMillis, sessionId, exitCode, model, linesAdded, linesRemoved, filesModified, inputTokens,
                outputTokens, cacheReadTokens, changedFiles, patch, warnings, blocker, patchCut, deniedFetches, deniedUrls,
                verified, verifyRounds, verifyExitCode, output, outputRounds, findings, null, null, null, 0);
    }

    /** A result without an answer. */
    public SessionResult(Outcome outcome, String reason, String summary, int turns, int toolCalls,
                         int failedToolCalls, int deniedToolCalls, int nudges, Double premiumRequests,
                         long durationMillis, String sessionId, Integer exitCode, String model,
                         long linesAdded, long linesRemoved, int filesModified, Long inputTokens,
                         Long outputTokens, Long cacheReadTokens, List<ChangedFile> changedFiles, String patch,
                         List<String> warnings, String blocker, boolean patchCut, int deniedFetches, List<String> deniedUrls,
                         Boolean verified, int verifyRounds, Integer verifyExitCode) {
        this(outcome, reason, summary, turns, toolCalls, failedToolCalls, deniedToolCalls, nudges, premiumRequests,
                durationMillis, sessionId, exitCode, model, linesAdded, linesRemoved, filesModified, inputTokens,
                outputTokens, cacheReadTokens, changedFiles, patch, warnings, blocker, patchCut, deniedFetches, deniedUrls,
                verified, verifyRounds, verifyExitCode, null, 0, List.of());
    }

    /** A result without an acceptance check. */
    public SessionResult(Outcome outcome, String reason, String summary, int turns, int toolCalls,
                         int failedToolCalls, int deniedToolCalls, int nudges, Double premiumRequests,
                         long durationMillis, String sessionId, Integer exitCode, String model,
                         long linesAdded, long linesRemoved, int filesModified, Long inputTokens,
                         Long outputTokens, Long cacheReadTokens, List<ChangedFile> changedFiles, String patch,
                         List<String> warnings, String blocker, boolean patchCut, int deniedFetches, List<String> deniedUrls) {
        this(outcome, reason, summary, turns, toolCalls, failedToolCalls, deniedToolCalls, nudges, premiumRequests,
                durationMillis, sessionId, exitCode, model, linesAdded, linesRemoved, filesModified, inputTokens,
                outputTokens, cacheReadTokens, changedFiles, patch, warnings, blocker, patchCut, deniedFetches, deniedUrls,
                null, 0, null);
    }

    /** A result without URL denials. */
    public SessionResult(Outcome outcome, String reason, String summary, int turns, int toolCalls,
                         int failedToolCalls, int deniedToolCalls, int nudges, Double premiumRequests,
                         long durationMillis, String sessionId, Integer exitCode, String model,
                         long linesAdded, long linesRemoved, int filesModified, Long inputTokens,
                         Long outputTokens, Long cacheReadTokens, List<ChangedFile> changedFiles, String patch,
                         List<String> warnings, String blocker, boolean patchCut) {
        this(outcome, reason, summary, turns, toolCalls, failedToolCalls, deniedToolCalls, nudges, premiumRequests,
                durationMillis, sessionId, exitCode, model, linesAdded, linesRemoved, filesModified, inputTokens,
                outputTokens, cacheReadTokens, changedFiles, patch, warnings, blocker, patchCut, 0, List.of());
    }

    /** A result whose patch, if any, is whole. */
    public SessionResult(Outcome outcome, String reason, String summary, int turns, int toolCalls,
                         int failedToolCalls, int deniedToolCalls, int nudges, Double premiumRequests,
                         long durationMillis, String sessionId, Integer exitCode, String model,
                         long linesAdded, long linesRemoved, int filesModified, Long inputTokens,
                         Long outputTokens, Long cacheReadTokens, List<ChangedFile> changedFiles, String patch,
                         List<String> warnings, String blocker) {
        this(outcome, reason, summary, turns, toolCalls, failedToolCalls, deniedToolCalls, nudges, premiumRequests,
                durationMillis, sessionId, exitCode, model, linesAdded, linesRemoved, filesModified, inputTokens,
                outputTokens, cacheReadTokens, changedFiles, patch, warnings, blocker, false);
    }

    /** A result without a blocker. */
    public SessionResult(Outcome outcome, String reason, String summary, int turns, int toolCalls,
                         int failedToolCalls, int deniedToolCalls, int nudges, Double premiumRequests,
                         long durationMillis, String sessionId, Integer exitCode, String model,
                         long linesAdded, long linesRemoved, int filesModified, Long inputTokens,
                         Long outputTokens, Long cacheReadTokens, List<ChangedFile> changedFiles, String patch,
                         List<String> warnings) {
        this(outcome, reason, summary, turns, toolCalls, failedToolCalls, deniedToolCalls, nudges, premiumRequests,
                durationMillis, sessionId, exitCode, model, linesAdded, linesRemoved, filesModified, inputTokens,
                outputTokens, cacheReadTokens, changedFiles, patch, warnings, null);
    }

    /** A result without usage records or a git work tree. */
    public SessionResult(Outcome outcome, String reason, String summary, int turns, int toolCalls,
                         int failedToolCalls, int deniedToolCalls, int nudges, Double premiumRequests,
                         long durationMillis, String sessionId, Integer exitCode, String model,
                         long linesAdded, long linesRemoved, int filesModified) {
        this(outcome, reason, summary, turns, toolCalls, failedToolCalls, deniedToolCalls, nudges, premiumRequests,
                durationMillis, sessionId, exitCode, model, linesAdded, linesRemoved, filesModified, null, null, null, List.of(),
                null, List.of());
    }

    /** This result with other findings (the same held to the workspace, say). */
    public SessionResult withFindings(List<Finding> heldFindings) {
        return new SessionResult(outcome, reason, summary, turns, toolCalls, failedToolCalls, deniedToolCalls, nudges, premiumRequests,
                durationMillis, sessionId, exitCode, model, linesAdded, linesRemoved, filesModified, inputTokens, outputTokens,
                cacheReadTokens, changedFiles, patch, warnings, blocker, patchCut, deniedFetches, deniedUrls, verified, verifyRounds,
                verifyExitCode, output, outputRounds, heldFindings, aiCredits, aiCreditsStatus, failure, policyDeniedToolCalls);
    }

    public boolean completed() {
        return outcome == Outcome.COMPLETED;
    }

    /**
     * The result as a map of plain JDK values (String, Boolean, Integer, Long, Double, lists and maps of them, or
     * null), e.g. for a Jenkins Pipeline step's return value.
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("completed", completed());
        map.put("outcome", outcome.name());
        map.put("failure", failure == null ? null : failure.toMap());
        map.put("summary", summary);
        map.put("blocker", blocker);
        map.put("reason", reason);
        map.put("turns", turns);
        map.put("toolCalls", toolCalls);
        map.put("failedToolCalls", failedToolCalls);
        map.put("deniedToolCalls", deniedToolCalls);
        map.put("policyDeniedToolCalls", policyDeniedToolCalls);
        map.put("verified", verified);
        map.put("verifyRounds", verifyRounds);
        map.put("verifyExitCode", verifyExitCode);
        map.put("deniedFetches", deniedFetches);
        map.put("deniedUrls", new ArrayList<>(deniedUrls));
        map.put("nudges", nudges);
        map.put("premiumRequests", premiumRequests);
        map.put("aiCredits", aiCredits);
        map.put("aiCreditsStatus", aiCreditsStatus);
        map.put("durationMillis", durationMillis);
        map.put("sessionId", sessionId);
        map.put("exitCode", exitCode);
        map.put("model", model);
        map.put("linesAdded", linesAdded);
        map.put("linesRemoved", linesRemoved);
        map.put("filesModified", filesModified);
        map.put("inputTokens", inputTokens);
        map.put("outputTokens", outputTokens);
        map.put("cacheReadTokens", cacheReadTokens);
        List<Map<String, Object>> files = new ArrayList<>();
        changedFiles.forEach(f -> files.add(f.toMap()));
        map.put("changedFiles", files);
        map.put("warnings", new ArrayList<>(warnings));
        map.put("output", plain(output));
        map.put("outputRounds", outputRounds);
        List<Map<String, Object>> found = new ArrayList<>();
        findings.forEach(f -> found.add(f.toMap()));
        map.put("findings", found);
        return map;
    }

    /** JSON text as plain JDK values (maps, lists, strings, numbers, booleans, null); null for none. */
    private static Object plain(String json) {
        if (json == null) {
            return null;
        }
        try {
            return io.jenkins.plugins.copilotautopilot.core.events.EventParser.mapper().readValue(json, Object.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null; // an answer is only kept once it parsed
        }
    }
}
