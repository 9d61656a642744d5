package io.jenkins.plugins.copilotautopilot.core.approval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What became of a call that waited: approved or denied, by whom (a user's id, or nobody when the wait ran out or
 * the session was stopped) and when, and what the hook answers the CLI.
 *
 * @param id      the request's id
 * @param verdict the decision
 * @param by      who decided, or null
 * @param atMillis when (epoch milliseconds)
 * @param reason  why, for a denial the model reads (masked)
 */
public record ApprovalDecision(String id, Verdict verdict, String by, long atMillis, String reason) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What was decided. */
    public enum Verdict {
        /** A person said yes: the call runs, whatever the other tool rules say but {@code denyTools}. */
        APPROVED,
        /** A person said no. */
        DENIED,
        /** Nobody decided in time. */
        TIMED_OUT,
        /** The call matches {@code denyTools}: the CLI's own rules deny it, nobody is asked. */
        LEFT_TO_RULES,
        /** The session ended (stopped, aborted) while the call waited: the hook denied it. */
        SESSION_ENDED
    }

    public boolean allowed() {
        return verdict == Verdict.APPROVED;
    }

    /** The hook's answer: a {@code preToolUse} decision, or nothing for the CLI's own rules to decide. */
    public String hookOutput() {
        if (verdict == Verdict.LEFT_TO_RULES) {
            return "";
        }
        ObjectNode answer = JSON.createObjectNode();
        answer.put("permissionDecision", allowed() ? "allow" : "deny");
        if (!allowed()) {
            answer.put("permissionDecisionReason", reason);
        }
        return answer.toString();
    }
}
