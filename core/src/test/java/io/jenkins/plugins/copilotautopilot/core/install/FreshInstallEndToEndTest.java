package io.jenkins.plugins.copilotautopilot.core.install;

import io.jenkins.plugins.copilotautopilot.core.command.Platform;
import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.ArchiveWriter;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.FileServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A machine with nothing preinstalled: the real Copilot CLI binary, packed as a release archive and served on
 * 127.0.0.1, is installed with its checksum checked, and then runs a real autopilot session.
 */
@Timeout(180)
class FreshInstallEndToEndTest {

    @TempDir
    Path tools;

    @Test
    void installsTheRealCliAndRunsATaskWithIt() throws Exception {
        Path realBinary = Path.of(TestCli.executable().path());
        Platform platform = Platform.current();
        ArchiveWriter archive = new ArchiveWriter().file(platform.executableName(), 0755, realBinary);
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (OutputStream sink = new DigestOutputStream(OutputStream.nullOutputStream(), digest)) {
            archive.writeTar(sink);
        }
        String sha256 = HexFormat.of().formatHex(digest.digest());
        List<String> log = new ArrayList<>();
        CliExecutable installed;
        try (FileServer server = FileServer.start()) {
            server.serve("/v1.0.102/copilot-" + platform.id() + ".tar", archive::writeTar);
            CliRelease release = new CliRelease("1.0.102", server.baseUrl() + "/v{version}/copilot-{platform}.tar", sha256);
            installed = new CliInstaller(log::add).install(tools.resolve("copilot-1.0.102"), platform, release);
        }

        assertThat(Path.of(installed.path())).startsWith(tools).isNotEqualTo(realBinary);
        assertThat(Files.size(Path.of(installed.path()))).isEqualTo(Files.size(realBinary));
        assertThat(log.get(log.size() - 1)).contains("SHA-256 " + sha256);

        E2eRun run = E2eRun.with(Scripts.completeAfterNudge("Done with the installed CLI."))
                .cli(installed)
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.summary()).isEqualTo("Done with the installed CLI.");
        assertThat(run.command.commandLine().get(0)).isEqualTo(installed.path());
    }
}
