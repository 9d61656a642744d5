package io.jenkins.plugins.copilotautopilot.core.report;

/**
 * A call that waited for a person ({@code approveTools}) and what became of it, as the journal recorded it (masked,
 * not escaped).
 *
 * @param tool        the tool's name
 * @param arguments   its arguments as the log shows them
 * @param pattern     the pattern it matched
 * @param requestedAt when it started to wait (ISO-8601)
 * @param verdict     APPROVED, DENIED, TIMED_OUT, LEFT_TO_RULES or SESSION_ENDED
 * @param by          who decided, or null
 * @param at          when (ISO-8601)
 */
public record ApprovalReport(String tool, String arguments, String pattern, String requestedAt, String verdict, String by, String at)
        implements java.io.Serializable {
    /** Without the arguments, for readers who may not see what the agent wrote. */
    ApprovalReport withoutArguments() {
        return new ApprovalReport(tool, "", pattern, requestedAt, verdict, by, at);
    }
}
