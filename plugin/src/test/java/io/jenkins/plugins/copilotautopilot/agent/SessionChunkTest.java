package io.jenkins.plugins.copilotautopilot.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import io.jenkins.plugins.copilotautopilot.core.process.HandedOverChunk;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A chunk crosses the channel as its wire (the engine's form, {@code HandedOverChunkTest}, inside this plugin's
 * class) and comes back as the chunk it was. No Jenkins needed.
 */
class SessionChunkTest {

    @Test
    void aChunkComesBackAsTheChunkItWasWithItsLastFields() throws Exception {
        SessionChunk chunk = new SessionChunk(40, bytes("{}\n"), 2, bytes("e\n"), 90, bytes("{\"usage\":2}\n"), 12);
        chunk.launchError = "the launch files are gone";
        chunk.changesPatch = bytes("diff --git a/b b/b\n");
        chunk.keptSessionSize = 42;
        chunk.approvals(List.of(new ApprovalGate.Request("7", "bash: rm -rf build")));

        SessionChunk back = (SessionChunk) deserialize(serialize(chunk));

        assertEquals(chunk.outputStart, back.outputStart);
        assertArrayEquals(chunk.output, back.output);
        assertArrayEquals(chunk.usage, back.usage);
        assertEquals(chunk.usageConsumed, back.usageConsumed);
        assertEquals(chunk.launchError, back.launchError);
        assertArrayEquals(chunk.changesPatch, back.changesPatch);
        assertEquals(42, back.keptSessionSize);
        assertEquals(chunk.approvals(), back.approvals());
    }

    @Test
    void theStreamNamesNeitherTheFieldsNorAClassOfTheEngine() throws Exception {
        byte[] wire = serialize(new SessionChunk(1, bytes("{}\n"), 2, SessionChunk.NONE, 3, SessionChunk.NONE, 0));
        String text = new String(wire, StandardCharsets.ISO_8859_1);

        for (String field : List.of("outputStart", "stderrStart", "usageConsumed", "launchError", "changesPatch", "keptSession",
                "approvalTexts", "spans")) {
            assertFalse(text.contains(field), field + " is named in the stream");
        }
        assertTrue(text.contains(SessionChunk.Wire.class.getName()), "one class descriptor: the wire form's");
        // the controller's class filter refuses the bundled engine jar's classes
        assertFalse(text.contains(HandedOverChunk.class.getName()), "the engine's class is named in the stream");
        assertFalse(text.contains("copilotautopilot.core."), "a class of the engine is named in the stream");
    }

    @Test
    void aStreamCutShortIsAnErrorNotAChunkWithSomethingMissing() throws Exception {
        SessionChunk chunk = new SessionChunk(1, bytes("{\"type\":\"session.start\"}\n"), 2, bytes("e\n"), 3, SessionChunk.NONE, 0);
        chunk.launchError = "the launch files are gone";
        byte[] wire = serialize(chunk);

        byte[] shorter = Arrays.copyOf(wire, wire.length - 10);
        assertThrows(IOException.class, () -> deserialize(shorter));
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
