package io.jenkins.plugins.copilotautopilot.core.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files written whole and readable by their owner only; folders made so, or tightened where they are the project's own. */
class OwnerOnlyFilesTest {
    @TempDir
    Path folder;

    @Test
    void aFileIsWrittenWholeForItsOwnerOnlyReplacingWhatWasThere() throws IOException {
        Path target = folder.resolve("state.tgz");
        Files.writeString(target, "old");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
        Files.writeString(folder.resolve("state.tgz.part"), "a part an earlier write left");

        OwnerOnlyFiles.write(target, "new".getBytes(StandardCharsets.UTF_8));

        assertThat(target).hasContent("new");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-------");
        assertThat(folder.resolve("state.tgz.part")).doesNotExist();
    }

    @Test
    void aWriteThatFailsLeavesNoPartBehind() throws IOException {
        Path target = Files.createDirectories(folder.resolve("in-the-way"));
        Files.writeString(target.resolve("file"), "x");

        assertThatThrownBy(() -> OwnerOnlyFiles.write(target, "secret".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class);

        assertThat(folder.resolve("in-the-way.part")).doesNotExist();
        assertThat(target.resolve("file")).hasContent("x");
    }

    @Test
    void aFolderOfItsOwnIsMadeForItsOwnerOnlyOrTightened() throws IOException {
        Path created = folder.resolve("parent/control");
        OwnerOnlyFiles.ownFolder(created);
        Path there = Files.createDirectories(folder.resolve("there"));
        Files.setPosixFilePermissions(there, PosixFilePermissions.fromString("rwxr-xr-x"));
        OwnerOnlyFiles.ownFolder(there);

        assertThat(permissions(created)).isEqualTo("rwx------");
        assertThat(permissions(there)).isEqualTo("rwx------");
    }

    @Test
    void aFolderThatMayBeSharedIsMadeForItsOwnerOnlyButLeftAsItIsWhenThere() throws IOException {
        Path created = folder.resolve("parent/state");
        OwnerOnlyFiles.folder(created);
        Path there = Files.createDirectories(folder.resolve("there"));
        Files.setPosixFilePermissions(there, PosixFilePermissions.fromString("rwxr-xr-x"));
        OwnerOnlyFiles.folder(there);

        assertThat(permissions(created)).isEqualTo("rwx------");
        assertThat(permissions(there)).isEqualTo("rwxr-xr-x");
        assertThatThrownBy(() -> OwnerOnlyFiles.folder(Files.writeString(folder.resolve("a-file"), "x")))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
    }

    private static String permissions(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
