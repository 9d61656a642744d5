package io.jenkins.plugins.copilotautopilot.core.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one reader of "inline or @file" values: the same rules whoever reads the file and however they word its problems. */
class InlineOrFileTest {
    private static final InlineOrFile.Limits TEN = new InlineOrFile.Limits(10, false);
    private static final InlineOrFile.Limits TASK = new InlineOrFile.Limits(10, true);
    private final List<String> asked = new ArrayList<>();

    private InlineOrFile.Files holding(InlineOrFile.Content content) {
        return (name, maxBytes) -> {
            asked.add(name + " at most " + maxBytes);
            return content;
        };
    }

    private static InlineOrFile.Bytes bytes(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return new InlineOrFile.Bytes(b, b.length);
    }

    @Test
    void textIsTakenAsItIsAndAnAtNamesAFileWhoseNameIsStripped() throws Exception {
        assertThat(InlineOrFile.text("{\"a\": 1}", TEN, holding(null), Words.INSTANCE)).isEqualTo("{\"a\": 1}");
        assertThat(asked).as("no file read for inline text").isEmpty();
        assertThat(InlineOrFile.text("@ schema.json ", TEN, holding(bytes("{}")), Words.INSTANCE)).isEqualTo("{}");
        assertThat(asked).containsExactly("schema.json at most 10");
    }

    @Test
    void eachWayAFileCannotBeUsedIsTheWordingsLine() {
        assertThatThrownBy(() -> InlineOrFile.file("a.md", TEN, holding(new InlineOrFile.Missing()), Words.INSTANCE))
                .isInstanceOf(Unusable.class).hasMessage("missing a.md");
        assertThatThrownBy(() -> InlineOrFile.file("a.md", TEN, holding(new InlineOrFile.Folder()), Words.INSTANCE))
                .hasMessage("folder a.md");
        assertThatThrownBy(() -> InlineOrFile.file("a.md", TEN, holding(new InlineOrFile.Failed("permission denied")), Words.INSTANCE))
                .hasMessage("failed a.md: permission denied");
        assertThatThrownBy(() -> InlineOrFile.file("a.md", TEN, holding(new InlineOrFile.Refused("not in the trusted revision")),
                Words.INSTANCE)).as("the source's own line").hasMessage("not in the trusted revision");
        assertThatThrownBy(() -> InlineOrFile.file("a.md", TEN, holding(new InlineOrFile.Bytes(new byte[11], 5000)), Words.INSTANCE))
                .as("named with the file's whole size").hasMessage("too large a.md: 5000 > 10");
        assertThatThrownBy(() -> InlineOrFile.file("a.md", TEN, holding(new InlineOrFile.Bytes(new byte[] {'a', (byte) 0xff}, 2)),
                Words.INSTANCE)).hasMessage("not text a.md");
    }

    @Test
    void aBlankFileIsRefusedWhereATaskIsExpectedAndAByteOrderMarkIsDropped() throws Exception {
        assertThatThrownBy(() -> InlineOrFile.file("t.md", TASK, holding(bytes(" \n")), Words.INSTANCE)).hasMessage("empty t.md");
        assertThat(InlineOrFile.file("s.json", TEN, holding(bytes(" \n")), Words.INSTANCE)).isEqualTo(" \n");
        assertThat(InlineOrFile.file("t.md", TASK, holding(bytes("\uFEFFtask")), Words.INSTANCE)).isEqualTo("task");
    }

    /** Words that say which rule was broken. */
    enum Words implements InlineOrFile.Wording {
        INSTANCE;

        @Override
        public String missing(String name) {
            return "missing " + name;
        }

        @Override
        public String folder(String name) {
            return "folder " + name;
        }

        @Override
        public String tooLarge(String name, long bytes, int maxBytes) {
            return "too large " + name + ": " + bytes + " > " + maxBytes;
        }

        @Override
        public String empty(String name) {
            return "empty " + name;
        }

        @Override
        public String notText(String name) {
            return "not text " + name;
        }

        @Override
        public String failed(String name, String why) {
            return "failed " + name + ": " + why;
        }
    }
}
