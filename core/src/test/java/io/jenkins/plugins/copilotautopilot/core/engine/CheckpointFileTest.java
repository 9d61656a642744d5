package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointFileTest {
    @TempDir
    Path dir;

    @Test
    void readsTheLastCheckpointWritten() throws IOException {
        Path file = dir.resolve("s.checkpoint");
        assertThat(CheckpointFile.read(file)).isEqualTo(Checkpoint.START);
        for (long i = 1; i <= 5; i++) {
            CheckpointFile.write(file, new Checkpoint(i * 1000, i, i * 2000));
            assertThat(CheckpointFile.read(file)).isEqualTo(new Checkpoint(i * 1000, i, i * 2000));
        }
        CheckpointFile.write(file, new Checkpoint(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
        assertThat(CheckpointFile.read(file)).isEqualTo(new Checkpoint(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
        assertThat(Files.size(file)).isEqualTo(2 * CheckpointFile.SLOT);
    }

    @Test
    void aWriteCutShortLeavesThePreviousCheckpoint() throws IOException {
        Path file = dir.resolve("s.checkpoint");
        CheckpointFile.write(file, new Checkpoint(10, 1, 20)); // slot 1
        CheckpointFile.write(file, new Checkpoint(30, 2, 40)); // slot 0
        // the next write (slot 1) stops half way: its checksum no longer holds
        byte[] next = CheckpointFile.encode(3, new Checkpoint(50, 3, 60));
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(CheckpointFile.SLOT);
            raf.write(next, 0, 20);
        }
        assertThat(CheckpointFile.read(file)).isEqualTo(new Checkpoint(30, 2, 40));
        CheckpointFile.write(file, new Checkpoint(70, 4, 80)); // and writing goes on
        assertThat(CheckpointFile.read(file)).isEqualTo(new Checkpoint(70, 4, 80));
    }

    @Test
    void readsAndReplacesTheEarlierTextForm() throws IOException {
        Path file = dir.resolve("s.checkpoint");
        Files.writeString(file, new Checkpoint(123456789012L, 7, 987654321098L).toText(), StandardCharsets.UTF_8);
        assertThat(CheckpointFile.read(file)).isEqualTo(new Checkpoint(123456789012L, 7, 987654321098L));
        CheckpointFile.write(file, new Checkpoint(5, 6, 7));
        assertThat(CheckpointFile.read(file)).isEqualTo(new Checkpoint(5, 6, 7));
    }

    @Test
    void somethingElseIsTheStart() throws IOException {
        Path file = dir.resolve("s.checkpoint");
        Files.writeString(file, "not a checkpoint at all ".repeat(20), StandardCharsets.UTF_8);
        assertThat(CheckpointFile.read(file)).isEqualTo(Checkpoint.START);
        Files.write(file, new byte[0]);
        assertThat(CheckpointFile.read(file)).isEqualTo(Checkpoint.START);
    }
}
