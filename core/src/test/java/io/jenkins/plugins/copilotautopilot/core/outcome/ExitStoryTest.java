package io.jenkins.plugins.copilotautopilot.core.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CLI's own story of how it ended is not the outcome: after a SIGTERM its {@code result} line says exit code 0 while
 * the process exits 143 (124 through {@code timeout}), and at the continuation cap it exits 0 without a completed task
 * (docs: the GitHub path reference, "Timeout / SIGTERM" and "Autopilot continuation cap"). The lines are CLI 1.0.102's.
 */
class ExitStoryTest {
    /** The start of a session in the model's retry back-off (captures/cli-error500, up to the second retry). */
    private static final List<String> IN_BACKOFF = Captures.stdoutText("cli-error500").lines().limit(16).toList();
    private static final String ABORTED = "{\"type\": \"session.autopilot_stopped\", \"data\": {\"reason\": \"aborted\", \"requestId\":"
            + " \"427f16a0-2570-458e-8dbb-cf26e0e4235e\"}, \"ephemeral\": true, \"id\": \"a1\", \"timestamp\": \"2026-12-06T10:00:08.000Z\"}";
    private static final String ABORTED_IDLE = "{\"type\": \"assistant.idle\", \"data\": {\"aborted\": true}, \"ephemeral\": true,"
            + " \"id\": \"a2\", \"timestamp\": \"2026-12-06T10:00:08.001Z\"}";
    private static final String CANCELLATION = "{\"type\": \"session.info\", \"data\": {\"infoType\": \"cancellation\", \"message\":"
            + " \"Operation cancelled by user\"}, \"ephemeral\": true, \"id\": \"a3\", \"timestamp\": \"2026-12-06T10:01:30.000Z\"}";
    private static final String RESULT_0 = "{\"type\": \"result\", \"timestamp\": \"2026-12-06T10:00:08.010Z\", \"sessionId\":"
            + " \"cff83f7d-f460-4993-8899-e715d444e588\", \"exitCode\": 0, \"usage\": {\"premiumRequests\": 0, \"totalApiDurationMs\": 0,"
            + " \"sessionDurationMs\": 8012, \"codeChanges\": {\"linesAdded\": 0, \"linesRemoved\": 0, \"filesModified\": []}}}";

    private static SessionState stateAfter(List<String> lines) {
        SessionTracker tracker = new SessionTracker();
        EventParser parser = new EventParser();
        lines.forEach(l -> tracker.accept(parser.parse(l)));
        return tracker.state();
    }

    private static List<String> backoffThen(String... tail) {
        return java.util.stream.Stream.concat(IN_BACKOFF.stream(), java.util.Arrays.stream(tail)).toList();
    }

    @Test
    void aSigtermFromOutsideFailsWhateverTheResultLineSays() {
        SessionState state = stateAfter(backoffThen(ABORTED, ABORTED_IDLE, RESULT_0));
        assertThat(state.result().exitCode()).isZero();
        assertThat(OutcomeDecider.decide(state, ProcessEnd.exited(143, null, true)))
                .isEqualTo(new SessionOutcome(Outcome.FAILED, "The Copilot CLI was killed by signal 15 (exit code 143)."));
    }

    @Test
    void aCancelledSessionFailsEvenWhenTheProcessExitsZero() {
        // a wrapper that reports the CLI's own exit code, or a process whose exit status was lost
        assertThat(OutcomeDecider.decide(stateAfter(backoffThen(ABORTED, ABORTED_IDLE, RESULT_0)), ProcessEnd.exited(0, null, true)))
                .isEqualTo(new SessionOutcome(Outcome.FAILED, "The Copilot CLI cancelled the session after 1 turn: something other"
                        + " than this step stopped it (exit code 0)."));
        // plain timeout: a cancellation notice and the result line, no autopilot_stopped
        assertThat(OutcomeDecider.decide(stateAfter(backoffThen(CANCELLATION, RESULT_0)), ProcessEnd.exited(0, null, true)).outcome())
                .isEqualTo(Outcome.FAILED);
        assertThat(OutcomeDecider.decide(stateAfter(backoffThen(CANCELLATION, RESULT_0)), ProcessEnd.exited(124, null, true)))
                .isEqualTo(new SessionOutcome(Outcome.FAILED, "The Copilot CLI exited with code 124."));
    }

    @Test
    void aStopThisStepAskedForStaysAbortedThoughTheCliSaysItCancelled() {
        SessionState state = stateAfter(backoffThen(ABORTED, ABORTED_IDLE, RESULT_0));
        assertThat(OutcomeDecider.decide(state, ProcessEnd.stopped(ProcessEnd.Termination.ABORTED, 143, null, "in turn 1")).outcome())
                .isEqualTo(Outcome.ABORTED);
    }

    @Test
    void theContinuationCapExitsZeroButIsIncomplete() {
        List<String> lines = Captures.stdoutText("cli-never-max2").lines().toList();
        assertThat(lines.get(lines.size() - 2)).contains("\"reason\": \"cap_reached\"");
        SessionState state = stateAfter(lines);
        assertThat(state.result().exitCode()).isZero();
        assertThat(OutcomeDecider.decide(state, ProcessEnd.exited(Captures.exitCode("cli-never-max2"), null, true)))
                .isEqualTo(new SessionOutcome(Outcome.INCOMPLETE, "The agent stopped without calling task_complete after 2 autopilot"
                        + " continuations (the maxAutopilotContinues limit)."));
    }
}
