package io.jenkins.plugins.copilotautopilot.core.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerChecksTest {
    @TempDir
    Path dir;

    @Test
    void theWorkingDirectoryMustBeADirectory() throws Exception {
        assertThat(RunnerChecks.workingDirectory(dir)).isNull();
        Path missing = dir.resolve("missing");
        assertThat(RunnerChecks.workingDirectory(missing)).isEqualTo("the working directory " + missing + " does not exist (--dir)");
        Path file = Files.writeString(dir.resolve("README.md"), "x");
        assertThat(RunnerChecks.workingDirectory(file)).isEqualTo("the working directory " + file + " is a file, not a directory (--dir)");
    }

    @Test
    void anOutputFileSaysWhyItCannotBeWritten() throws Exception {
        assertThat(RunnerChecks.outputFile("--journal", dir.resolve("j.jsonl"))).isNull();
        assertThat(RunnerChecks.outputFile("--journal", dir.resolve("new/sub/j.jsonl"))).as("folders are created").isNull();
        assertThat(RunnerChecks.outputFile("--journal", dir)).isEqualTo("--journal " + dir + " is a directory; give a file name");
        Path file = Files.writeString(dir.resolve("file"), "x");
        Path under = file.resolve("j.jsonl");
        assertThat(RunnerChecks.outputFile("--timeline", under)).isEqualTo("--timeline " + under + ": " + file + " is a file, not a directory");
        assertThat(RunnerChecks.outputFile("--journal", file)).as("an existing file is replaced").isNull();
    }

    @Test
    void aFailedWriteSaysWhatWentWrongNotOnlyThePath() {
        Path file = dir.resolve("j.jsonl");
        assertThat(RunnerChecks.cannotWrite("--journal", file, new AccessDeniedException(file.toString())))
                .isEqualTo("cannot write " + file + " (--journal): permission denied");
        assertThat(RunnerChecks.cannotWrite("--journal", file, new NoSuchFileException(file.toString())))
                .isEqualTo("cannot write " + file + " (--journal): no such file or directory");
        assertThat(RunnerChecks.cannotWrite("--journal", file, new FileSystemException(file.toString(), null, "Read-only file system")))
                .isEqualTo("cannot write " + file + " (--journal): Read-only file system");
        assertThat(RunnerChecks.cannotWrite("--timeline", file, new IOException("No space left on device")))
                .isEqualTo("cannot write " + file + " (--timeline): No space left on device");
    }

    @Test
    void aRealFailureIsDescribed() {
        Path file = dir.resolve("missing-folder-is-a-file");
        try {
            Files.writeString(file, "x");
            Files.newOutputStream(file.resolve("j.jsonl")).close();
        } catch (IOException e) {
            assertThat(RunnerChecks.cannotWrite("--journal", file.resolve("j.jsonl"), e))
                    .startsWith("cannot write " + file.resolve("j.jsonl") + " (--journal): ")
                    .doesNotEndWith(": " + file.resolve("j.jsonl"));
            return;
        }
        throw new AssertionError("writing below a file should fail");
    }
}
