package io.jenkins.plugins.copilotautopilot.core.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A chunk's wire form: every field comes back as it was, and a stream that does not hold what it says is an error. */
class HandedOverChunkTest {

    @Test
    void everyFieldComesBackAsItWas() throws Exception {
        HandedOverChunk chunk = new HandedOverChunk(12_345_678_901L, bytes("{\"type\":\"assistant.turn_start\"}\n"), 7,
                bytes("warning: ü\n"), 4_096, bytes("{\"usage\":1}\n"), 4_200);
        chunk.launchError = "cannot run /opt/copilot (Permission denied) — ünïcode";
        chunk.changesStatus = bytes("M\0a.txt\0");
        chunk.changesNumstat = bytes("1\t0\ta.txt\0");
        chunk.changesPatch = bytes("diff --git a/a.txt b/a.txt\n");
        chunk.keptSession = new byte[HandedOverChunk.PIECE * 2 + 17]; // read back in pieces
        Arrays.fill(chunk.keptSession, (byte) 7);
        chunk.keptSessionSize = chunk.keptSession.length;
        chunk.spans = bytes("{\"name\":\"invoke_agent\"}\n");
        chunk.approvals(List.of(new ApprovalGate.Request("1", "bash: git push"), new ApprovalGate.Request("2", "x".repeat(70_000))));
        chunk.foldersNotDeleted = "permission denied for /w@tmp/roots/file (the agent runs as jenkins)";

        HandedOverChunk back = read(write(chunk));

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
        assertEquals(chunk.foldersNotDeleted, back.foldersNotDeleted);
        assertTrue(back.tellsOfFolders());
        HandedOverChunk deleted = new HandedOverChunk(1, HandedOverChunk.NONE, 2, HandedOverChunk.NONE, 3, HandedOverChunk.NONE, 0);
        deleted.foldersDeleted = true;
        assertTrue(read(write(deleted)).foldersDeleted);
    }

    @Test
    void whatWasNotSetStaysUnsetAndAnEmptyChunkStaysEmpty() throws Exception {
        HandedOverChunk back = read(write(new HandedOverChunk(5, HandedOverChunk.NONE, 6, HandedOverChunk.NONE, 7, HandedOverChunk.NONE, 0)));

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
        assertFalse(back.tellsOfFolders(), "no news of the folders");
        HandedOverChunk none = new HandedOverChunk(0, HandedOverChunk.NONE, 0, HandedOverChunk.NONE, 0, HandedOverChunk.NONE, 0);
        none.approvals(List.of());
        assertEquals(List.of(), read(write(none)).approvals(), "an empty list of approvals stays a list");
    }

    @Test
    void aStreamCutShortIsAnErrorNotAChunkWithSomethingMissing() throws Exception {
        HandedOverChunk chunk = new HandedOverChunk(1, bytes("{\"type\":\"session.start\"}\n"), 2, bytes("e\n"), 3, HandedOverChunk.NONE, 0);
        chunk.launchError = "the launch files are gone";
        byte[] wire = write(chunk);

        for (int cut : new int[] {wire.length - 1, wire.length - 10, wire.length / 2}) {
            byte[] shorter = Arrays.copyOf(wire, cut);
            assertThrows(IOException.class, () -> read(shorter), "cut at " + cut + " of " + wire.length);
        }
    }

    @Test
    void aLengthTheStreamDoesNotHoldFailsWithoutReservingIt() throws Exception {
        HandedOverChunk chunk = new HandedOverChunk(0, HandedOverChunk.NONE, 0, HandedOverChunk.NONE, 0, HandedOverChunk.NONE, 0);
        chunk.keptSession = bytes("KEPT!");
        byte[] wire = write(chunk);
        // the kept session's length, 5, made into nearly 2 GiB: an agent's stream may say anything
        byte[] marker = {0, 0, 0, 5, 'K', 'E', 'P', 'T', '!'};
        int at = indexOf(wire, marker);
        assertTrue(at > 0, "the kept session's length in the stream");
        wire[at] = 0x7f;
        wire[at + 1] = (byte) 0xff;
        wire[at + 2] = (byte) 0xff;
        wire[at + 3] = (byte) 0xf0;

        assertThrows(IOException.class, () -> read(wire), "an I/O error, not an OutOfMemoryError");
    }

    @Test
    void aChunkWithoutItsOutputErrorsOrUsageIsRefused() throws Exception {
        HandedOverChunk chunk = new HandedOverChunk(0, null, 0, HandedOverChunk.NONE, 0, HandedOverChunk.NONE, 0);

        assertThrows(java.io.InvalidObjectException.class, () -> read(write(chunk)));
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] write(HandedOverChunk chunk) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            chunk.writeTo(out);
        }
        return bytes.toByteArray();
    }

    private static HandedOverChunk read(byte[] wire) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(wire))) {
            return new HandedOverChunk(in);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
