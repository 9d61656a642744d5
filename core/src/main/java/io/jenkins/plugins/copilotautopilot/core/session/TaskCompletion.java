package io.jenkins.plugins.copilotautopilot.core.session;

import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;

/**
 * What the agent's last {@code session.task_complete} said.
 *
 * @param seen    whether it completed (an outcome {@code continue}, the CLI's reviewer sending it back to work, is none)
 * @param summary its summary, when it completed
 * @param success the CLI's {@code success} flag, when it completed and the CLI said
 * @param outcome {@code completed}, {@code continue}, {@code blocked}, or null from a CLI that does not say
 * @param blocker what blocks it in words, when the outcome is {@code blocked}
 */
record TaskCompletion(boolean seen, String summary, Boolean success, String outcome, String blocker) {
    static final TaskCompletion NONE = new TaskCompletion(false, null, null, null, null);

    static TaskCompletion of(CliEvent event) {
        String success = event.dataText("success");
        Boolean ok = "true".equals(success) ? Boolean.TRUE : "false".equals(success) ? Boolean.FALSE : null;
        String outcome = event.dataText("outcome");
        String blocker = TaskBlockers.describe(event.data() == null ? null : event.data().get("blocker"));
        String summary = event.dataText("summary");
        return new TaskCompletion(!TaskBlockers.CONTINUE.equals(outcome), summary, ok, outcome, blocker);
    }

    /** As the session keeps it: a task_complete that is no completion keeps no summary. */
    TaskCompletion kept() {
        return seen ? this : new TaskCompletion(false, null, null, outcome, blocker);
    }
}
