package io.jenkins.plugins.copilotautopilot.core.otel;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The CLI's span file put under the build's trace, as measured lines of CLI 1.0.102's file exporter look. */
class SpanFileTest {
    private static final String FILE = String.join("\n",
            "{\"type\":\"span\",\"traceId\":\"9055369b8ef58e129aeb63ad4de29cb8\",\"spanId\":\"367aee63d21e981a\",\"name\":\"invoke_agent\",\"attributes\":{}}",
            "{\"type\":\"span\",\"traceId\":\"9055369b8ef58e129aeb63ad4de29cb8\",\"spanId\":\"2c8512896107c3ec\",\"parentSpanId\":\"367aee63d21e981a\","
                    + "\"name\":\"chat fake-model\",\"attributes\":{\"gen_ai.request.model\":\"fake-model\",\"note\":\"key sk-secret-1\"}}",
            "not json",
            "{\"type\":\"metric\",\"name\":\"gen_ai.client.operation.duration\"}",
            "");

    @Test
    void spansGoUnderTheGivenTraceAndRunsUnderTheGivenSpanMasked() {
        TraceParent parent = TraceParent.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        String out = new String(SpanFile.adopt(FILE.getBytes(StandardCharsets.UTF_8), parent, s -> s.replace("sk-secret-1", "****")),
                StandardCharsets.UTF_8);

        assertThat(out.lines()).hasSize(3);
        assertThat(out).doesNotContain("9055369b8ef58e129aeb63ad4de29cb8").doesNotContain("sk-secret-1").contains("key ****");
        assertThat(out.lines().toList().get(0)).contains("\"traceId\":\"0af7651916cd43dd8448eb211c80319c\"")
                .contains("\"parentSpanId\":\"b7ad6b7169203331\"");
        assertThat(out.lines().toList().get(1)).contains("\"parentSpanId\":\"367aee63d21e981a\"");
        assertThat(SpanFile.count(out.getBytes(StandardCharsets.UTF_8))).isEqualTo(new SpanFile.Counts(2, 1, 1, 0, 1));
    }

    @Test
    void withoutATraceParentTheTraceIsTheClis() {
        String out = new String(SpanFile.adopt(FILE.getBytes(StandardCharsets.UTF_8), null, s -> s), StandardCharsets.UTF_8);
        assertThat(out).contains("9055369b8ef58e129aeb63ad4de29cb8").doesNotContain("\"parentSpanId\":\"b7ad");
    }

    @Test
    void onlyAValidTraceParentCounts() {
        assertThat(TraceParent.parse("00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01"))
                .isEqualTo(new TraceParent("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"));
        assertThat(TraceParent.parse(null)).isNull();
        assertThat(TraceParent.parse("garbage")).isNull();
        assertThat(TraceParent.parse("00-00000000000000000000000000000000-b7ad6b7169203331-01")).isNull();
        assertThat(TraceParent.parse("00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01")).isNull();
        assertThat(TraceParent.parse("ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).isNull();
    }
}
