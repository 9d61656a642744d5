package io.jenkins.plugins.copilotautopilot.core.session;

/**
 * What the session has shown so far: a snapshot taken from the {@link SessionTracker}.
 *
 * @param events              event lines seen
 * @param plainLines          stdout lines that were not events
 * @param turns               turns started (main agent only)
 * @param toolCalls           tool calls started
 * @param failedToolCalls     tool calls that failed
 * @param deniedToolCalls     tool calls refused by the permission policy
 * @param assistantMessages   assistant messages with text
 * @param nudges              autopilot continuation nudges
 * @param retries             model requests the CLI retried
 * @param taskCompleteSeen    whether {@code session.task_complete} arrived
 * @param taskSummary         its summary, or null
 * @param taskSuccess         its {@code success} flag, or null when absent
 * @param firstError          the first {@code session.error}, or null
 * @param autopilotStopReason the last {@code session.autopilot_stopped} reason, or null
 * @param idle                whether the session reported idle
 * @param result              the final {@code result} line, or null when it never came
 * @param model               the model the CLI used, when it said
 * @param inputTokens         input tokens reported by {@code assistant.usage}, or null
 * @param outputTokens        output tokens reported by {@code assistant.usage}, or null
 * @param activity            what the session was doing last, for a stall or timeout message
 * @param taskOutcome         the last {@code session.task_complete}'s {@code outcome} ({@code completed},
 *                            {@code continue}, {@code blocked} or a value of a later CLI), or null when absent
 * @param taskBlocker         its blocker in words, when it had one, or null
 * @param interruptedToolCalls tool calls the session's end or stop cut short (neither failed nor denied)
 * @param policySetting       the managed setting of the organisation's policy that overrode what the session asked
 *                            for ({@code session.managed_settings_enforced}), or null
 * @param policyDeniedToolCalls denied tool calls after that (counted in {@code deniedToolCalls} too)
 * @param cancelled           whether the CLI said it cancelled the session ({@code autopilot_stopped} {@code aborted},
 *                            an {@code aborted} idle, a {@code cancellation} info): something stopped it, whatever
 *                            exit code it reports
 */
public record SessionState(long events, long plainLines, int turns, int toolCalls, int failedToolCalls,
                           int deniedToolCalls, int assistantMessages, int nudges, int retries,
                           boolean taskCompleteSeen, String taskSummary, Boolean taskSuccess,
                           SessionError firstError, String autopilotStopReason, boolean idle, ResultInfo result,
                           String model, Long inputTokens, Long outputTokens, String activity, String taskOutcome,
                           String taskBlocker, int interruptedToolCalls, String policySetting, int policyDeniedToolCalls,
                           boolean cancelled) {

    public SessionState(long events, long plainLines, int turns, int toolCalls, int failedToolCalls,
                        int deniedToolCalls, int assistantMessages, int nudges, int retries,
                        boolean taskCompleteSeen, String taskSummary, Boolean taskSuccess,
                        SessionError firstError, String autopilotStopReason, boolean idle, ResultInfo result,
                        String model, Long inputTokens, Long outputTokens, String activity, String taskOutcome,
                        String taskBlocker, int interruptedToolCalls) {
        this(events, plainLines, turns, toolCalls, failedToolCalls, deniedToolCalls, assistantMessages, nudges, retries,
                taskCompleteSeen, taskSummary, taskSuccess, firstError, autopilotStopReason, idle, result, model,
                inputTokens, outputTokens, activity, taskOutcome, taskBlocker, interruptedToolCalls, null, 0, false);
    }

    public SessionState(long events, long plainLines, int turns, int toolCalls, int failedToolCalls,
                        int deniedToolCalls, int assistantMessages, int nudges, int retries,
                        boolean taskCompleteSeen, String taskSummary, Boolean taskSuccess,
                        SessionError firstError, String autopilotStopReason, boolean idle, ResultInfo result,
                        String model, Long inputTokens, Long outputTokens, String activity, String taskOutcome,
                        String taskBlocker) {
        this(events, plainLines, turns, toolCalls, failedToolCalls, deniedToolCalls, assistantMessages, nudges, retries,
                taskCompleteSeen, taskSummary, taskSuccess, firstError, autopilotStopReason, idle, result, model,
                inputTokens, outputTokens, activity, taskOutcome, taskBlocker, 0);
    }

    public SessionState(long events, long plainLines, int turns, int toolCalls, int failedToolCalls,
                        int deniedToolCalls, int assistantMessages, int nudges, int retries,
                        boolean taskCompleteSeen, String taskSummary, Boolean taskSuccess,
                        SessionError firstError, String autopilotStopReason, boolean idle, ResultInfo result,
                        String model, Long inputTokens, Long outputTokens, String activity) {
        this(events, plainLines, turns, toolCalls, failedToolCalls, deniedToolCalls, assistantMessages, nudges, retries,
                taskCompleteSeen, taskSummary, taskSuccess, firstError, autopilotStopReason, idle, result, model,
                inputTokens, outputTokens, activity, null, null, 0);
    }
}
