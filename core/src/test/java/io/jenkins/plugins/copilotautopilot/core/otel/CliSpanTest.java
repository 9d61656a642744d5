package io.jenkins.plugins.copilotautopilot.core.otel;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CLI's span file read back to be recorded under the step span: each span after its parent, values typed. */
class CliSpanTest {
    // as CLI 1.0.102's file exporter writes them: children end, and are written, before their parent
    private static final String FILE = String.join("\n",
            "{\"type\":\"span\",\"traceId\":\"t\",\"spanId\":\"tool1\",\"parentSpanId\":\"run1\",\"name\":\"execute_tool bash\",\"kind\":0,"
                    + "\"startTime\":[1796221544,489000000],\"endTime\":[1796221544,587000000],"
                    + "\"attributes\":{\"gen_ai.tool.name\":\"bash\",\"process.exit.code\":0},\"status\":{\"code\":2,\"message\":\"exit 1\"},"
                    + "\"events\":[{\"name\":\"e\",\"attributes\":{\"k\":true},\"time\":[1796221544,558000000]}]}",
            "{\"type\":\"span\",\"traceId\":\"t\",\"spanId\":\"chat1\",\"parentSpanId\":\"run1\",\"name\":\"chat demo-model\",\"kind\":2,"
                    + "\"startTime\":[1796221544,343000000],\"endTime\":[1796221544,478000000],"
                    + "\"attributes\":{\"gen_ai.usage.input_tokens\":1200,\"github.copilot.cost\":0.5,\"gen_ai.request.stream\":true,"
                    + "\"gen_ai.response.finish_reasons\":[\"tool_calls\"],\"mixed\":[1,\"a\"],\"nested\":{\"a\":1}},\"status\":{\"code\":0},\"events\":[]}",
            "{\"type\":\"metric\",\"name\":\"gen_ai.client.operation.duration\"}",
            "not json",
            "{\"type\":\"span\",\"spanId\":\"nostart\",\"name\":\"x\"}",
            "{\"type\":\"span\",\"traceId\":\"t\",\"spanId\":\"run1\",\"parentSpanId\":\"b7ad6b7169203331\",\"name\":\"invoke_agent\",\"kind\":0,"
                    + "\"startTime\":[1796221544,263000000],\"endTime\":[1796221544,754000000],\"attributes\":{},\"status\":{\"code\":0}}",
            "");

    @Test
    void eachSpanComesAfterItsParentAndSiblingsByStart() {
        List<CliSpan> spans = CliSpan.inParentOrder(FILE.getBytes(StandardCharsets.UTF_8));

        assertThat(spans).extracting(CliSpan::spanId).containsExactly("run1", "chat1", "tool1");
        CliSpan run = spans.get(0);
        assertThat(run.parentSpanId()).isEqualTo("b7ad6b7169203331"); // the step span's: not in the file, so a root here
        assertThat(run.startEpochNanos()).isEqualTo(1796221544_263000000L);
        assertThat(run.endEpochNanos()).isEqualTo(1796221544_754000000L);
    }

    @Test
    void kindsStatusesAttributesAndEventsAreTyped() {
        List<CliSpan> spans = CliSpan.inParentOrder(FILE.getBytes(StandardCharsets.UTF_8));
        CliSpan chat = spans.get(1);
        CliSpan tool = spans.get(2);

        assertThat(chat.kind()).isEqualTo("CLIENT");
        assertThat(chat.error()).isFalse();
        assertThat(chat.attributes()).containsEntry("gen_ai.usage.input_tokens", 1200L).containsEntry("github.copilot.cost", 0.5)
                .containsEntry("gen_ai.request.stream", true).containsEntry("gen_ai.response.finish_reasons", List.of("tool_calls"))
                .doesNotContainKeys("mixed", "nested");
        assertThat(tool.kind()).isEqualTo("INTERNAL");
        assertThat(tool.error()).isTrue();
        assertThat(tool.statusMessage()).isEqualTo("exit 1");
        assertThat(tool.events()).containsExactly(new CliSpan.Event("e", 1796221544_558000000L, java.util.Map.of("k", true)));
    }

    @Test
    void aSpanNamingItselfOrRepeatedIsRecordedOnce() {
        String file = "{\"type\":\"span\",\"spanId\":\"a\",\"parentSpanId\":\"a\",\"name\":\"x\",\"startTime\":[1,0]}\n"
                + "{\"type\":\"span\",\"spanId\":\"a\",\"name\":\"x\",\"startTime\":[2,0]}\n";
        assertThat(CliSpan.inParentOrder(file.getBytes(StandardCharsets.UTF_8))).hasSize(1);
    }
}
