package io.jenkins.plugins.copilotautopilot.core.events;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Cuts a byte stream into lines as the bytes arrive, with bounded memory. A line that arrives whole in one
 * write is decoded where it is; only the start of a line that continues in a later write is kept, so an
 * assembler between lines holds no buffer (a follower keeps two per session).
 *
 * <p>Bytes are decoded as UTF-8; invalid sequences become U+FFFD. A line longer than
 * {@code maxLineBytes} is delivered truncated to that many bytes, flagged, with its real length, and
 * the rest of it is dropped as it arrives. A trailing {@code \r} is removed. Blank lines are skipped.
 * Closing the stream delivers a last line that had no line feed.
 */
public final class LineAssembler extends OutputStream {
    /** Receives each line. */
    @FunctionalInterface
    public interface LineHandler {
        /**
         * @param line          the line, without its line break
         * @param originalBytes the line's length in bytes before any truncation
         * @param truncated     whether {@code line} holds only the first {@code maxLineBytes} bytes
         */
        void onLine(String line, long originalBytes, boolean truncated);
    }

    private static final byte[] NONE = new byte[0];
    private static final int MIN_BUFFER = 1024;

    private final LineHandler handler;
    private final int maxLineBytes;
    /** The start of a line that has not ended yet (released when it ends). */
    private byte[] buffer = NONE;
    private int length;
    private long lineBytes;
    private boolean closed;

    public LineAssembler(LineHandler handler, int maxLineBytes) {
        if (maxLineBytes < 16) {
            throw new IllegalArgumentException("maxLineBytes must be at least 16");
        }
        this.handler = handler;
        this.maxLineBytes = maxLineBytes;
    }

    @Override
    public synchronized void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int count) {
        if (closed) {
            return;
        }
        int end = offset + count;
        int start = offset;
        for (int i = offset; i < end; i++) {
            if (bytes[i] == '\n') {
                if (lineBytes == 0) {
                    deliver(bytes, start, i - start, i - start); // the whole line is here: no copy
                } else {
                    append(bytes, start, i - start);
                    endLine();
                }
                start = i + 1;
            }
        }
        append(bytes, start, end - start);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        if (lineBytes > 0) {
            endLine();
        }
        closed = true;
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    private void append(byte[] bytes, int offset, int count) {
        if (count <= 0) {
            return;
        }
        lineBytes += count;
        int room = maxLineBytes - length;
        int take = Math.min(room, count);
        if (take > 0) {
            ensureCapacity(length + take);
            System.arraycopy(bytes, offset, buffer, length, take);
            length += take;
        }
    }

    private void ensureCapacity(int needed) {
        if (needed > buffer.length) {
            int size = Math.max(buffer.length, Math.min(MIN_BUFFER, maxLineBytes));
            while (size < needed) {
                size = Math.min(maxLineBytes, size * 2);
            }
            buffer = Arrays.copyOf(buffer, size);
        }
    }

    private void endLine() {
        byte[] line = buffer;
        int kept = length;
        long original = lineBytes;
        buffer = NONE;
        length = 0;
        lineBytes = 0;
        deliver(line, 0, kept, original);
    }

    /** Hands on a line of {@code originalBytes} bytes whose first {@code count} (at most the limit) are here. */
    private void deliver(byte[] bytes, int offset, int count, long originalBytes) {
        int kept = Math.min(count, maxLineBytes);
        boolean truncated = originalBytes > kept;
        int usable = kept;
        if (!truncated && usable > 0 && bytes[offset + usable - 1] == '\r') {
            usable--;
        }
        if (!isBlank(bytes, offset, usable)) {
            handler.onLine(new String(bytes, offset, usable, StandardCharsets.UTF_8), originalBytes, truncated);
        }
    }

    /** The size of the buffer held for the current line, for tests. */
    synchronized int bufferedCapacity() {
        return buffer.length;
    }

    private static boolean isBlank(byte[] bytes, int offset, int usable) {
        for (int i = offset; i < offset + usable; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
