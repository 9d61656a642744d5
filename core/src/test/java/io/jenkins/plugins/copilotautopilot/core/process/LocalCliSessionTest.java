package io.jenkins.plugins.copilotautopilot.core.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a control folder's files from any position, as every look at a session does. */
class LocalCliSessionTest {
    @TempDir
    Path folder;

    @Test
    void readsWhatIsNewFromAnyPosition() throws IOException {
        Path output = folder.resolve(ControlFolder.OUTPUT);
        assertThat(LocalCliSession.read(output, 0, 1024)).isEmpty(); // not there yet
        Files.writeString(output, "");
        assertThat(LocalCliSession.read(output, 0, 1024)).isEmpty();
        Files.writeString(output, "0123456789");
        assertThat(new String(LocalCliSession.read(output, 0, 1024), StandardCharsets.UTF_8)).isEqualTo("0123456789");
        assertThat(new String(LocalCliSession.read(output, 4, 1024), StandardCharsets.UTF_8)).isEqualTo("456789");
        assertThat(new String(LocalCliSession.read(output, 4, 3), StandardCharsets.UTF_8)).isEqualTo("456");
        assertThat(LocalCliSession.read(output, 10, 1024)).isEmpty();
        assertThat(LocalCliSession.read(output, 11, 1024)).isEmpty(); // a file cut shorter than the position
    }

    @Test
    void readsTheExitCodeOnceWritten() throws IOException {
        assertThat(LocalCliSession.readExitCode(folder)).isNull();
        Files.writeString(folder.resolve(ControlFolder.EXIT_CODE), "");
        assertThat(LocalCliSession.readExitCode(folder)).isNull();
        Files.writeString(folder.resolve(ControlFolder.EXIT_CODE), " \n");
        assertThat(LocalCliSession.readExitCode(folder)).isNull();
        Files.writeString(folder.resolve(ControlFolder.EXIT_CODE), "3\n");
        assertThat(LocalCliSession.readExitCode(folder)).isEqualTo(3);
        Files.writeString(folder.resolve(ControlFolder.EXIT_CODE), "three\n");
        assertThatThrownBy(() -> LocalCliSession.readExitCode(folder)).isInstanceOf(IOException.class).hasMessageContaining("three");
    }

    @Test
    void readsTheLaunchErrorWhenThere() throws IOException {
        assertThat(LocalCliSession.readLaunchError(folder)).isNull();
        Files.writeString(folder.resolve(ControlFolder.LAUNCH_ERROR), "");
        assertThat(LocalCliSession.readLaunchError(folder)).isNull();
        Files.writeString(folder.resolve(ControlFolder.LAUNCH_ERROR), "  \n");
        assertThat(LocalCliSession.readLaunchError(folder)).isNull();
        Files.writeString(folder.resolve(ControlFolder.LAUNCH_ERROR), "cannot run x\n");
        assertThat(LocalCliSession.readLaunchError(folder)).isEqualTo("cannot run x");
    }
}
