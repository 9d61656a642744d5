package io.jenkins.plugins.copilotautopilot.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A chunk crosses the channel in its written-out form and comes back as the chunk it was. No Jenkins needed. */
class SessionChunkTest {

    @Test
    void everyFieldComesBackAsItWas() throws Exception {
        SessionChunk chunk = new SessionChunk(12_345_678_901L, bytes("{\"type\":\"assistant.turn_start\"}\n"), 7,
                bytes("warning: ü\n"), 4_096, bytes("{\"usage\":1}\n"), 4_200);
        chunk.launchError = "cannot run /opt/copilot (Permission denied) — ünïcode";
        chunk.changesStatus = bytes("M\0a.txt\0");
        chunk.changesNumstat = bytes("1\t0\ta.txt\0");
        chunk.changesPatch = bytes("diff --git a/a.txt b/a.txt\n");
        chunk.keptSession = new byte[SessionChunk.Wire.PIECE * 2 + 17]; // read back in pieces
        Arrays.fill(chunk.keptSession, (byte) 7);
        chunk.keptSessionSize = chunk.keptSession.length;
        chunk.spans = bytes("{\"name\":\"invoke_agent\"}\n");
        chunk.approvals(List.of(new ApprovalGate.Request("1", "bash: git push"), new ApprovalGate.Request("2", "x".repeat(70_000))));

        SessionChunk back = roundTrip(chunk);

        assertEquals(chunk.outputStart, back.outputStart);
        assertArrayEquals(chunk.output, back.output);
        assertEquals(chunk.stderrStart, back.stderrStart);
        assertArrayEquals(chunk.stderr, back.stderr);
        assertEquals(chunk.usageStart, back.usageStart);
        assertArrayEquals(chunk.usage, back.usage);
        assertEquals(chunk.usageConsumed, back.usageConsumed);
        assertEquals(chunk.launchError, back.launchError);
        assertArrayEquals(chunk.changesStatus, back.changesStatus);
        assertArrayEquals(chunk.changesNumstat, back.changesNumstat);
        assertArrayEquals(chunk.changesPatch, back.changesPatch);
        assertArrayEquals(chunk.keptSession, back.keptSession);
        assertEquals(chunk.keptSessionSize, back.keptSessionSize);
        assertArrayEquals(chunk.spans, back.spans);
        assertEquals(chunk.approvals(), back.approvals());
    }

    @Test
    void whatWasNotSetStaysUnsetAndAnEmptyChunkStaysEmpty() throws Exception {
        SessionChunk back = roundTrip(new SessionChunk(5, SessionChunk.NONE, 6, SessionChunk.NONE, 7, SessionChunk.NONE, 0));

        assertTrue(back.isEmpty());
        assertEquals(5, back.outputStart);
        assertEquals(6, back.stderrStart);
        assertEquals(7, back.usageStart);
        assertEquals(0, back.output.length);
        assertNull(back.launchError);
        assertNull(back.changesStatus);
        assertNull(back.changesNumstat);
        assertNull(back.changesPatch);
        assertNull(back.keptSession);
        assertEquals(0, back.keptSessionSize);
        assertNull(back.spans);
        assertNull(back.approvals(), "no news of approvals is not an empty list of them");
        SessionChunk none = new SessionChunk(0, SessionChunk.NONE, 0, SessionChunk.NONE, 0, SessionChunk.NONE, 0);
        none.approvals(List.of());
        assertEquals(List.of(), roundTrip(none).approvals(), "an empty list of approvals stays a list");
    }

    @Test
    void theStreamCarriesNoDescriptorOfTheFields() throws Exception {
        byte[] wire = serialize(new SessionChunk(1, bytes("{}\n"), 2, SessionChunk.NONE, 3, SessionChunk.NONE, 0));
        String text = new String(wire, StandardCharsets.ISO_8859_1);

        for (String field : List.of("outputStart", "stderrStart", "usageConsumed", "launchError", "changesPatch", "keptSession",
                "approvalTexts", "spans")) {
            assertFalse(text.contains(field), field + " is named in the stream");
        }
        assertTrue(text.contains(SessionChunk.Wire.class.getName()), "one class descriptor: the wire form's");
    }

    @Test
    void aStreamCutShortIsAnErrorNotAChunkWithSomethingMissing() throws Exception {
        SessionChunk chunk = new SessionChunk(1, bytes("{\"type\":\"session.start\"}\n"), 2, bytes("e\n"), 3, SessionChunk.NONE, 0);
        chunk.launchError = "the launch files are gone";
        byte[] wire = serialize(chunk);

        for (int cut : new int[] {wire.length - 1, wire.length - 10, wire.length / 2}) {
            byte[] shorter = Arrays.copyOf(wire, cut);
            assertThrows(IOException.class, () -> deserialize(shorter), "cut at " + cut + " of " + wire.length);
        }
    }

    @Test
    void aLengthTheStreamDoesNotHoldFailsWithoutReservingIt() throws Exception {
        SessionChunk chunk = new SessionChunk(0, SessionChunk.NONE, 0, SessionChunk.NONE, 0, SessionChunk.NONE, 0);
        chunk.keptSession = bytes("KEPT!");
        byte[] wire = serialize(chunk);
        // the kept session's length, 5, made into nearly 2 GiB: an agent's stream may say anything
        byte[] marker = {0, 0, 0, 5, 'K', 'E', 'P', 'T', '!'};
        int at = indexOf(wire, marker);
        assertTrue(at > 0, "the kept session's length in the stream");
        wire[at] = 0x7f;
        wire[at + 1] = (byte) 0xff;
        wire[at + 2] = (byte) 0xff;
        wire[at + 3] = (byte) 0xf0;

        assertThrows(IOException.class, () -> deserialize(wire), "an I/O error, not an OutOfMemoryError");
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void theAgentsReadOfAFolderCrossesAsTheChunkToo() throws Exception {
        SessionChunk chunk = new SessionChunk(9, bytes("x\n"), 0, SessionChunk.NONE, 0, SessionChunk.NONE, 0);
        PollCallable.Answer back = (PollCallable.Answer) deserialize(serialize(new PollCallable.Answer(chunk, 3, true)));

        assertEquals(9, back.chunk().outputStart);
        assertArrayEquals(bytes("x\n"), back.chunk().output);
        assertEquals(3, back.exitCode());
        assertTrue(back.folderExists());
        assertSame(SessionChunk.class, back.chunk().getClass());
    }

    private static SessionChunk roundTrip(SessionChunk chunk) throws Exception {
        return (SessionChunk) deserialize(serialize(chunk));
    }

    private static byte[] serialize(Object object) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        }
        return bytes.toByteArray();
    }

    private static Object deserialize(byte[] wire) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(wire))) {
            return in.readObject();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
