package io.jenkins.plugins.copilotautopilot.core.session;

/**
 * A {@code session.error}: the model provider or the CLI gave up.
 *
 * @param errorType  the CLI's category, e.g. {@code query}, {@code authorization}, {@code rate_limit}, {@code quota}
 * @param message    the human-readable message
 * @param statusCode the HTTP status of the failed request, or null
 * @param errorCode  the service's own code when it gave one (e.g. {@code quota_exceeded}, {@code rate_limited},
 *                   {@code ai_credit_soft_cap_exhausted}), or null
 */
public record SessionError(String errorType, String message, Integer statusCode, String errorCode) {
    /** An error without a service's code. */
    public SessionError(String errorType, String message, Integer statusCode) {
        this(errorType, message, statusCode, null);
    }

    /** One line for a log or a build result, e.g. {@code model error (HTTP 400): bad request}. */
    public String describe() {
        String kind = errorType == null || errorType.isBlank() || "query".equals(errorType) ? "model error" : errorType + " error";
        String status = statusCode == null ? "" : " (HTTP " + statusCode + ")";
        return kind + status + ": " + (message == null ? "(no message)" : message);
    }
}
