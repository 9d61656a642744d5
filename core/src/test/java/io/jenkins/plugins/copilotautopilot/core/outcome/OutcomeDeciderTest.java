package io.jenkins.plugins.copilotautopilot.core.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.ProcessEnd.Termination;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.SessionError;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutcomeDeciderTest {
    private static final ResultInfo RESULT = new ResultInfo("s1", 0, 1.0, 10L, 100L, 0, 0, 0, List.of());

    static SessionState state(boolean taskComplete, String summary, Boolean success, SessionError error, String stopReason,
                              ResultInfo result) {
        return new SessionState(10, 0, 2, 1, 0, 0, 1, 1, 0, taskComplete, summary, success, error, stopReason, true,
                result, "m", null, null, "between turns (after turn 2)");
    }

    private static SessionOutcome exited(SessionState state, int exit) {
        return OutcomeDecider.decide(state, ProcessEnd.exited(exit, null, true));
    }

    @Test
    void completedNeedsASummaryAndNoFailure() {
        assertThat(exited(state(true, "Done", true, null, "task_complete", RESULT), 0).outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(exited(state(true, "Done", null, null, "task_complete", RESULT), 0).outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(exited(state(true, "  ", true, null, "task_complete", RESULT), 0))
                .isEqualTo(new SessionOutcome(Outcome.INCOMPLETE, "The agent called task_complete without a summary."));
        assertThat(exited(state(true, "Done", false, null, "task_complete", RESULT), 0).outcome()).isEqualTo(Outcome.INCOMPLETE);
    }

    private static SessionState said(String outcome, String blocker) {
        return new SessionState(10, 0, 2, 1, 0, 0, 1, 1, 0, !"continue".equals(outcome), "continue".equals(outcome) ? null : "Done",
                true, null, "task_complete", true, RESULT, "m", null, null, "between turns (after turn 2)", outcome, blocker);
    }

    @Test
    void theAgentsBlockedOutcomeIsBlockedWithoutItsWordsInTheReason() {
        assertThat(exited(said("blocked", "missing_access: No access to the registry."), 0)).isEqualTo(new SessionOutcome(
                Outcome.BLOCKED, "The agent called task_complete saying it is blocked after 2 turns."));
        assertThat(exited(said("blocked", null), 0)).isEqualTo(new SessionOutcome(
                Outcome.BLOCKED, "The agent called task_complete saying it is blocked after 2 turns (it named no blocker)."));
        assertThat(exited(said("completed", null), 0).outcome()).isEqualTo(Outcome.COMPLETED);
    }

    @Test
    void aCompletionSentBackOrOfAnUnknownKindIsNoCompletion() {
        assertThat(exited(said("continue", null), 0)).isEqualTo(new SessionOutcome(Outcome.INCOMPLETE,
                "The agent's last task_complete was sent back to work (outcome: continue) and the session ended after 2 turns"
                        + " without another."));
        assertThat(exited(said("handed_off\n<b>", null), 0)).isEqualTo(new SessionOutcome(Outcome.INCOMPLETE,
                "The agent called task_complete with the outcome 'handed_off <b>', which this version does not take for a completion."));
    }

    @Test
    void aStopOrAFailureWinsOverABlockedCompletion() {
        assertThat(exited(said("blocked", "x"), 1).outcome()).isEqualTo(Outcome.FAILED);
        assertThat(OutcomeDecider.decide(said("blocked", "x"), ProcessEnd.stopped(Termination.ABORTED, null, null, null)).outcome())
                .isEqualTo(Outcome.ABORTED);
    }

    @Test
    void aSummaryWithoutAVisibleCharacterIsNoSummary() {
        String[] invisible = {"\u00A0", "\u2007", "\u202F", "\u200B", "\uFEFF", "\0", "\u2060", "\u00AD", "\u3000",
            "\u001B", "\u0085", " \t\n", "\u00A0\u200B\uFEFF\0\u202F\u2007 \n", "\uDB40\uDC20"};
        for (String summary : invisible) {
            assertThat(exited(state(true, summary, true, null, "task_complete", RESULT), 0))
                    .as("summary %s", summary.codePoints().mapToObj(c -> String.format("U+%04X", c)).toList())
                    .isEqualTo(new SessionOutcome(Outcome.INCOMPLETE, "The agent called task_complete without a summary."));
        }
        assertThat(exited(state(true, "\u00A0Done\u200B", true, null, "task_complete", RESULT), 0).outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(exited(state(true, "\u2714", true, null, "task_complete", RESULT), 0).outcome()).isEqualTo(Outcome.COMPLETED);
    }

    @Test
    void withoutTaskCompleteItIsIncomplete() {
        assertThat(exited(state(false, null, null, null, "cap_reached", RESULT), 0).reason())
                .isEqualTo("The agent stopped without calling task_complete after 1 autopilot continuation (the maxAutopilotContinues limit).");
        assertThat(exited(state(false, null, null, null, null, RESULT), 0))
                .isEqualTo(new SessionOutcome(Outcome.INCOMPLETE, "The session ended without task_complete after 2 turns."));
    }

    @Test
    void errorsAndBadExitsFail() {
        SessionError error = new SessionError("authentication", "bad token", 401);
        assertThat(exited(state(true, "Done", true, error, null, RESULT), 1).reason())
                .isEqualTo("The session failed with an authentication error (HTTP 401): bad token");
        assertThat(OutcomeDecider.decide(state(true, "Done", true, null, null, RESULT),
                ProcessEnd.exited(1, "Error: No authentication information found.", true)).reason())
                .isEqualTo("The Copilot CLI exited with code 1: Error: No authentication information found.");
        assertThat(exited(state(false, null, null, null, null, null), 137).reason())
                .isEqualTo("The Copilot CLI was killed by signal 9 (exit code 137).");
        assertThat(exited(state(true, "Done", true, null, null, null), 0).reason())
                .startsWith("The Copilot CLI output ended without a result line (exit code 0");
        assertThat(OutcomeDecider.decide(state(false, null, null, null, null, null), ProcessEnd.launchFailed("no such file")))
                .isEqualTo(new SessionOutcome(Outcome.FAILED, "Could not start the Copilot CLI: no such file"));
    }

    @Test
    void stopsWeCausedWinOverTheStream() {
        SessionState done = state(true, "Done", true, null, "task_complete", RESULT);
        assertThat(OutcomeDecider.decide(done, ProcessEnd.stopped(Termination.ABORTED, 143, null, "after the agent called task_complete")))
                .isEqualTo(new SessionOutcome(Outcome.ABORTED, "Aborted after the agent called task_complete; the Copilot CLI was stopped."));
        assertThat(OutcomeDecider.decide(done, ProcessEnd.stopped(Termination.TIMED_OUT, null, Duration.ofMinutes(30), "while x")).reason())
                .isEqualTo("Timed out after 30m (the wall-clock limit) while x; the Copilot CLI was stopped.");
        assertThat(OutcomeDecider.decide(done, ProcessEnd.stopped(Termination.STALLED, null, Duration.ofSeconds(90), "while y")).reason())
                .isEqualTo("No event from the Copilot CLI for 1m 30s (the inactivity limit) while y; the Copilot CLI was stopped.");
    }

    @Test
    void aStopTheCliNeverConfirmedIsNotCalledAStop() {
        SessionState running = state(false, null, false, null, null, null);
        assertThat(OutcomeDecider.decide(running, ProcessEnd.stopped(Termination.ABORTED, null, null, "while waiting for the model").asUnconfirmed()))
                .isEqualTo(new SessionOutcome(Outcome.ABORTED, "Aborted while waiting for the model;"
                        + " the Copilot CLI was asked to stop but did not confirm it: it may still be running."));
        assertThat(OutcomeDecider.decide(running, ProcessEnd.overBudget(null, "12 tokens used, limit 10", "in turn 1").asUnconfirmed()).reason())
                .endsWith("12 tokens used, limit 10; the Copilot CLI was asked to stop but did not confirm it: it may still be running.");
    }

    @Test
    void runnerExitCodes() {
        assertThat(Outcome.COMPLETED.exitCode()).isZero();
        assertThat(Outcome.INCOMPLETE.exitCode()).isEqualTo(2);
        assertThat(Outcome.FAILED.exitCode()).isEqualTo(1);
        assertThat(Outcome.TIMED_OUT.exitCode()).isEqualTo(124);
        assertThat(Outcome.STALLED.exitCode()).isEqualTo(124);
        assertThat(Outcome.ABORTED.exitCode()).isEqualTo(130);
    }
}
