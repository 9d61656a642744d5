package io.jenkins.plugins.copilotautopilot.core.session;

import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;

/**
 * What happens in a session, as the {@link SessionTracker} understands it. The log renderer and the
 * session report both listen here. Callbacks arrive in stream order on one thread.
 */
public interface SessionListener {
    /**
     * The launch script left untracked files out of a snapshot of the work tree: {@code files} of them, of
     * {@code kilobytes} (0 when not measured), over the limits of {@code maxFiles} and {@code maxKilobytes}.
     */
    default void onChangesLeftOut(long files, long kilobytes, long maxFiles, long maxKilobytes) {
    }

    /** The launch script found the CLI it runs ({@code version} empty when unknown); said only when asked for. */
    /** The acceptance check's round {@code round} (1, 2, ...) starts ({@code at}: when, or null). */
    default void onVerifyStarted(int round, java.time.Instant at) {
    }

    /** One of the last lines of its output, as the launch script printed it (the log, the journal and the agent get it masked). */
    default void onVerifyOutput(String line) {
    }

    default void onVerifyFinished(int round, int exitCode, java.time.Instant at) {
    }

    default void onCliFound(String path, String version) {
    }

    default void onTurnStarted(Turn turn) {
    }

    default void onTurnEnded(Turn turn) {
    }

    /** A complete assistant message with text (messages that only carry tool requests are skipped). */
    default void onAssistantMessage(Turn turn, String content) {
    }

    default void onToolStarted(ToolCall call) {
    }

    default void onToolCompleted(ToolCall call) {
    }

    /** The CLI nudged the agent to continue because it stopped without {@code task_complete}. */
    default void onNudge(int nudgeNumber) {
    }

    /**
     * The agent called {@code task_complete}: its summary, the CLI's {@code success} flag and {@code outcome}
     * ({@code completed}, {@code continue}, {@code blocked}, or null from a CLI that does not say), and the blocker in
     * words when the outcome is {@code blocked}.
     */
    default void onTaskComplete(String summary, Boolean success, String outcome, String blocker) {
    }

    default void onSessionError(SessionError error) {
    }

    /** A {@code session.warning}. */
    default void onWarning(String warningType, String message) {
    }

    /** A {@code session.info}, e.g. the CLI retrying a failed model request. */
    default void onInfo(String infoType, String message) {
    }

    /**
     * The organisation's policy overrode what the session asked for ({@code session.managed_settings_enforced}).
     *
     * @param setting    the managed setting, e.g. {@code permissions.disableBypassPermissionsMode}
     * @param escalation what it refused, e.g. {@code approve_all}, or null
     * @param failClosed whether it was applied because the policy could not be read
     */
    default void onPolicyEnforced(String setting, String escalation, boolean failClosed) {
    }

    default void onAutopilotStopped(String reason) {
    }

    /** A model call ended and the CLI recorded what it used. */
    default void onUsage(UsageRecord usage) {
    }

    default void onIdle() {
    }

    default void onResult(ResultInfo result) {
    }

    /** A stdout line that was not an event, or an event line too long to read. */
    default void onPlainOutput(PlainOutput line) {
    }

    /** The CLI retries a model call the service refused ({@code assistant.turn_retry}), e.g. for {@code rate_limit}. */
    default void onTurnRetry(String reason, java.time.Instant at) {
    }

    /** The launch script waits to be told what comes next (after a run of the CLI, or of the check). */
    default void onAwaiting(SessionTracker.Awaiting awaiting, java.time.Instant at) {
    }

    /** GitHub's routing chose {@code model} for the session ({@code --model auto}); {@code fallback} when it fell back. */
    default void onAutoModeResolved(String model, boolean fallback) {
    }
}
