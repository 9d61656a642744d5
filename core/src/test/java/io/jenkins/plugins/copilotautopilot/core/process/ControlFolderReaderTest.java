package io.jenkins.plugins.copilotautopilot.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a look at a control folder finds, as the plugin's agent side and the runner read it. */
class ControlFolderReaderTest {
    private static final String USAGE_1 = "{\"type\":\"session.usage_record\",\"data\":{\"usage\":{\"model\":\"m\",\"inputTokens\":10,"
            + "\"outputTokens\":2}},\"id\":\"u1\"}\n";
    private static final String USAGE_2 = "{\"data\":{\"usage\":{\"model\":\"m\",\"inputTokens\":7,\"outputTokens\":1}},"
            + "\"type\":\"session.usage_record\",\"id\":\"u2\"}\n";
    private static final String MESSAGE = "{\"type\":\"assistant.message\",\"data\":{\"content\":\"é 😀 writes "
            + "\\\"type\\\":\\\"session.usage_record\\\" in its text\"},\"id\":\"m1\"}\n";

    @TempDir
    Path folder;

    private Path events() throws Exception {
        return Files.createDirectories(folder.resolve(ControlFolder.COPILOT_HOME).resolve("session-state").resolve("abc"))
                .resolve("events.jsonl");
    }

    @Test
    void usageRecordsAreTheWholeLinesOfThatTypeAndAPartialLineWaits() throws Exception {
        Files.createDirectories(folder.resolve(ControlFolder.COPILOT_HOME).resolve("session-state").resolve(".locks"));
        assertThat(ControlFolderReader.usage(folder, 0, 1 << 20).consumed()).as("no session state yet").isZero();
        Path events = events();
        String system = "{\"type\":\"system.message\",\"data\":{\"content\":\"" + "prompt ".repeat(4000) + "\"}}\n";
        Files.writeString(events, system + USAGE_1 + MESSAGE + USAGE_2 + "{\"type\":\"session.usage_rec", StandardCharsets.UTF_8);

        ControlFolderReader.Usage usage = ControlFolderReader.usage(folder, 0, 1 << 20);

        assertThat(new String(usage.lines(), StandardCharsets.UTF_8)).isEqualTo(USAGE_1 + USAGE_2);
        long whole = (system + USAGE_1 + MESSAGE + USAGE_2).getBytes(StandardCharsets.UTF_8).length;
        assertThat(usage.consumed()).isEqualTo(whole);

        Files.writeString(events, "ord\",\"id\":\"u3\"}\n", StandardOpenOption.APPEND);
        ControlFolderReader.Usage next = ControlFolderReader.usage(folder, whole, 1 << 20);
        assertThat(new String(next.lines(), StandardCharsets.UTF_8)).isEqualTo("{\"type\":\"session.usage_record\",\"id\":\"u3\"}\n");
        assertThat(ControlFolderReader.usage(folder, whole + next.consumed(), 1 << 20).lines()).isEmpty();
    }

    @Test
    void aLookReadsTheOutputFromWhereItStoppedAndTheChangesOnceEnded() throws Exception {
        Files.writeString(folder.resolve(ControlFolder.OUTPUT), "{\"type\":\"a\"}\n{\"type\":\"b\"}\n");
        Files.writeString(folder.resolve(ControlFolder.STDERR), "warn\n");
        Files.writeString(events(), USAGE_1);

        ControlFolderReader.Look running = ControlFolderReader.look(folder, 13, 0, 0, 1 << 20);
        assertThat(new String(running.output(), StandardCharsets.UTF_8)).isEqualTo("{\"type\":\"b\"}\n");
        assertThat(new String(running.stderr(), StandardCharsets.UTF_8)).isEqualTo("warn\n");
        assertThat(running.exitCode()).isNull();
        assertThat(running.folderExists()).isTrue();
        assertThat(running.usage().lines()).hasSize(USAGE_1.length());
        assertThat(running.toPoll().ended()).isFalse();
        assertThat(running.toPoll().changes()).isNull();

        Files.writeString(folder.resolve(ControlFolder.CHANGES_STATUS), "A\0hello.txt\0");
        Files.writeString(folder.resolve(ControlFolder.CHANGES_NUMSTAT), "1\t0\thello.txt\0");
        Files.writeString(folder.resolve(ControlFolder.CHANGES_PATCH), "+hello\n");
        Files.writeString(folder.resolve(ControlFolder.EXIT_CODE), "0\n");
        SessionPoll ended = ControlFolderReader.look(folder, 26, 5, USAGE_1.length(), 1 << 20).toPoll();
        assertThat(ended.ended()).isTrue();
        assertThat(ended.exitCode()).isZero();
        assertThat(ended.output()).isEmpty();
        assertThat(ended.changes()).isNotNull();
        assertThat(ended.changes().files()).hasSize(1);
    }

    @Test
    void aFolderThatIsGoneSaysSo() throws Exception {
        Path gone = folder.resolve("gone");
        ControlFolderReader.Look look = ControlFolderReader.look(gone, 0, 0, 0, 1 << 20);
        assertThat(look.folderExists()).isFalse();
        assertThat(look.exitCode()).isNull();
        assertThat(ControlFolderReader.look(folder, 0, 0, 0, 1 << 20).folderExists()).isTrue();
    }
}
