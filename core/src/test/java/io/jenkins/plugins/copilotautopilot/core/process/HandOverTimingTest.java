package io.jenkins.plugins.copilotautopilot.core.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What is handed over at once (what a person waits for) and what waits for the hold (pieces of streamed text). */
class HandOverTimingTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final String DELTA = "{\"type\":\"assistant.message_delta\",\"data\":{\"messageId\":\"m\",\"deltaContent\":\"Hel\"}}\n";
    private static final String SHELL = "{\"type\": \"tool.shell_output\", \"data\": {\"text\": \"line\\n\"}}\n";
    private static final String TOOL_START = "{\"type\":\"tool.execution_start\",\"data\":{\"toolName\":\"bash\"}}\n";

    @Test
    void piecesOfAStreamWaitForTheHold() {
        HandOverTiming timing = new HandOverTiming(2_000, 0);
        byte[] first = bytes(DELTA + SHELL);
        assertFalse(timing.handOverNow(0, first, false, 1_000 * MS));
        assertEquals(0, timing.heldMillis(1_000 * MS));
        byte[] more = bytes(DELTA + SHELL + DELTA);
        assertFalse(timing.handOverNow(0, more, false, 2_999 * MS), "held since the first piece");
        assertEquals(1_999, timing.heldMillis(2_999 * MS));
        assertTrue(timing.handOverNow(0, more, false, 3_000 * MS), "the hold is over");
        timing.handedOver(more.length);
        assertEquals(0, timing.heldMillis(3_000 * MS));
        assertFalse(timing.handOverNow(more.length, bytes(DELTA), false, 3_100 * MS), "a new hold starts");
    }

    @Test
    void whatAPersonWaitsForGoesAtOnce() {
        HandOverTiming timing = new HandOverTiming(2_000, 0);
        assertFalse(timing.handOverNow(0, bytes(DELTA), false, 0));
        assertTrue(timing.handOverNow(0, bytes(DELTA + TOOL_START), false, MS), "a tool starts");
        timing.handedOver(bytes(DELTA + TOOL_START).length);

        long at = bytes(DELTA + TOOL_START).length;
        assertTrue(timing.handOverNow(at, bytes("plain text the CLI printed\n"), false, 2 * MS), "a line that is no event");
        assertTrue(timing.handOverNow(at, bytes("{\"data\":{},\"type\":\"tool.shell_output\"}\n"), false, 2 * MS),
                "an event whose type does not come first");
        assertTrue(timing.handOverNow(at, bytes(""), true, 2 * MS), "errors, usage records, approvals");
        assertFalse(timing.handOverNow(at, bytes(""), false, 2 * MS), "nothing");
    }

    @Test
    void aLineStillBeingWrittenWaitsForItsEnd() {
        HandOverTiming timing = new HandOverTiming(2_000, 0);
        String half = TOOL_START.substring(0, 20);
        assertFalse(timing.handOverNow(0, bytes(DELTA + half), false, 0));
        assertTrue(timing.handOverNow(0, bytes(DELTA + TOOL_START), false, 10 * MS), "judged once whole");
    }

    @Test
    void linesAlreadyJudgedAreNotReadAgain() {
        HandOverTiming timing = new HandOverTiming(2_000, 0);
        byte[] pieces = bytes(DELTA.repeat(3));
        assertFalse(timing.handOverNow(0, pieces, false, 0));
        // the same bytes read again with more after them; were the first ones judged again, this one would be too
        byte[] grown = bytes(DELTA.repeat(3) + SHELL);
        pieces[0] = 'x'; // a judged line changed under the timing: not looked at again
        System.arraycopy(pieces, 0, grown, 0, 1);
        assertFalse(timing.handOverNow(0, grown, false, MS));
    }

    @Test
    void aReadThatStartsInsideALineGoesAtOnce() {
        HandOverTiming timing = new HandOverTiming(2_000, 0);
        String line = TOOL_START;
        timing.handedOver(10); // the first 10 bytes of the line went with the chunk before
        assertTrue(timing.handOverNow(10, bytes(line.substring(10)), false, 0));
    }

    @Test
    void streamedTypesAreTheCliEphemeralPieces() {
        for (String type : HandOverTiming.STREAMED) {
            assertTrue(HandOverTiming.isStreamedPiece(bytes("{\"type\":\"" + type + "\"}"), 0, type.length() + 11), type);
        }
        for (String type : new String[] {"assistant.turn_start", "assistant.turn_end", "assistant.message", "tool.execution_complete",
            "session.task_complete", "session.error", "assistant.usage", "session.idle", "assistant.idle", "abort", "result"}) {
            byte[] line = bytes("{\"type\":\"" + type + "\"}");
            assertFalse(HandOverTiming.isStreamedPiece(line, 0, line.length), type);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
