package io.jenkins.plugins.copilotautopilot.core.outcome;

import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure.Kind;
import io.jenkins.plugins.copilotautopilot.core.session.SessionError;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Classifies a failed session into a {@link ServiceFailure}: from the {@code session.error}'s {@code errorType},
 * {@code statusCode} and {@code errorCode} (never its message, which the service words as it likes), or, when the CLI
 * gave up before any session (no event, no {@code result} line, exit code 1), from the one stderr line CLI 1.0.102
 * writes for each such refusal.
 */
public final class ServiceFailures {
    private ServiceFailures() {
    }

    /**
     * The failure of a session that ended FAILED by itself; null for any other outcome, and for a failure that is not
     * the service's (a crash, a kill, output without a result line).
     *
     * @param startFailure the first stderr line that {@link #isStartFailure} took, or null
     * @param tokenSource  where the GitHub token came from as the user knows it ({@code credential 'copilot-token'}), or
     *                     null when not known
     */
    public static ServiceFailure of(Outcome outcome, SessionState state, Integer exitCode, String startFailure, String tokenSource) {
        if (outcome != Outcome.FAILED) {
            return null;
        }
        if (state.firstError() != null) {
            return of(state.firstError(), tokenSource);
        }
        boolean noSession = state.result() == null && exitCode != null && exitCode != 0;
        return noSession && startFailure != null ? ofStartFailure(startFailure, tokenSource) : null;
    }

    /** The failure a {@code session.error} reports. */
    public static ServiceFailure of(SessionError error, String tokenSource) {
        String type = error.errorType() == null ? "" : error.errorType().toLowerCase(Locale.ROOT);
        Integer status = error.statusCode();
        Kind kind;
        if (type.equals("rate_limit") || Integer.valueOf(429).equals(status)) {
            kind = Kind.RATE_LIMITED;
        } else if (type.equals("session_limits")) {
            kind = Kind.SESSION_LIMIT;
        } else if (type.equals("quota") || Integer.valueOf(402).equals(status)) {
            kind = Kind.QUOTA_EXHAUSTED;
        } else if (type.equals("authentication") || type.equals("authorization") || Integer.valueOf(401).equals(status)) {
            kind = Kind.AUTHORIZATION;
        } else if (type.equals("policy")) {
            kind = Kind.POLICY_DENIED;
        } else if ((type.equals("query") || type.isEmpty()) && status != null && status >= 500 && status < 600) {
            kind = Kind.SERVICE_ERROR;
        } else {
            kind = Kind.OTHER;
        }
        return failure(kind, error.errorCode(), status, tokenSource);
    }

    /** Whether a stderr line is one of the refusals the CLI writes before any session; see {@link #ofStartFailure}. */
    public static boolean isStartFailure(String line) {
        return kindOf(line) != null;
    }

    /** The failure one stderr line tells of, or null when it is none of the CLI's refusals before a session. */
    public static ServiceFailure ofStartFailure(String line, String tokenSource) {
        Kind kind = kindOf(line);
        return kind == null ? null : failure(kind, null, null, tokenSource);
    }

    private static final Pattern AUTHORIZATION = Pattern.compile(
            "^Error: (Authentication failed|No authentication information found)|Classic Personal Access Tokens \\(ghp_\\) are not supported");
    private static final Pattern POLICY = Pattern.compile("^Error: Access denied by policy settings");
    private static final Pattern MODEL = Pattern.compile("^Error: (Model \".*\" from --model flag is not available"
            + "|Run `copilot --model .*` in interactive mode to enable this model"
            + "|Reasoning effort \".*\" is not supported for model)");
    private static final Pattern MODELS_NOT_LOADED = Pattern.compile("^Error: Failed to load models");

    private static Kind kindOf(String line) {
        if (line == null) {
            return null;
        }
        String l = line.strip();
        if (AUTHORIZATION.matcher(l).find()) {
            return Kind.AUTHORIZATION;
        }
        if (POLICY.matcher(l).find()) {
            return Kind.POLICY_DENIED;
        }
        if (MODEL.matcher(l).find()) {
            return Kind.MODEL_UNAVAILABLE;
        }
        return MODELS_NOT_LOADED.matcher(l).find() ? Kind.SERVICE_ERROR : null;
    }

    private static ServiceFailure failure(Kind kind, String errorCode, Integer status, String tokenSource) {
        boolean retryable = kind == Kind.RATE_LIMITED || kind == Kind.SERVICE_ERROR;
        return new ServiceFailure(kind, errorCode, status, retryable, action(kind, errorCode, tokenSource));
    }

    private static String action(Kind kind, String errorCode, String tokenSource) {
        return switch (kind) {
            case RATE_LIMITED -> "GitHub rate-limited the model calls after the CLI's own retries: wait a few minutes and run"
                    + " again, or use another model.";
            case QUOTA_EXHAUSTED -> "The account's Copilot allowance or spending limit is used up" + code(errorCode)
                    + ": raise the budget on GitHub or wait for it to reset; running again now fails the same way.";
            case SESSION_LIMIT -> "The session used up the AI credits its own limit allows (--max-ai-credits): raise the limit"
                    + " or give the agent a smaller task.";
            case AUTHORIZATION -> "Replace the GitHub token" + (tokenSource == null ? "" : " (" + tokenSource + ")")
                    + ": it is missing, invalid or expired, or lacks the 'Copilot Requests' permission (classic ghp_ tokens"
                    + " are refused).";
            case POLICY_DENIED -> "Copilot CLI is not allowed for this account: ask your organisation's admin to enable"
                    + " Copilot CLI in its Copilot policies.";
            case MODEL_UNAVAILABLE -> "Pick another model (the model setting) or reasoning effort: this one is unknown,"
                    + " disabled for the account, or does not take that effort.";
            case SERVICE_ERROR -> "The Copilot service failed or could not be reached: check GitHub's status and run again.";
            case OTHER -> "Read the reason and the log: nothing says running again would help.";
        };
    }

    private static String code(String errorCode) {
        return errorCode == null ? "" : " (" + errorCode + ")";
    }
}
