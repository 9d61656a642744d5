package io.jenkins.plugins.copilotautopilot.core.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deleting a tree: links not followed, what goes meanwhile or comes back handled, read-only entries deleted, failures thrown. */
class FileTreesTest {
    @TempDir
    Path folder;

    @Test
    void deletesAFolderWithEverythingInItAndNothingWhenItIsNotThere() throws IOException {
        Path tree = folder.resolve("tree");
        Files.createDirectories(tree.resolve("a/b/c"));
        Files.writeString(tree.resolve("a/b/c/file"), "x");
        Files.writeString(tree.resolve("top"), "y");

        FileTrees.delete(tree);
        FileTrees.delete(tree);
        FileTrees.delete(folder.resolve("never-there"));

        assertThat(tree).doesNotExist();
        assertThat(folder).isDirectory();
    }

    @Test
    void linksAreRemovedNotFollowed() throws IOException {
        Path outside = Files.createDirectories(folder.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "kept");
        Path tree = Files.createDirectories(folder.resolve("tree"));
        Files.createSymbolicLink(tree.resolve("to-folder"), outside);
        Files.createSymbolicLink(tree.resolve("to-file"), outside.resolve("keep.txt"));
        Path rootLink = Files.createSymbolicLink(folder.resolve("root-link"), outside);

        FileTrees.delete(tree);
        FileTrees.delete(rootLink);

        assertThat(tree).doesNotExist();
        assertThat(rootLink).doesNotExist();
        assertThat(outside.resolve("keep.txt")).hasContent("kept");
    }

    @Test
    void readOnlyFoldersAndFilesOfTheTreeAreDeletedToo() throws IOException {
        Path tree = Files.createDirectories(folder.resolve("tree"));
        Path locked = Files.createDirectories(tree.resolve("module@v1"));
        Path file = Files.writeString(locked.resolve("go.mod"), "module x");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));

        FileTrees.delete(tree);

        assertThat(tree).doesNotExist();
    }

    @Test
    void whatCannotBeDeletedIsThrownNamingTheEntryWithTheOtherFailures() throws IOException {
        // nobody, not even root, may delete the entries of /proc: the failures of a tree's deletion, the same for any user
        Path proc = Path.of("/proc/self/attr");

        assertThatThrownBy(() -> FileTrees.delete(proc)).isInstanceOf(FileSystemException.class)
                .satisfies(e -> assertThat(((FileSystemException) e).getFile()).startsWith(proc.toString()))
                .satisfies(e -> assertThat(e.getSuppressed()).as("the other failures, a few of them").isNotEmpty().hasSizeLessThanOrEqualTo(10));
        assertThat(proc).isDirectory();
    }

    @Test
    void aFolderIsDeletedWhileAWatchdogKeepsWritingItsHeartbeatThereUntilItIsGone() throws Exception {
        for (int round = 0; round < 20; round++) {
            Path control = Files.createDirectories(folder.resolve("control-" + round));
            for (int f = 0; f < 200; f++) {
                Files.writeString(control.resolve("f" + f), "x");
            }
            // as the launch script's watchdog, a hundred times as often (it writes every second): a heartbeat into the
            // folder while it is there, so that the deletion often finds a file written after it emptied the folder
            Thread watchdog = new Thread(() -> {
                while (Files.isDirectory(control)) {
                    try {
                        Files.writeString(control.resolve("heartbeat"), "1");
                        Thread.sleep(10);
                    } catch (IOException e) {
                        return; // the folder is gone
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            watchdog.start();
            try {
                FileTrees.delete(control);
            } finally {
                watchdog.join(10_000);
            }
            assertThat(control).doesNotExist();
        }
    }
}
