package io.jenkins.plugins.copilotautopilot.core.outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BuildVerdictTest {
    @Test
    void outcomesMapToBuildResults() {
        for (ResultWhenIncomplete choice : ResultWhenIncomplete.values()) {
            assertThat(BuildVerdict.of(Outcome.COMPLETED, choice)).isEqualTo(BuildVerdict.SUCCESS);
            assertThat(BuildVerdict.of(Outcome.FAILED, choice)).isEqualTo(BuildVerdict.FAILURE);
            assertThat(BuildVerdict.of(Outcome.TIMED_OUT, choice)).isEqualTo(BuildVerdict.FAILURE);
            assertThat(BuildVerdict.of(Outcome.STALLED, choice)).isEqualTo(BuildVerdict.FAILURE);
            assertThat(BuildVerdict.of(Outcome.ABORTED, choice)).isEqualTo(BuildVerdict.ABORTED);
        }
        assertThat(BuildVerdict.of(Outcome.INCOMPLETE, ResultWhenIncomplete.FAILURE)).isEqualTo(BuildVerdict.FAILURE);
        assertThat(BuildVerdict.of(Outcome.INCOMPLETE, ResultWhenIncomplete.UNSTABLE)).isEqualTo(BuildVerdict.UNSTABLE);
        assertThat(BuildVerdict.of(Outcome.INCOMPLETE, ResultWhenIncomplete.SUCCESS)).isEqualTo(BuildVerdict.SUCCESS);
    }

    @Test
    void aBlockedAgentGivesItsOwnChoiceElseThatOfAnIncompleteTask() {
        assertThat(BuildVerdict.of(Outcome.BLOCKED, ResultWhenIncomplete.UNSTABLE)).isEqualTo(BuildVerdict.UNSTABLE);
        assertThat(BuildVerdict.of(Outcome.BLOCKED, ResultWhenIncomplete.UNSTABLE, null)).isEqualTo(BuildVerdict.UNSTABLE);
        assertThat(BuildVerdict.of(Outcome.BLOCKED, ResultWhenIncomplete.FAILURE, ResultWhenIncomplete.SUCCESS))
                .isEqualTo(BuildVerdict.SUCCESS);
        assertThat(BuildVerdict.of(Outcome.INCOMPLETE, ResultWhenIncomplete.FAILURE, ResultWhenIncomplete.SUCCESS))
                .isEqualTo(BuildVerdict.FAILURE);
        assertThat(Outcome.worst(java.util.List.of(Outcome.BLOCKED, Outcome.INCOMPLETE, Outcome.COMPLETED))).isEqualTo(Outcome.BLOCKED);
        assertThat(Outcome.worst(java.util.List.of(Outcome.BLOCKED, Outcome.ABORTED))).isEqualTo(Outcome.ABORTED);
    }

    @Test
    void theWorstOutcomeSpeaksForSeveralSessions() {
        assertThat(Outcome.worst(java.util.List.of(Outcome.COMPLETED, Outcome.INCOMPLETE))).isEqualTo(Outcome.INCOMPLETE);
        assertThat(Outcome.worst(java.util.List.of(Outcome.ABORTED, Outcome.FAILED, Outcome.COMPLETED))).isEqualTo(Outcome.FAILED);
        assertThat(Outcome.worst(java.util.List.of(Outcome.STALLED, Outcome.TIMED_OUT))).isEqualTo(Outcome.TIMED_OUT);
        assertThat(Outcome.worst(java.util.List.of())).isNull();
    }

    @Test
    void resultWhenIncompleteParsesUserValues() {
        assertThat(ResultWhenIncomplete.parse(null)).isEqualTo(ResultWhenIncomplete.FAILURE);
        assertThat(ResultWhenIncomplete.parse(" unstable ")).isEqualTo(ResultWhenIncomplete.UNSTABLE);
        assertThatThrownBy(() -> ResultWhenIncomplete.parse("maybe"))
                .hasMessage("resultWhenIncomplete must be FAILURE, UNSTABLE or SUCCESS; was 'maybe'.");
    }
}
