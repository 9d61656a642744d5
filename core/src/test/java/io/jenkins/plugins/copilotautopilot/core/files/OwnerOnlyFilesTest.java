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
    void aMissingFolderIsMadeForItsOwnerOnlyAndOnlyAFolderOfItsOwnIsTightenedWhenThere() throws IOException {
        Path control = folder.resolve("parent/control");
        Path state = folder.resolve("parent/state");
        Path ownThere = readableByAll("own");
        Path sharedThere = readableByAll("shared");

        OwnerOnlyFiles.ownFolder(control);
        OwnerOnlyFiles.folder(state);
        OwnerOnlyFiles.ownFolder(ownThere);
        OwnerOnlyFiles.folder(sharedThere);

        assertThat(permissions(control)).isEqualTo("rwx------");
        assertThat(permissions(state)).isEqualTo("rwx------");
        assertThat(permissions(ownThere)).isEqualTo("rwx------");
        assertThat(permissions(sharedThere)).as("a folder that may be shared keeps its permissions").isEqualTo("rwxr-xr-x");
        assertThatThrownBy(() -> OwnerOnlyFiles.folder(Files.writeString(folder.resolve("a-file"), "x")))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
    }

    private Path readableByAll(String name) throws IOException {
        Path dir = Files.createDirectories(folder.resolve(name));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    private static String permissions(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
