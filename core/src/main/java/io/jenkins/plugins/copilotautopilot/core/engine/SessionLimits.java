package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.outcome.ProcessEnd;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.session.ToolCall;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;
import java.util.function.BiFunction;

/**
 * The session's time limits ({@code timeout}, {@code inactivityTimeout}, {@code startupTimeout}, {@code toolTimeout}),
 * each null for none: which one a look finds reached, as the end of a session stopped for it.
 */
final class SessionLimits {
    private final Duration timeout;
    private final Duration inactivityTimeout;
    private final Duration startupTimeout;
    private final Duration toolTimeout;
    private final long startedAtMillis;
    /** The startup limit was looked at once it had passed: from then on there is nothing to check. */
    private boolean startupChecked;

    SessionLimits(SessionPlan plan, long startedAtMillis) {
        this.timeout = plan.limit(SessionSettings.TIMEOUT);
        this.inactivityTimeout = plan.limit(SessionSettings.INACTIVITY_TIMEOUT);
        this.startupTimeout = plan.limit(SessionSettings.STARTUP_TIMEOUT);
        this.toolTimeout = plan.limit(SessionSettings.TOOL_TIMEOUT);
        this.startedAtMillis = startedAtMillis;
    }

    /** Whether the wall-clock limit has passed. */
    boolean pastWallClock() {
        return timeout != null && System.currentTimeMillis() - startedAtMillis >= timeout.toMillis();
    }

    /**
     * The first limit reached, in this order: the wall clock, inactivity (no activity since {@code lastActivityNanos}),
     * the start (no output at all), the longest running tool call; as how the stopped session ends (given its exit code
     * and what it was doing), or null when none is.
     */
    BiFunction<Integer, String, ProcessEnd> reached(long nowNanos, long lastActivityNanos, SessionTracker tracker) {
        if (pastWallClock()) {
            return (exit, activity) -> ProcessEnd.stopped(ProcessEnd.Termination.TIMED_OUT, exit, timeout, activity);
        }
        if (inactivityTimeout != null && nowNanos - lastActivityNanos >= inactivityTimeout.toNanos()) {
            return (exit, activity) -> ProcessEnd.stopped(ProcessEnd.Termination.STALLED, exit, inactivityTimeout, activity);
        }
        if (startupTimeout != null && !startupChecked && System.currentTimeMillis() - startedAtMillis >= startupTimeout.toMillis()) {
            startupChecked = true;
            SessionState state = tracker.state();
            if (state.events() == 0 && state.plainLines() == 0) {
                return (exit, activity) -> ProcessEnd.stoppedAt(ProcessEnd.Termination.STARTUP_TIMED_OUT, exit, startupTimeout, null,
                        activity);
            }
        }
        if (toolTimeout != null) {
            io.jenkins.plugins.copilotautopilot.core.session.RunningCall longest = tracker.longestRunningCall();
            if (longest != null && nowNanos - longest.sinceNanos() >= toolTimeout.toNanos()) {
                ToolCall call = longest.call();
                String args = call.argumentSummary().isEmpty() ? "" : " (" + Texts.truncate(call.argumentSummary(), 60) + ")";
                String which = "'" + call.name() + "'" + args + " in turn " + call.turn();
                return (exit, activity) -> ProcessEnd.stoppedAt(ProcessEnd.Termination.TOOL_TIMED_OUT, exit, toolTimeout, which,
                        activity);
            }
        }
        return null;
    }
}
