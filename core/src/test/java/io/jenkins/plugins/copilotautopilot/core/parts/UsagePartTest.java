package io.jenkins.plugins.copilotautopilot.core.parts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.render.LogLines;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.session.UsageRecord;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The usage part's own lines, journal records and warning, each from one model call's record. */
class UsagePartTest {
    private final ListLogSink sink = new ListLogSink(false);
    private final List<String> journal = new ArrayList<>();
    private final List<JsonNode> records = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final PartContext context = new PartContext(new LogLines(sink, SecretMasker.none(), true), SecretMasker.none(),
            new SessionTracker(), (type, data) -> {
                journal.add(type);
                records.add(data);
            }, warnings::add);

    @Test
    void eachCallIsALineAndARecordAndAnUnreportedAmountIsLeftOutNotZero() {
        UsagePart usage = new UsagePart(Commands.of(TaskSpec.of("x").githubToken("t0ken-value")).plan(), context);
        usage.onUsage(new UsageRecord(1, "gpt-5", 1000, 20, 0, 0, 1, 900, 2_500_000_000L));
        usage.onUsage(new UsageRecord(2, "gpt-5", 1000, 20, 0, 0, 0, 900, null));

        assertThat(sink.lines()).containsExactly(
                "[copilot]   tokens (turn 1): 1,000 in, 20 out | premium requests: 1 | AI credits: 2.5",
                "[copilot]   tokens (turn 2): 1,000 in, 20 out");
        assertThat(journal).containsExactly("autopilot.usage", "autopilot.usage");
        assertThat(records.get(0).path("aiCredits").asDouble()).isEqualTo(2.5);
        assertThat(records.get(1).has("aiCredits")).isFalse();
        assertThat(warnings).isEmpty();
    }

    @Test
    void withModelAutoEachLineNamesItsModelAndAMissingRoutingIsOneWarning() {
        UsagePart usage = new UsagePart(Commands.of(TaskSpec.of("x").githubToken("t0ken-value").set(SessionSettings.MODEL, "auto"))
                .plan(), context);
        usage.onUsage(new UsageRecord(1, "gpt-5", 10, 2, 0, 0, 1, 900, null));
        usage.onUsage(new UsageRecord(2, "gpt-5", 10, 2, 0, 0, 1, 900, null));

        assertThat(sink.lines()).first().asString().endsWith("| model: gpt-5 | premium requests: 1");
        assertThat(warnings).containsExactly("WARNING: model 'auto': GitHub's routing did not choose a model for turn 1, so the"
                + " Copilot CLI used its default model, gpt-5, instead.");
    }
}
