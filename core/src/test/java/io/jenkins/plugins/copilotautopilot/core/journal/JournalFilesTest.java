package io.jenkins.plugins.copilotautopilot.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalFilesTest {
    @TempDir
    Path dir;

    @Test
    void aCompressedJournalReadsLikeThePlainOneAndIsSmaller() throws Exception {
        Path plain = dir.resolve("node-7.jsonl");
        byte[] lines = Captures.stdout("cli-longstream");
        Files.write(plain, lines);
        int turns = SessionReportReader.read(plain).turns().size();

        Path compressed = JournalFiles.compress(plain);

        assertThat(compressed.getFileName().toString()).isEqualTo("node-7.jsonl.gz");
        assertThat(plain).doesNotExist();
        assertThat(Files.size(compressed)).isLessThan(lines.length / 3);
        try (InputStream in = JournalFiles.open(compressed)) {
            assertThat(in.readAllBytes()).isEqualTo(lines);
        }
        assertThat(SessionReportReader.read(compressed).turns()).hasSize(turns);
    }

    @Test
    void aFinishedJournalsClosingRecordIsTheResultItEndedWith() throws Exception {
        Path journal = dir.resolve("node-9.jsonl");
        Files.writeString(journal, new String(Captures.stdout("cli-happy"), java.nio.charset.StandardCharsets.UTF_8)
                + "{\"type\":\"autopilot.run_finished\",\"data\":{\"outcome\":\"COMPLETED\",\"turns\":2,\"summary\":\"Created hello.txt\"}}\n");
        Path compressed = JournalFiles.compress(journal);
        Path cut = dir.resolve("node-10.jsonl");
        Files.write(cut, Captures.stdout("cli-happy"));

        assertThat(JournalFiles.closingRecord(compressed).path("outcome").asText()).isEqualTo("COMPLETED");
        assertThat(JournalFiles.closingRecord(compressed).path("turns").asInt()).isEqualTo(2);
        assertThat(JournalFiles.closingRecord(cut)).as("a journal cut before the end").isNull();
    }
}
