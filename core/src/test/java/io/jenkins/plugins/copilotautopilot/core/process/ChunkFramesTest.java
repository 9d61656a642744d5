package io.jenkins.plugins.copilotautopilot.core.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Hand-overs as a stream: every chunk comes out whole and in order however the stream was cut, and a bad length breaks it. */
class ChunkFramesTest {

    @Test
    void chunksComeBackInOrderHoweverTheStreamIsCut() throws Exception {
        List<HandedOverChunk> sent = new ArrayList<>();
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (int i = 0; i < 20; i++) {
            HandedOverChunk chunk = new HandedOverChunk(i * 100L, bytes("{\"type\":\"tool.shell_output\",\"n\":" + i + "}\n".repeat(i)),
                    i, bytes(i % 3 == 0 ? "warning " + i : ""), 5L * i, bytes(""), i % 2);
            if (i == 19) {
                chunk.launchError = "cannot start";
                chunk.keptSession = new byte[HandedOverChunk.PIECE + 3];
            }
            sent.add(chunk);
            stream.writeBytes(ChunkFrames.frame(chunk));
        }
        byte[] all = stream.toByteArray();
        Random random = new Random(42);
        for (int round = 0; round < 20; round++) {
            List<HandedOverChunk> got = new ArrayList<>();
            ChunkFrames.Splitter splitter = new ChunkFrames.Splitter(in -> got.add(new HandedOverChunk(in)));
            int at = 0;
            while (at < all.length) {
                // pieces of one byte, a few bytes, or most of the stream: a frame's length cut too
                int n = Math.min(all.length - at, round == 0 ? 1 : 1 + random.nextInt(round < 10 ? 9 : all.length));
                splitter.write(all, at, n);
                at += n;
            }
            assertFalse(splitter.isInsideFrame());
            assertEquals(sent.size(), got.size(), "round " + round);
            for (int i = 0; i < sent.size(); i++) {
                assertEquals(sent.get(i).outputStart, got.get(i).outputStart);
                assertArrayEquals(sent.get(i).output, got.get(i).output);
                assertArrayEquals(sent.get(i).stderr, got.get(i).stderr);
                assertEquals(sent.get(i).usageConsumed, got.get(i).usageConsumed);
                assertEquals(sent.get(i).launchError, got.get(i).launchError);
            }
            assertEquals(HandedOverChunk.PIECE + 3, got.get(19).keptSession.length);
        }
    }

    @Test
    void aStreamCutInsideAFrameSaysSo() throws Exception {
        byte[] frame = ChunkFrames.frame(new HandedOverChunk(0, bytes("abc\n"), 0, bytes(""), 0, bytes(""), 0));
        List<HandedOverChunk> got = new ArrayList<>();
        ChunkFrames.Splitter splitter = new ChunkFrames.Splitter(in -> got.add(new HandedOverChunk(in)));
        splitter.write(frame, 0, frame.length - 1);
        assertTrue(splitter.isInsideFrame());
        assertEquals(List.of(), got);
        splitter.write(frame, frame.length - 1, 1);
        assertFalse(splitter.isInsideFrame());
        assertEquals(1, got.size());
    }

    @Test
    void aLengthTheStreamCannotMeanBreaksIt() throws Exception {
        ChunkFrames.Splitter negative = new ChunkFrames.Splitter(in -> new HandedOverChunk(in));
        assertThrows(StreamCorruptedException.class, () -> negative.write(new byte[] {(byte) 0x80, 0, 0, 0}, 0, 4));
        IOException after = assertThrows(IOException.class, () -> negative.write(new byte[] {0}, 0, 1));
        assertTrue(after.getMessage().contains("broke before"), after.getMessage());

        ChunkFrames.Splitter huge = new ChunkFrames.Splitter(in -> new HandedOverChunk(in));
        assertThrows(StreamCorruptedException.class, () -> huge.write(new byte[] {0x7f, 0, 0, 0}, 0, 4));

        // a frame whose inside is not a chunk: the handler's error, and the stream is broken from then on
        ChunkFrames.Splitter garbage = new ChunkFrames.Splitter(in -> new HandedOverChunk(in));
        assertThrows(IOException.class, () -> garbage.write(new byte[] {0, 0, 0, 3, 1, 2, 3}, 0, 7));
        assertThrows(IOException.class, () -> garbage.write(ChunkFrames.frame(new HandedOverChunk(0, bytes(""), 0, bytes(""), 0, bytes(""), 0)), 0, 4));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
