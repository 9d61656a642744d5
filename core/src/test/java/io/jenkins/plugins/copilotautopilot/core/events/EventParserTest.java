package io.jenkins.plugins.copilotautopilot.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EventParserTest {
    private final EventParser parser = new EventParser();

    @Test
    void parsesAnEvent() {
        StreamLine line = parser.parse("{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"0\"},\"ephemeral\":true,"
                + "\"timestamp\":\"2026-11-30T07:58:47.390Z\"}");
        assertThat(line).isInstanceOf(CliEvent.class);
        CliEvent event = (CliEvent) line;
        assertThat(event.type()).isEqualTo("assistant.turn_start");
        assertThat(event.dataText("turnId")).isEqualTo("0");
        assertThat(event.ephemeral()).isTrue();
        assertThat(event.timestamp()).hasToString("2026-11-30T07:58:47.390Z");
    }

    @Test
    void unknownTypesAreEventsToo() {
        assertThat(parser.parse("{\"type\":\"some.future_event\",\"data\":{}}")).isInstanceOf(CliEvent.class);
    }

    @Test
    void anythingElseIsPlainOutput() {
        for (String text : new String[] {"Warning: something", "{not json", "[1,2]", "42", "{\"no\":\"type\"}",
                "{\"type\":7}", "{\"type\":\"x\"} trailing", "\0\0"}) {
            assertThat(parser.parse(text)).as(text).isInstanceOf(PlainOutput.class);
            assertThat(parser.parse(text).raw()).isEqualTo(text);
        }
    }

    @Test
    void missingFieldsReadAsAbsent() {
        CliEvent event = (CliEvent) parser.parse("{\"type\":\"tool.execution_complete\"}");
        assertThat(event.data().isMissingNode()).isTrue();
        assertThat(event.dataText("toolCallId")).isNull();
        assertThat(event.timestamp()).isNull();
        assertThat(event.ephemeral()).isFalse();
    }

    @Test
    void aTruncatedEventLineKeepsItsTypeWhenReadable() {
        PlainOutput plain = (PlainOutput) parser.parse("{\"type\":\"tool.execution_complete\",\"data\":{\"result\":\"xxxx", 50_000_000L, true);
        assertThat(plain.truncated()).isTrue();
        assertThat(plain.eventType()).isEqualTo("tool.execution_complete");
        assertThat(plain.originalBytes()).isEqualTo(50_000_000L);
        assertThat(((PlainOutput) parser.parse("garbage", 10, true)).eventType()).isNull();
    }
}
