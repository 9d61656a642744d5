package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReport;
import io.jenkins.plugins.copilotautopilot.core.report.ToolCallReport;
import io.jenkins.plugins.copilotautopilot.core.report.TurnReport;
import io.jenkins.plugins.copilotautopilot.core.session.ToolStatus;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the session page words what it shows: a running session's limits and time, a turn's heading, a call's status,
 * a file's line counts and diff, the calls' counts. The page reaches it as {@code it.text}.
 */
public final class SessionPageText {
    static final SessionPageText INSTANCE = new SessionPageText();
    static final int MAX_DIFF = 100_000;
    private static final String SEPARATOR = " \u00b7 ";

    private SessionPageText() {
    }

    /** What a running session may still use: its limits and budgets, in words. */
    public String liveLimits(LiveSessions.LiveSession session) {
        SessionPlan plan = session.plan();
        List<String> parts = new ArrayList<>();
        Duration timeout = plan.limit(SessionSettings.TIMEOUT);
        parts.add(timeout == null ? Messages.CopilotAutopilotRunAction_NoWallClock()
                : Messages.CopilotAutopilotRunAction_WallClock(Durations.describe(timeout)));
        Duration inactivity = plan.limit(SessionSettings.INACTIVITY_TIMEOUT);
        if (inactivity != null) {
            parts.add(Messages.CopilotAutopilotRunAction_Inactivity(Durations.describe(inactivity)));
        }
        if (plan.get(SessionSettings.MAX_PREMIUM_REQUESTS) != null) {
            parts.add(Messages.CopilotAutopilotRunAction_PremiumBudget(plan.get(SessionSettings.MAX_PREMIUM_REQUESTS)));
        }
        if (plan.get(SessionSettings.MAX_TOKENS) != null) {
            parts.add(Messages.CopilotAutopilotRunAction_TokenBudget(plan.get(SessionSettings.MAX_TOKENS)));
        }
        if (plan.get(SessionSettings.MAX_AI_CREDITS) != null) {
            parts.add(Messages.CopilotAutopilotRunAction_CreditBudget(
                    io.jenkins.plugins.copilotautopilot.core.session.AiCredits.format(plan.get(SessionSettings.MAX_AI_CREDITS))));
        }
        return String.join(SEPARATOR, parts);
    }

    /** How long a running session has run, in words. */
    public String liveDuration(LiveSessions.LiveSession session) {
        return Durations.describe(Duration.ofMillis(Math.max(0, System.currentTimeMillis() - session.getStartedAtMillis())));
    }

    /** The line that heads a turn on the session page. */
    public String turnHeader(TurnReport turn) {
        StringBuilder out = new StringBuilder(Messages.CopilotAutopilotRunAction_Turn(turn.number()));
        if (turn.durationMillis() >= 0) {
            out.append(SEPARATOR).append(Durations.describe(Duration.ofMillis(turn.durationMillis())));
        }
        out.append(SEPARATOR).append(Messages.CopilotAutopilotRunAction_ToolCalls(turn.agentToolCalls()));
        for (ToolCallReport round : turn.verifyRounds()) {
            out.append(SEPARATOR).append(Messages.CopilotAutopilotRunAction_VerifyRound(round.arguments().substring("round ".length())));
        }
        if (turn.afterNudge()) {
            out.append(SEPARATOR).append(Messages.CopilotAutopilotRunAction_AfterNudge());
        }
        if (!turn.errors().isEmpty()) {
            out.append(SEPARATOR).append(Messages.CopilotAutopilotRunAction_TurnError());
        }
        return out.toString();
    }

