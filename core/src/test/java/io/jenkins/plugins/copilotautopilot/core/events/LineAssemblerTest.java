package io.jenkins.plugins.copilotautopilot.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineAssemblerTest {
    record Line(String text, long bytes, boolean truncated) {
    }

    private final List<Line> lines = new ArrayList<>();
    private final LineAssembler assembler = new LineAssembler((t, b, tr) -> lines.add(new Line(t, b, tr)), 64);

    private void write(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        assembler.write(b, 0, b.length);
    }

    @Test
    void splitsLinesAcrossWrites() {
        write("{\"a\":1}\n{\"b\"");
        write(":2}\r\n\n   \nlast");
        assertThat(lines).extracting(Line::text).containsExactly("{\"a\":1}", "{\"b\":2}");
        assembler.close();
        assertThat(lines).extracting(Line::text).containsExactly("{\"a\":1}", "{\"b\":2}", "last");
    }

    @Test
    void truncatesLongLinesAndKeepsTheirLength() {
        String longLine = "x".repeat(1000);
        write(longLine + "\nnext\n");
        assertThat(lines.get(0).truncated()).isTrue();
        assertThat(lines.get(0).text()).hasSize(64);
        assertThat(lines.get(0).bytes()).isEqualTo(1000);
        assertThat(lines.get(1)).isEqualTo(new Line("next", 4, false));
    }

    @Test
    void invalidUtf8BecomesReplacementCharacters() {
        byte[] bad = {'o', 'k', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, '\n'};
        assembler.write(bad, 0, bad.length);
        assertThat(lines.get(0).text()).startsWith("ok").contains("\uFFFD");
    }

    @Test
    void keepsNulBytes() {
        byte[] withNul = {'a', 0, 'b', '\n'};
        assembler.write(withNul, 0, withNul.length);
        assertThat(lines.get(0).text()).isEqualTo("a\0b");
    }

    @Test
    void memoryStaysBoundedForAHugeLine() {
        LineAssembler big = new LineAssembler((t, b, tr) -> lines.add(new Line(t.substring(0, 10), b, tr)), 1024);
        byte[] chunk = new byte[1 << 20];
        java.util.Arrays.fill(chunk, (byte) 'y');
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        int largestBuffer = 0;
        long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 50; i++) { // 50 MB without a line break
            big.write(chunk, 0, chunk.length);
            largestBuffer = Math.max(largestBuffer, big.bufferedCapacity());
        }
        big.write(new byte[] {'\n'}, 0, 1);
        long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;

        assertThat(lines).containsExactly(new Line("yyyyyyyyyy", 50L << 20, true));
        assertThat(largestBuffer).as("bytes held for the line").isLessThanOrEqualTo(8 * 1024);
        assertThat(allocated).as("bytes allocated while 50 MB went through").isLessThan(2L << 20);
    }

    @Test
    void ignoresWritesAfterClose() {
        assembler.close();
        write("late\n");
        assertThat(lines).isEmpty();
    }

    @Test
    void anySplitOfTheStreamGivesTheSameLines() {
        StringBuilder stream = new StringBuilder();
        java.util.Random random = new java.util.Random(14);
        String[] pieces = {"{\"type\":\"a\"}", "", "   ", "crlf\r", "\r", "x".repeat(63), "y".repeat(64), "z".repeat(65),
            "w".repeat(300), "caf\u00e9 \u00fc\u00df", "\ud83d\ude00 emoji", "tab\t"};
        for (int i = 0; i < 400; i++) {
            stream.append(pieces[random.nextInt(pieces.length)]).append('\n');
        }
        stream.append("no line feed at the end");
        byte[] bytes = stream.toString().getBytes(StandardCharsets.UTF_8);
        bytes[100] = (byte) 0xFF; // invalid UTF-8 too

        LineAssembler whole = new LineAssembler((t, b, tr) -> lines.add(new Line(t, b, tr)), 64);
        whole.write(bytes, 0, bytes.length);
        whole.close();
        List<Line> expected = List.copyOf(lines);
        assertThat(expected).hasSizeGreaterThan(200);

        for (int round = 0; round < 20; round++) {
            lines.clear();
            LineAssembler pieceByPiece = new LineAssembler((t, b, tr) -> lines.add(new Line(t, b, tr)), 64);
            int at = 0;
            while (at < bytes.length) {
                int n = Math.min(bytes.length - at, 1 + random.nextInt(round % 2 == 0 ? 8 : 400));
                pieceByPiece.write(bytes, at, n);
                at += n;
            }
            pieceByPiece.close();
            assertThat(lines).containsExactlyElementsOf(expected);
        }
    }
}
