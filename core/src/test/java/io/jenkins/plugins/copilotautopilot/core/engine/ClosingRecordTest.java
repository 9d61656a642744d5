package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.output.Finding;
import io.jenkins.plugins.copilotautopilot.core.result.Activity;
import io.jenkins.plugins.copilotautopilot.core.result.Answer;
import io.jenkins.plugins.copilotautopilot.core.result.Changes;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import io.jenkins.plugins.copilotautopilot.core.result.ModelUsage;
import io.jenkins.plugins.copilotautopilot.core.result.Verification;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.ReplayLauncher;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ClosingRecordTest {
    private static final EventParser PARSER = new EventParser();

    /** The closing record of the journal the engine keeps for a capture. */
    private static JsonNode closingRecordOf(String capture) {
        ByteArrayOutputStream journal = new ByteArrayOutputStream();
        AutopilotEngine.builder(new ListLogSink(false)).journalTo(journal).build()
                .run(Commands.simple(), ReplayLauncher.ofCapture(capture));
        return journal.toString(StandardCharsets.UTF_8).lines()
                .map(PARSER::parse)
                .filter(l -> l instanceof CliEvent e && EventJournal.RUN_FINISHED.equals(e.type()))
                .map(l -> ((CliEvent) l).data())
                .findFirst().orElseThrow();
    }

    private static JsonNode asJson(SessionResult result) {
        return EventParser.mapper().valueToTree(result.toMap());
    }

    @ParameterizedTest
    @ValueSource(strings = {"cli-happy", "cli-nudge", "cli-error400", "cli-perm-autopilot-noallow"})
    void theResultOfARealSessionComesBackAsItWasJournaled(String capture) {
        JsonNode closing = closingRecordOf(capture);

        assertThat(asJson(ClosingRecord.read(closing)).toString()).isEqualTo(closing.toString());
    }

    @Test
    void everyPartComesBackServiceFailureChangesAnswerAndFindingsIncluded() {
        SessionResult result = new SessionResult(
                new Ending(Outcome.FAILED, "GitHub refused", "did half", null,
                        new ServiceFailure(ServiceFailure.Kind.RATE_LIMITED, "rate_limited", 429, true, "wait"), 1, 4200, "s-1", "gpt-5"),
                new Activity(3, 4, 1, 1, 0, 2, List.of("https://example.invalid/"), 1),
                new ModelUsage(1.0, 2.5, "reported", 3000L, 60L, 10L),
                new Changes(5, 2, 1, List.of(new ChangedFile("a.txt", "M", 5L, 2L)), null, false),
                new Verification(false, 2, 3),
                new Answer("{\"verdict\":\"ok\",\"findings\":[]}", 1, List.of(new Finding("a.txt", 2, 4, Finding.Severity.HIGH, "m", "r", "c"))),
                List.of("a warning"));

        SessionResult back = ClosingRecord.read(asJson(result));

        assertThat(back).isEqualTo(result);
    }

    @Test
    void anOutcomeThisVersionDoesNotKnowReadsAsNone() {
        assertThat(ClosingRecord.read(EventParser.mapper().createObjectNode().put("outcome", "LATER"))).isNull();
    }
}
