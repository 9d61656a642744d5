package io.jenkins.plugins.copilotautopilot.core.process;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.io.UncheckedIOException;

/**
 * Hand-overs as one stream instead of one call each: every {@link HandedOverChunk} a frame, its length (four bytes)
 * then its wire form ({@link HandedOverChunk#writeTo}). A stream of bytes crosses a Jenkins channel as pieces that are
 * neither answered nor exported, the way durable-task's watch sends a step's output; a call is a request, its answer,
 * and what it exported taken back (docs/performance.md).
 */
public final class ChunkFrames {
    /** The longest frame read: three streams of {@link HandedOverChunk#PIECE}s at most, and what the last chunk adds. */
    public static final int MAX_FRAME = 256 * 1024 * 1024;

    private ChunkFrames() {
    }

    /** The chunk as one frame. */
    public static byte[] frame(HandedOverChunk chunk) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(chunk.output.length + chunk.stderr.length + chunk.usage.length + 128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(0); // the length, set below
            chunk.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory
        }
        byte[] frame = bytes.toByteArray();
        int length = frame.length - 4;
        frame[0] = (byte) (length >>> 24);
        frame[1] = (byte) (length >>> 16);
        frame[2] = (byte) (length >>> 8);
        frame[3] = (byte) length;
        return frame;
    }

    /** What takes each whole frame, as the input to read the chunk from. */
    @FunctionalInterface
    public interface FrameHandler {
        void frame(DataInput chunk) throws IOException;
    }

    /**
     * Cuts the bytes of a stream back into frames, however they were split on the way: each whole frame goes to the
     * handler, in order, on the thread that writes. A length below zero or over {@link #MAX_FRAME} is an error (an
     * agent's stream may say anything), and so is every write after one.
     */
    public static final class Splitter {
        private final FrameHandler handler;
        private final byte[] header = new byte[4];
        private int headerBytes;
        private byte[] frame;
        private int frameBytes;
        private boolean broken;

        public Splitter(FrameHandler handler) {
            this.handler = handler;
        }

        public void write(byte[] bytes, int offset, int count) throws IOException {
            if (broken) {
                throw new StreamCorruptedException("the stream of session chunks broke before");
            }
            int end = offset + count;
            int at = offset;
            while (at < end) {
                if (frame == null) {
                    int take = Math.min(4 - headerBytes, end - at);
                    System.arraycopy(bytes, at, header, headerBytes, take);
                    headerBytes += take;
                    at += take;
                    if (headerBytes < 4) {
                        return;
                    }
                    int length = (header[0] & 0xff) << 24 | (header[1] & 0xff) << 16 | (header[2] & 0xff) << 8 | header[3] & 0xff;
                    if (length < 0 || length > MAX_FRAME) {
                        broken = true;
                        throw new StreamCorruptedException("a session chunk of " + length + " bytes");
                    }
                    headerBytes = 0;
                    if (length <= end - at) { // the whole frame is here: read it where it is
                        deliver(bytes, at, length);
                        at += length;
                        continue;
                    }
                    frame = new byte[length];
                    frameBytes = 0;
                }
                int take = Math.min(frame.length - frameBytes, end - at);
                System.arraycopy(bytes, at, frame, frameBytes, take);
                frameBytes += take;
                at += take;
                if (frameBytes == frame.length) {
                    byte[] whole = frame;
                    frame = null;
                    deliver(whole, 0, whole.length);
                }
            }
        }

        /** Whether a frame was begun and not finished: a stream that ends here lost it. */
        public boolean isInsideFrame() {
            return frame != null || headerBytes > 0;
        }

        private void deliver(byte[] bytes, int offset, int length) throws IOException {
            try {
                handler.frame(new DataInputStream(new ByteArrayInputStream(bytes, offset, length)));
            } catch (IOException | RuntimeException e) {
                broken = true;
                throw e;
            }
        }
    }
}
