package io.jenkins.plugins.copilotautopilot.core.session;

/** Where a tool call stands. */
public enum ToolStatus {
    RUNNING, SUCCEEDED, FAILED,
    /** Refused by the permission policy (e.g. not allowed without {@code allowAllTools}). */
    DENIED,
    /** Still running when the session ended (stopped, or the CLI died): counted as failed. */
    INTERRUPTED
}
