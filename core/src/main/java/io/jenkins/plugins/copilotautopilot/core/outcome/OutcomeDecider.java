package io.jenkins.plugins.copilotautopilot.core.outcome;

import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.TaskBlockers;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import io.jenkins.plugins.copilotautopilot.core.verify.AcceptanceCheck;

/**
 * Decides the {@link Outcome} of a run from what the session showed and how the process ended.
 *
 * <p>Order matters: a stop we caused (abort, timeout, stall) wins over anything the stream said; then
 * a launch failure; then model errors, a failing exit code and a missing result line (FAILED); only a
 * clean end is judged on {@code session.task_complete}: BLOCKED when its {@code outcome} is {@code blocked}; COMPLETED
 * with a summary that has a visible character ({@link Texts#isBlank}), {@code success} not false and an outcome of
 * {@code completed} or none (older CLIs), and no tool call denied after the organisation's policy overrode the step's
 * permissions; INCOMPLETE otherwise. A {@code continue} outcome is no completion. A session the CLI says it cancelled
 * (a stop from outside this step) FAILED, whatever exit code the CLI reports for itself. The
 * reasons hold no text of the agent's (its summary and blocker are reported beside them, where its words may be shown).
 */
public final class OutcomeDecider {
    private static final int MAX_DETAIL = 300;

    private OutcomeDecider() {
    }

    /**
     * The outcome, the acceptance check included: a completion stands only when the check passed last
     * ({@code NOT_VERIFIED} otherwise).
     *
     * @param check   the session's acceptance check, or null
     * @param checked how its rounds went
     */
    public static SessionOutcome decide(SessionState state, ProcessEnd end, AcceptanceCheck check, AcceptanceCheck.Rounds checked) {
        return decide(state, end, null, check, checked);
    }

    /**
     * The outcome, the answer's schema and the acceptance check included: a completion stands only when its answer
     * followed the schema ({@code OUTPUT_INVALID} otherwise), and then only when the check passed last.
     *
     * @param answer how the answer went, or null when the session asks for none
     */
    public static SessionOutcome decide(SessionState state, ProcessEnd end, Answer answer, AcceptanceCheck check,
                                        AcceptanceCheck.Rounds checked) {
        SessionOutcome decided = decide(state, end);
        if (answer != null && decided.outcome() == Outcome.COMPLETED) {
            if (answer.rounds() == 0) {
                return new SessionOutcome(Outcome.OUTPUT_INVALID, "The agent called task_complete, but its answer was never checked.");
            }
            if (answer.problem() != null) {
                return new SessionOutcome(Outcome.OUTPUT_INVALID, "The agent's answer does not follow the output schema after "
                        + plural(answer.rounds(), "round") + (answer.limitReached() ? " (the maxOutputRounds limit): "
                        : " (the agent did not complete again): ") + Texts.truncate(Texts.oneLine(answer.problem()), MAX_DETAIL) + ".");
            }
            decided = new SessionOutcome(Outcome.COMPLETED, decided.reason().replaceAll("\\.$", "")
                    + "; its answer follows the schema" + (answer.rounds() > 1 ? " in round " + answer.rounds() : "") + ".");
        }
        if (check == null || decided.outcome() != Outcome.COMPLETED) {
            return decided;
        }
        Integer exit = checked.lastExitCode();
        int rounds = checked.rounds();
        if (exit != null && exit == 0) {
            return new SessionOutcome(Outcome.COMPLETED, decided.reason().replaceAll("\\.$", "")
                    + "; verify passed" + (rounds > 1 ? " in round " + rounds : "") + ".");
        }
        String shown = check.shown();
        if (exit == null) {
            return new SessionOutcome(Outcome.NOT_VERIFIED, "The agent called task_complete, but the acceptance check " + shown
                    + (rounds == 0 ? " never ran" : " never ended") + ".");
        }
        if (AcceptanceCheck.verdict(exit, false) == AcceptanceCheck.Verdict.CANNOT_START) {
            return new SessionOutcome(Outcome.NOT_VERIFIED, "The acceptance check " + shown + " could not start (exit code " + exit
                    + ": " + AcceptanceCheck.cannotStart(exit) + "; its output is in the log).");
        }
        return new SessionOutcome(Outcome.NOT_VERIFIED, "The acceptance check " + shown + " still failed (exit code " + exit
                + ") after " + rounds + " round" + (rounds == 1 ? "" : "s") + (rounds < check.maxRounds()
                ? " (the agent did not complete again)." : " (the maxVerifyRounds limit)."));
    }

    /**
     * How the session's answers went: how many were checked, whether as many were invalid as {@code maxOutputRounds}
     * allows, and what was wrong with the last (null when it followed the schema).
     */
    public record Answer(int rounds, boolean limitReached, String problem) {
    }