    /** A tool call's status in words: {@code succeeded in 1.2s}, {@code denied}... */
    public String callStatus(ToolCallReport call) {
        if (call.awaitingApproval()) {
            return Messages.CopilotAutopilotRunAction_StatusAwaitingApproval();
        }
        String status = statusWord(call.status());
        // a call that waited for approval ran for what is left after the wait
        long ran = call.durationMillis() < 0 || call.approvalWaitMillis() < 0 ? call.durationMillis()
                : Math.max(0, call.durationMillis() - call.approvalWaitMillis());
        String ended = ran < 0 ? status : Messages.CopilotAutopilotRunAction_StatusAfter(status, Durations.describe(Duration.ofMillis(ran)));
        if (call.approval() == null) {
            return ended;
        }
        String verdict = call.approval().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        return call.approvalWaitMillis() < 0 ? Messages.CopilotAutopilotRunAction_StatusDecided(verdict, ended)
                : Messages.CopilotAutopilotRunAction_StatusDecidedAfter(verdict,
                        Durations.describe(Duration.ofMillis(call.approvalWaitMillis())), ended);
    }

    /** An ISO-8601 instant as a person reads it: {@code 2026-12-06 07:31:02 UTC}; other text as it is. */
    public String time(String iso) {
        if (iso == null) {
            return null;
        }
        try {
            return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", java.util.Locale.ROOT)
                    .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.parse(iso));
        } catch (java.time.format.DateTimeParseException e) {
            return iso;
        }
    }

    /** The CSS class of a call in the turn list: its status, or that it waits for a person. */
    public String callClass(ToolCallReport call) {
        return call.awaitingApproval() ? "AWAITING" : String.valueOf(call.status());
    }

    private static String statusWord(ToolStatus status) {
        if (status == null) {
            return Messages.CopilotAutopilotRunAction_StatusRunning();
        }
        return switch (status) {
            case RUNNING -> Messages.CopilotAutopilotRunAction_StatusRunning();
            case SUCCEEDED -> Messages.CopilotAutopilotRunAction_StatusSucceeded();
            case FAILED -> Messages.CopilotAutopilotRunAction_StatusFailed();
            case DENIED -> Messages.CopilotAutopilotRunAction_StatusDenied();
            case INTERRUPTED -> Messages.CopilotAutopilotRunAction_StatusInterrupted();
        };
    }

    /** A changed file's line counts for the page: {@code +12 -3}, or {@code binary}. */
    public String lineCounts(ChangedFileRecord file) {
        return file.getLinesAdded() == null ? Messages.CopilotAutopilotRunAction_Binary()
                : "+" + file.getLinesAdded() + " -" + (file.getLinesRemoved() == null ? 0 : file.getLinesRemoved());
    }

    /** Each changed file's part of the patch (from the journal, masked), cut at {@value #MAX_DIFF} characters. */
    public Map<String, String> diffs(SessionReport report) {
        Map<String, String> diffs = new LinkedHashMap<>();
        if (report.changes() != null) {
            report.changes().patchByFile().forEach((path, diff) -> diffs.put(path, diff.length() <= MAX_DIFF ? diff
                    : diff.substring(0, MAX_DIFF) + "\n" + Messages.CopilotAutopilotRunAction_DiffCut(diff.length() - MAX_DIFF)));
        }
        return diffs;
    }

    /** When a waiting call is denied unless someone decides, as the approvals table writes times. */
    public String approvalDeadline(io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval call) {
        return time(java.time.Instant.ofEpochMilli(call.deadlineMillis()).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    }

    /**
     * A session's tool calls in words: how many, failed, denied, and, when its stop or end cut any short, how many were
     * interrupted (counted from its report: neither failed nor denied).
     */
    public String callsText(int calls, int failed, int denied, SessionReport report) {
        long interrupted = report == null ? 0 : report.turns().stream().flatMap(t -> t.toolCalls().stream())
                .filter(c -> c.status() == ToolStatus.INTERRUPTED).count();
        return interrupted == 0 ? Messages.CopilotAutopilotRunAction_Calls(calls, failed, denied)
                : Messages.CopilotAutopilotRunAction_CallsInterrupted(calls, failed, interrupted, denied);
    }
}
