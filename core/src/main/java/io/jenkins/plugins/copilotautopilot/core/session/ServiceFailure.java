package io.jenkins.plugins.copilotautopilot.core.session;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Why the Copilot service (or the CLI before its first model call) refused the session, in a closed set a Pipeline can
 * act on, with one sentence saying what to do. Decided by {@code outcome.ServiceFailures}.
 *
 * @param kind       what failed
 * @param errorCode  the service's own code when it gave one ({@code quota_exceeded}, {@code rate_limited}, …), or null
 * @param statusCode the HTTP status of the failed request when the CLI said, or null
 * @param retryable  whether running the same session again later may succeed without changing anything
 * @param action     what to do, one sentence
 */
public record ServiceFailure(Kind kind, String errorCode, Integer statusCode, boolean retryable, String action)
        implements java.io.Serializable {

    /** What failed. */
    public enum Kind {
        /** Too many requests for now ({@code rate_limit}, HTTP 429): the CLI already retried. */
        RATE_LIMITED,
        /** The account's allowance or spending limit is used up ({@code quota}, HTTP 402). */
        QUOTA_EXHAUSTED,
        /** The session's own AI-credit limit ({@code --max-ai-credits}) is used up ({@code session_limits}). */
        SESSION_LIMIT,
        /** The GitHub token is missing, invalid, expired or not allowed ({@code authorization}, HTTP 401). */
        AUTHORIZATION,
        /** The account's or organisation's policy does not allow Copilot CLI (HTTP 403 on the model list). */
        POLICY_DENIED,
        /** The model is unknown or disabled for the account, or does not take the reasoning effort asked for. */
        MODEL_UNAVAILABLE,
        /** The service failed (HTTP 5xx after the CLI's retries) or could not be reached. */
        SERVICE_ERROR,
        /** A {@code session.error} of another kind. */
        OTHER
    }

    /** As plain JDK values: {@code kind}, {@code errorCode}, {@code statusCode}, {@code retryable}, {@code action}. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("kind", kind.name());
        map.put("errorCode", errorCode);
        map.put("statusCode", statusCode);
        map.put("retryable", retryable);
        map.put("action", action);
        return map;
    }

    /**
     * One line for a log: {@code RATE_LIMITED (rate_limited, HTTP 429; worth retrying later): Wait a few minutes …}.
     */
    public String describe() {
        StringBuilder line = new StringBuilder(kind.name()).append(" (");
        if (errorCode != null) {
            line.append(errorCode).append(", ");
        }
        if (statusCode != null) {
            line.append("HTTP ").append(statusCode).append(", ");
        }
        return line.append(retryable ? "worth retrying later" : "retrying will not help").append("): ").append(action).toString();
    }
}
