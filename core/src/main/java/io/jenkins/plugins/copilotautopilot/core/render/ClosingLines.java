package io.jenkins.plugins.copilotautopilot.core.render;

import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.outcome.SessionOutcome;
import io.jenkins.plugins.copilotautopilot.core.session.AiCredits;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.UsageTotals;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;
import java.util.Collection;

/** The log's closing block: the outcome and why, what failed, the summary, the numbers, what changed, the session. */
final class ClosingLines {
    private static final String RULE = "-".repeat(72);
    private static final int CHANGED_FILES_SHOWN = 8;

    private final LogLines lines;
    /** Whether the work tree was to be recorded; null when the plan is not known. */
    private final Boolean recordChanges;
    private final int deniedFetches;
    private final Collection<String> deniedUrls;
    private final boolean moreDeniedUrls;

    /**
     * @param deniedFetches  tool calls denied for a URL
     * @param deniedUrls     the URLs they named, as many as are listed
     * @param moreDeniedUrls whether more were denied than are listed
     */
    ClosingLines(LogLines lines, Boolean recordChanges, int deniedFetches, Collection<String> deniedUrls, boolean moreDeniedUrls) {
        this.lines = lines;
        this.recordChanges = recordChanges;
        this.deniedFetches = deniedFetches;
        this.deniedUrls = deniedUrls;
        this.moreDeniedUrls = moreDeniedUrls;
    }

    /**
     * The closing block, with the exit code of the CLI's process (null when it never came), and what failed and what to
     * do when the service refused the session (null otherwise).
     */
    void write(SessionOutcome outcome, SessionState state, Duration duration, UsageTotals usage,
               WorkTreeChanges changes, Integer exitCode, ServiceFailure failure) {
        lines.line(RULE);
        lines.block("", outcome.outcome() + ": " + outcome.reason());
        if (failure != null) {
            lines.line("Failure: " + failure.describe());
        }
        if (outcome.outcome() == Outcome.BLOCKED && state.taskBlocker() != null && lines.agentText()) {
            lines.block("Blocked by: ", Texts.truncate(state.taskBlocker().strip(), LogLines.MAX_MESSAGE));
        }
        if (!Texts.isBlank(state.taskSummary()) && lines.agentText()) {
            lines.block("Summary: ", Texts.truncate(state.taskSummary().strip(), LogLines.MAX_MESSAGE));
        }
        ResultInfo result = state.result();
        Double premium = usage.sessionPremiumRequests(result);
        StringBuilder numbers = new StringBuilder()
                .append(LogLines.count(state.turns(), "turn")).append(" | ")
                .append(LogLines.count(state.toolCalls(), "tool call"))
                .append(" (").append(state.failedToolCalls()).append(" failed, ")
                .append(state.interruptedToolCalls() > 0 ? state.interruptedToolCalls() + " interrupted, " : "")
                .append(state.deniedToolCalls()).append(" denied)")
                .append(" | ").append(LogLines.count(state.nudges(), "continuation"))
                .append(" | premium requests: ").append(premium == null ? "unknown" : Texts.number(premium))
                .append(usage.calls() > 0 ? " | AI credits: " + credits(usage) : "")
                .append(" | ").append(Durations.describe(duration));
        lines.line(numbers.toString());
        if (deniedFetches > 0) {
            lines.line("Network: " + LogLines.count(deniedFetches, "tool call") + " denied for a URL: " + String.join(" ", deniedUrls)
                    + (moreDeniedUrls ? " and more" : ""));
        }
        if (usage.calls() > 0) {
            lines.line("Tokens: " + LogLines.thousands(usage.inputTokens()) + " in (" + LogLines.thousands(usage.cacheReadTokens()) + " from the cache), "
                    + LogLines.thousands(usage.outputTokens()) + " out, in " + LogLines.count(usage.calls(), "model call"));
        } else if (state.inputTokens() != null || state.outputTokens() != null) {
            lines.line("Tokens: " + nullToZero(state.inputTokens()) + " in, " + nullToZero(state.outputTokens()) + " out");
        }
        if (changes != null) {
            lines.line(changed(changes));
        } else if (result != null) {
            // without a snapshot of the work tree only the CLI's own count is known, and it misses what shell commands changed
            lines.line("Code changes by the CLI's edit tools: +" + result.linesAdded() + " -" + result.linesRemoved() + " in "
                    + LogLines.count(result.filesModified(), "file") + "; " + whyNoSnapshot() + ", so shell commands' changes are not counted");
        }
        if (result != null) {
            boolean differs = result.exitCode() != null && !result.exitCode().equals(exitCode);
            lines.line("Session " + result.sessionId() + " | CLI exit code " + (exitCode == null ? "unknown" : exitCode)
                    + (differs ? " (it reported " + result.exitCode() + ")" : ""));
        }
    }

    /** The session's AI credits as the closing line says them: never an unknown amount as 0. */
    static String credits(UsageTotals usage) {
        return switch (usage.aiCreditsStatus()) {
            case AiCredits.COMPLETE -> AiCredits.format(usage.aiCredits());
            case AiCredits.PARTIAL -> "at least " + AiCredits.format(usage.aiCredits()) + " (" + (usage.calls() - usage.creditedCalls())
                    + " of " + LogLines.count(usage.calls(), "model call") + " reported none)";
            default -> "not reported";
        };
    }

    private String whyNoSnapshot() {
        if (recordChanges == null) {
            return "no snapshot of a git work tree";
        }
        return recordChanges ? "not a git work tree" : "changes are not recorded (recordChanges is off)";
    }

    /** {@code Changed: 3 files (+12 -4): a.txt, src/b.txt (added), old.txt (deleted)}. */
    private static String changed(WorkTreeChanges changes) {
        if (changes.fileCount() == 0) {
            return "Changed: no files in the git work tree";
        }
        StringBuilder out = new StringBuilder("Changed: ").append(LogLines.count(changes.fileCount(), "file"))
                .append(" (+").append(changes.linesAdded()).append(" -").append(changes.linesRemoved()).append("): ");
        int shown = 0;
        for (var file : changes.files()) {
            if (shown == CHANGED_FILES_SHOWN) {
                break;
            }
            out.append(shown++ == 0 ? "" : ", ").append(file.path())
                    .append("modified".equals(file.status()) ? "" : " (" + file.status() + ")");
        }
        if (changes.fileCount() > shown) {
            out.append(" and ").append(changes.fileCount() - shown).append(" more");
        }
        return out.toString();
    }

    private static long nullToZero(Long value) {
        return value == null ? 0 : value;
    }
}
