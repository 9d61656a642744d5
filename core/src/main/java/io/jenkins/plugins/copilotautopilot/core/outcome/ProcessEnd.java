package io.jenkins.plugins.copilotautopilot.core.outcome;

import java.time.Duration;

/**
 * How the CLI process ended, as the engine saw it.
 *
 * @param termination why it ended
 * @param exitCode    its exit code, or null when unknown (never started, or killed before reporting)
 * @param limit       the limit that was hit for {@link Termination#TIMED_OUT} and {@link Termination#STALLED}
 * @param detail      the launch error, or the last lines the CLI wrote to stderr; may be null
 * @param outputEnded whether its standard output reached end of file
 * @param activity    what the session was doing when we stopped it (abort, timeout, stall), else null
 * @param unconfirmed whether we asked the CLI to stop but never learnt that it did (no exit code came in time, or
 *                    its machine could not be reached)
 */
public record ProcessEnd(Termination termination, Integer exitCode, Duration limit, String detail,
                         boolean outputEnded, String activity, boolean unconfirmed) {
    /** Why the process ended. */
    public enum Termination {
        /** It exited by itself. */
        EXITED,
        /** It could not be started. */
        LAUNCH_FAILED,
        /** Stopped at the wall-clock limit. */
        TIMED_OUT,
        /** Stopped after the inactivity limit. */
        STALLED,
        /** Stopped on request. */
        ABORTED,
        /** Stopped when the model calls used up the budget; the detail says which and how much. */
        OVER_BUDGET,
        /** Could no longer be followed (its machine is gone); the detail says why. */
        LOST,
        /** Stopped because one tool call ran longer than its limit; the detail names the call. */
        TOOL_TIMED_OUT,
        /** Stopped because the CLI printed nothing for the startup limit after it was started. */
        STARTUP_TIMED_OUT
    }

    public static ProcessEnd exited(int exitCode, String stderrTail, boolean outputEnded) {
        return new ProcessEnd(Termination.EXITED, exitCode, null, stderrTail, outputEnded, null, false);
    }

    /** Stopped by us, with what the session was doing at that moment. */
    public static ProcessEnd stopped(Termination why, Integer exitCode, Duration limit, String activity) {
        return new ProcessEnd(why, exitCode, limit, null, false, activity, false);
    }

    /** The same end, with the stderr tail and the end-of-output flag filled in. */
    public ProcessEnd with(String stderrTail, boolean ended) {
        return new ProcessEnd(termination, exitCode, limit, termination == Termination.EXITED ? stderrTail : detail, ended, activity,
                unconfirmed);
    }

    /** The same stop, which the CLI never confirmed. */
    public ProcessEnd asUnconfirmed() {
        return new ProcessEnd(termination, exitCode, limit, detail, outputEnded, activity, true);
    }

    /** Stopped at a limit that concerns one thing ({@code detail}: the tool call), with the limit. */
    public static ProcessEnd stoppedAt(Termination why, Integer exitCode, Duration limit, String detail, String activity) {
        return new ProcessEnd(why, exitCode, limit, detail, false, activity, false);
    }

    /** Stopped because the budget was used up: {@code spent} says how much of what, against which limit. */
    public static ProcessEnd overBudget(Integer exitCode, String spent, String activity) {
        return new ProcessEnd(Termination.OVER_BUDGET, exitCode, null, spent, false, activity, false);
    }

    /** The session could no longer be followed, e.g. its agent was removed. */
    public static ProcessEnd lost(String why, String activity) {
        return new ProcessEnd(Termination.LOST, null, null, why, false, activity, false);
    }

    public static ProcessEnd launchFailed(String message) {
        return new ProcessEnd(Termination.LAUNCH_FAILED, null, null, message, false, null, false);
    }
}
