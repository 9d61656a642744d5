package io.jenkins.plugins.copilotautopilot.core.session;

/** A tool call that runs, and since when it was seen running (this machine's {@link System#nanoTime}). */
public record RunningCall(ToolCall call, long sinceNanos) {
}
