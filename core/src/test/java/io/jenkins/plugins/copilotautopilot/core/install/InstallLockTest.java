package io.jenkins.plugins.copilotautopilot.core.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Installers in separate processes: one at a time, though each removes the lock file when it is done. */
@Timeout(120)
class InstallLockTest {
    private static final int PROCESSES = 3;
    private static final int ROUNDS = 25;

    @TempDir
    Path dir;

    @Test
    void theLockFileIsRemovedWhenReleased() throws Exception {
        Path file = dir.resolve("cli.lock");
        try (InstallLock lock = InstallLock.acquire(file)) {
            assertThat(file).exists();
        }
        assertThat(file).doesNotExist();
        try (InstallLock again = InstallLock.acquire(file)) {
            assertThat(file).exists();
        }
        assertThat(file).doesNotExist();
    }

    @Test
    void processesTakeTurnsThoughTheLockFileComesAndGoes() throws Exception {
        Path file = dir.resolve("cli.lock");
        Path journal = dir.resolve("journal.txt");
        List<Process> children = new ArrayList<>();
        for (int i = 0; i < PROCESSES; i++) {
            children.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), Holder.class.getName(), file.toString(), journal.toString(),
                    String.valueOf(ROUNDS)).redirectErrorStream(true).redirectOutput(dir.resolve("child-" + i + ".log").toFile()).start());
        }
        for (Process child : children) {
            assertThat(child.waitFor(100, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as(Files.readString(dir.resolve("child-" + children.indexOf(child) + ".log"))).isZero();
        }

        List<String> lines = Files.readAllLines(journal);
        assertThat(lines).hasSize(PROCESSES * ROUNDS * 2);
        for (int i = 0; i < lines.size(); i += 2) {
            String holder = lines.get(i).substring("enter ".length());
            assertThat(lines.get(i)).as("line %d", i).startsWith("enter ");
            assertThat(lines.get(i + 1)).as("line %d: nobody else between enter and exit", i + 1).isEqualTo("exit " + holder);
        }
        assertThat(file).doesNotExist();
    }

    /** A child process: takes the lock ROUNDS times and notes entering and leaving while holding it. */
    static final class Holder {
        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[0]);
            Path journal = Path.of(args[1]);
            long pid = ProcessHandle.current().pid();
            for (int round = 0; round < Integer.parseInt(args[2]); round++) {
                try (InstallLock lock = InstallLock.acquire(file)) {
                    note(journal, "enter " + pid);
                    Thread.sleep(3);
                    note(journal, "exit " + pid);
                }
            }
        }

        private static void note(Path journal, String line) throws Exception {
            Files.writeString(journal, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }
}
