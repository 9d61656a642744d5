package io.jenkins.plugins.copilotautopilot.core.session;

/**
 * A {@code session.error}: the model provider or the CLI gave up.
 *
 * @param errorType  the CLI's category, e.g. {@code query}, {@code authentication}, {@code rate_limit}
 * @param message    the human-readable message
 * @param statusCode the HTTP status of the failed request, or null
 */
public record SessionError(String errorType, String message, Integer statusCode) {
    /** One line for a log or a build result, e.g. {@code model error (HTTP 400): bad request}. */
    public String describe() {
        String kind = errorType == null || errorType.isBlank() || "query".equals(errorType) ? "model error" : errorType + " error";
        String status = statusCode == null ? "" : " (HTTP " + statusCode + ")";
        return kind + status + ": " + (message == null ? "(no message)" : message);
    }
}
