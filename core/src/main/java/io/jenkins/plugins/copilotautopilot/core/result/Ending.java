package io.jenkins.plugins.copilotautopilot.core.result;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import java.util.Map;

/**
 * How a session ended: the outcome and why, what the agent said, what the service refused, the process's end. All text
 * is masked.
 *
 * @param summary        the agent's {@code task_complete} summary, or null
 * @param blocker        what the agent said blocks it, when it ended {@link Outcome#BLOCKED}, or null
 * @param failure        why GitHub's service refused the session, when it ended FAILED for that; else null
 * @param exitCode       the CLI's exit code, or null when it never exited by itself
 * @param durationMillis wall-clock time of the run
 * @param sessionId      the CLI's session id, or null
 * @param model          the model used, when known
 */
public record Ending(Outcome outcome, String reason, String summary, String blocker, ServiceFailure failure, Integer exitCode,
                     long durationMillis, String sessionId, String model) {
    /** Its entries in the result's map (the Pipeline step's return value, the journal's closing record). */
    public void putInto(Map<String, Object> map) {
        map.put("completed", outcome == Outcome.COMPLETED);
        map.put("outcome", outcome.name());
        map.put("failure", failure == null ? null : failure.toMap());
        map.put("summary", summary);
        map.put("blocker", blocker);
        map.put("reason", reason);
        map.put("durationMillis", durationMillis);
        map.put("sessionId", sessionId);
        map.put("exitCode", exitCode);
        map.put("model", model);
    }
}
