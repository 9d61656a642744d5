package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the CLI has no home and no cache it can write (a container run as an ordinary user: HOME is /, and CLI 1.0.102
 * failed with "EACCES: permission denied, mkdir '/.cache'"), the launch script gives it a cache of its own beside the
 * control folder, which the next session there reuses (the CLI unpacks about 235 MB at a first start), and a home.
 * HOME is /dev/null here: no folder even for root.
 */
class CliHomeTest {
    @TempDir
    Path jobTmp;

    @Test
    void withoutAUsableHomeTheCliGetsACacheThatTheNextSessionReuses() throws Exception {
        String uid = String.valueOf(new com.sun.security.auth.module.UnixSystem().getUid());
        Path cache = jobTmp.resolve("copilot-cache-" + uid);
        E2eRun first = E2eRun.with(Scripts.bashThenComplete("echo \"home=$HOME\"", "Looked."))
                .environment("HOME", "/dev/null").withoutEnvironment("XDG_CACHE_HOME")
                .options(o -> o.set(ALLOW_ALL_TOOLS, true)).controlFolderIn(jobTmp).run();

        assertThat(first.result.outcome()).as(first.result.reason()).isEqualTo(Outcome.COMPLETED);
        Path unpacked = cache.resolve("copilot/pkg/linux-x64/1.0.102");
        assertThat(unpacked.resolve("package.json")).isRegularFile();
        assertThat(Files.getPosixFilePermissions(cache)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(first.journalText()).containsPattern("home=" + java.util.regex.Pattern.quote(jobTmp.toString()) + "/session-[^/]+/home");
        Object unpackedOnce = Files.readAttributes(unpacked.resolve("package.json"), BasicFileAttributes.class).fileKey();

        E2eRun second = E2eRun.with(Scripts.bashThenComplete("true", "Again."))
                .environment("HOME", "/dev/null").withoutEnvironment("XDG_CACHE_HOME")
                .options(o -> o.set(ALLOW_ALL_TOOLS, true)).controlFolderIn(jobTmp).run();

        assertThat(second.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(Files.readAttributes(unpacked.resolve("package.json"), BasicFileAttributes.class).fileKey())
                .as("the second session found the CLI unpacked").isEqualTo(unpackedOnce);
    }
}