    public static SessionOutcome decide(SessionState state, ProcessEnd end) {
        String activity = end.activity() != null ? end.activity() : state.activity();
        String stopped = end.unconfirmed()
                ? "; the Copilot CLI was asked to stop but did not confirm it: it may still be running."
                : "; the Copilot CLI was stopped.";
        switch (end.termination()) {
            case ABORTED:
                return new SessionOutcome(Outcome.ABORTED, "Aborted " + activity + stopped);
            case TIMED_OUT:
                return new SessionOutcome(Outcome.TIMED_OUT, "Timed out after " + Durations.describe(end.limit())
                        + " (the wall-clock limit) " + activity + stopped);
            case STALLED:
                return new SessionOutcome(Outcome.STALLED, "No event from the Copilot CLI for "
                        + Durations.describe(end.limit()) + " (the inactivity limit) " + activity + stopped);
            case LAUNCH_FAILED:
                return new SessionOutcome(Outcome.FAILED, "Could not start the Copilot CLI: " + end.detail());
            case OVER_BUDGET:
                return new SessionOutcome(Outcome.OVER_BUDGET, "Stopped " + activity + ": " + end.detail() + stopped);
            case LOST:
                return new SessionOutcome(Outcome.FAILED, "Lost the Copilot CLI " + activity + ": " + end.detail());
            case TOOL_TIMED_OUT:
                return new SessionOutcome(Outcome.TIMED_OUT, "The tool call " + end.detail() + " ran longer than "
                        + Durations.describe(end.limit()) + " (the toolTimeout limit)" + stopped);
            case STARTUP_TIMED_OUT:
                return new SessionOutcome(Outcome.FAILED, "The Copilot CLI printed nothing within " + Durations.describe(end.limit())
                        + " of its start (the startupTimeout limit)" + stopped);
            case EXITED:
            default:
                return decideExited(state, end);
        }
    }

    private static SessionOutcome decideExited(SessionState state, ProcessEnd end) {
        if (state.firstError() != null) {
            String error = state.firstError().describe();
            return new SessionOutcome(Outcome.FAILED, "The session failed with " + ("aeiou".indexOf(error.charAt(0)) >= 0 ? "an " : "a ") + error);
        }
        Integer exit = end.exitCode();
        if (exit != null && exit != 0) {
            return new SessionOutcome(Outcome.FAILED, describeExit(exit) + lastWords(end.detail()));
        }
        if (state.cancelled()) {
            // a SIGTERM from outside this step: the CLI then reports exit code 0 of its own, whatever the process's is
            return new SessionOutcome(Outcome.FAILED, "The Copilot CLI cancelled the session after " + plural(state.turns(), "turn")
                    + ": something other than this step stopped it (exit code " + exit + ").");
        }
        if (state.result() == null) {
            return new SessionOutcome(Outcome.FAILED, "The Copilot CLI output ended without a result line (exit code "
                    + exit + ", " + state.events() + " events)" + lastWords(end.detail()));
        }
        if (state.taskCompleteSeen()) {
            String said = state.taskOutcome();
            if (TaskBlockers.BLOCKED.equals(said)) {
                return new SessionOutcome(Outcome.BLOCKED, "The agent called task_complete saying it is blocked after "
                        + plural(state.turns(), "turn") + (state.taskBlocker() == null ? " (it named no blocker)." : "."));
            }
            if (said != null && !TaskBlockers.COMPLETED.equals(said)) {
                return new SessionOutcome(Outcome.INCOMPLETE, "The agent called task_complete with the outcome '"
                        + Texts.truncate(Texts.oneLine(said), 40) + "', which this version does not take for a completion.");
            }
            if (Texts.isBlank(state.taskSummary())) {
                return new SessionOutcome(Outcome.INCOMPLETE, "The agent called task_complete without a summary.");
            }
            if (Boolean.FALSE.equals(state.taskSuccess())) {
                return new SessionOutcome(Outcome.INCOMPLETE, "The agent called task_complete but the task was not accepted as successful.");
            }
            if (state.policyDeniedToolCalls() > 0) {
                return new SessionOutcome(Outcome.INCOMPLETE, "The agent called task_complete after " + plural(state.turns(), "turn")
                        + ", but your organisation's policy (" + state.policySetting() + ") denied "
                        + plural(state.policyDeniedToolCalls(), "tool call") + " it made: its work may be partial.");
            }
            return new SessionOutcome(Outcome.COMPLETED, "The agent called task_complete after " + plural(state.turns(), "turn") + ".");
        }
        if ("cap_reached".equals(state.autopilotStopReason())) {
            return new SessionOutcome(Outcome.INCOMPLETE, "The agent stopped without calling task_complete after "
                    + plural(state.nudges(), "autopilot continuation") + " (the maxAutopilotContinues limit).");
        }
        if (TaskBlockers.CONTINUE.equals(state.taskOutcome())) {
            return new SessionOutcome(Outcome.INCOMPLETE, "The agent's last task_complete was sent back to work (outcome: "
                    + "continue) and the session ended after " + plural(state.turns(), "turn") + " without another.");
        }
        String reason = state.autopilotStopReason() == null ? "" : " (autopilot stop reason: " + state.autopilotStopReason() + ")";
        return new SessionOutcome(Outcome.INCOMPLETE, "The session ended without task_complete after "
                + plural(state.turns(), "turn") + reason + ".");
    }

    private static String describeExit(int exit) {
        if (exit > 128 && exit < 160) {
            return "The Copilot CLI was killed by signal " + (exit - 128) + " (exit code " + exit + ")";
        }
        return "The Copilot CLI exited with code " + exit;
    }

    private static String lastWords(String stderr) {
        if (Texts.isBlank(stderr)) {
            return ".";
        }
        return ": " + Texts.truncate(Texts.oneLine(stderr), MAX_DETAIL);
    }

    static String plural(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
