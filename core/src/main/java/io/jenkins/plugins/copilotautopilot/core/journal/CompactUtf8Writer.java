package io.jenkins.plugins.copilotautopilot.core.journal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * A buffered UTF-8 writer that holds memory only while it holds text: its buffer (at most {@value #BUFFER}
 * bytes, as a busy journal wrote before) grows with the text held and is given back when flushed (a busy writer
 * keeps it). A journal is one of these per running session;
 * a {@code BufferedWriter} over an {@code OutputStreamWriter} kept 64K chars plus the encoder's 8 KB for each,
 * busy or not. Encodes as {@code OutputStreamWriter} does (an unpaired surrogate becomes {@code ?}), given whole
 * strings.
 */
final class CompactUtf8Writer extends Writer {
    static final int BUFFER = 64 * 1024;
    private static final int MIN_BUFFER = 512;
    private static final byte[] NONE = new byte[0];

    private final OutputStream out;
    private byte[] buffer = NONE;
    private int count;
    private boolean closed;

    CompactUtf8Writer(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(String text) throws IOException {
        write(text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void write(int c) throws IOException {
        if (c < 0x80) {
            ensureOpen();
            if (count == BUFFER) {
                writeOut(false);
            }
            room(count + 1);
            buffer[count++] = (byte) c;
        } else {
            write(String.valueOf((char) c));
        }
    }

    @Override
    public void write(char[] chars, int offset, int length) throws IOException {
        write(new String(chars, offset, length));
    }

    @Override
    public void write(String text, int offset, int length) throws IOException {
        write(text.substring(offset, offset + length));
    }

    private void write(byte[] bytes) throws IOException {
        ensureOpen();
        if (bytes.length > BUFFER - count) {
            writeOut(false);
            if (bytes.length >= BUFFER) {
                out.write(bytes);
                return;
            }
        }
        room(count + bytes.length);
        System.arraycopy(bytes, 0, buffer, count, bytes.length);
        count += bytes.length;
    }

    /** Grows the buffer (by doubling, up to {@link #BUFFER}) to hold {@code needed} bytes. */
    private void room(int needed) {
        if (needed > buffer.length) {
            int size = Math.max(buffer.length, MIN_BUFFER);
            while (size < needed) {
                size *= 2;
            }
            buffer = java.util.Arrays.copyOf(buffer, Math.min(size, BUFFER));
        }
    }

    /** Writes what is held; gives the buffer back if {@code release}. */
    private void writeOut(boolean release) throws IOException {
        if (count > 0) {
            out.write(buffer, 0, count);
        }
        count = 0;
        if (release) {
            buffer = NONE;
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
    }

    @Override
    public void flush() throws IOException {
        ensureOpen();
        writeOut(true);
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            writeOut(true);
            out.flush();
        } finally {
            closed = true;
            out.close();
        }
    }
}
