package io.jenkins.plugins.copilotautopilot.core.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CompactUtf8WriterTest {
    /** The journal's writer before: the reference for the bytes written. */
    private static Writer reference(ByteArrayOutputStream out) {
        return new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 64 * 1024);
    }

    @Test
    void writesTheSameBytesAsABufferedOutputStreamWriter() throws IOException {
        String[] pieces = {"{\"type\":\"a\"}", "caf\u00e9", "\ud83d\ude00", "lone \ud83d high", "lone \ude00 low", "x".repeat(9000),
            "y".repeat(8191), "z".repeat(8192), "v".repeat(65535), "w".repeat(65536), "u".repeat(70000), "", "\u20ac"};
        Random random = new Random(14);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        ByteArrayOutputStream actual = new ByteArrayOutputStream();
        try (Writer a = reference(expected); Writer b = new CompactUtf8Writer(actual)) {
            for (int i = 0; i < 2000; i++) {
                String piece = pieces[random.nextInt(pieces.length)];
                a.write(piece);
                b.write(piece);
                a.write('\n');
                b.write('\n');
                if (random.nextInt(50) == 0) {
                    a.flush();
                    b.flush();
                    assertThat(actual.toByteArray()).isEqualTo(expected.toByteArray());
                }
            }
        }
        assertThat(actual.toByteArray()).isEqualTo(expected.toByteArray());
    }

    @Test
    void holdsTextUntilFlushedAndClosesTheStream() throws IOException {
        boolean[] closed = {false};
        ByteArrayOutputStream sink = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        CompactUtf8Writer writer = new CompactUtf8Writer(sink);
        writer.write("held");
        writer.write('\n');
        assertThat(sink.size()).isZero();
        writer.flush();
        assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("held\n");
        writer.write("more");
        writer.close();
        assertThat(sink.toString(StandardCharsets.UTF_8)).isEqualTo("held\nmore");
        assertThat(closed[0]).isTrue();
        assertThatThrownBy(() -> writer.write("late")).isInstanceOf(IOException.class);
        writer.close(); // twice is fine
    }
}
