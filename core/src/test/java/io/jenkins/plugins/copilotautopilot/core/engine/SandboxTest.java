package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ProgramsPath;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's sandbox ({@code --sandbox}) with the real CLI 1.0.102 and Debian's bubblewrap and slirp4netns, which the
 * build installs ({@code .ci/run}): a machine that lacks what it needs is refused before the CLI starts, a sandbox that
 * cannot start the agent's commands ends the session FAILED (never COMPLETED), and one that works runs them, with what
 * it keeps out measured.
 */
class SandboxTest {
    @TempDir
    Path tmp;

    /** A PATH with every program of this machine's usual folders but {@code left}, after the programs of {@code extra}. */
    private static Path pathWithout(String left, Path extra) throws IOException {
        Path bin = ProgramsPath.without(left);
        return extra == null ? bin : Path.of(extra + ":" + bin);
    }

    @Test
    void aMachineWithoutSlirp4netnsIsRefusedBeforeTheCliStarts() throws Exception {
        Path path = pathWithout("slirp4netns", null);
        assertThat(path.resolve("bwrap")).exists();
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("echo hi > made.txt", "Made it."))
                .environment("PATH", path.toString())
                .options(o -> o.set(SANDBOX, true).set(ALLOW_ALL_TOOLS, true))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result.reason()).isEqualTo("Could not start the Copilot CLI: sandbox is on, but this machine cannot run the"
                + " Copilot CLI's sandbox: it needs slirp4netns on the PATH (on Linux: bubblewrap 0.5.0+, slirp4netns, util-linux"
                + " 2.35+, iproute2 and iptables). Install it, run the step on a node that has it, or turn sandbox off.");
        assertThat(run.server.requests()).isEmpty();
        assertThat(run.workDir.resolve("made.txt")).doesNotExist();
    }

    @Test
    void aMachineWithoutIproute2sIpIsRefusedBeforeTheCliStarts() throws Exception {
        // measured in a container with iptables but not iproute2: the check passed, then every shell call failed with
        // "sandbox networking requires 'ip' on PATH to enforce proxy-only egress"
        Path path = pathWithout("ip", null);
        assertThat(path.resolve("ip")).doesNotExist();
        assertThat(path.resolve("slirp4netns")).exists();
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("echo hi > made.txt", "Made it."))
                .environment("PATH", path.toString())
                .options(o -> o.set(SANDBOX, true).set(ALLOW_ALL_TOOLS, true))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result.reason()).contains("it needs ip on the PATH (on Linux: bubblewrap 0.5.0+, slirp4netns,"
                + " util-linux 2.35+, iproute2 and iptables)");
        assertThat(run.server.requests()).isEmpty();
        assertThat(run.workDir.resolve("made.txt")).doesNotExist();
    }

    @Test
    void aSandboxThatCannotStartTheAgentsCommandsEndsFailedNotCompleted() throws Exception {
        // a slirp4netns that is there but does not work: the check before the start passes, every sandboxed command fails
        Path broken = Files.createDirectories(tmp.resolve("broken"));
        Path slirp = Files.writeString(broken.resolve("slirp4netns"), "#!/bin/sh\necho 'slirp4netns: broken' >&2\nexit 1\n");
        Files.setPosixFilePermissions(slirp, PosixFilePermissions.fromString("rwxr-xr-x"));
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("echo hi > made.txt", "Made it."))
                .environment("PATH", pathWithout("slirp4netns", broken).toString())
                .options(o -> o.set(SANDBOX, true).set(ALLOW_ALL_TOOLS, true))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result.reason()).startsWith("The session failed with a sandbox error: the CLI's sandbox could not start a"
                + " shell command: Cannot start sandboxed command: Bubblewrap cannot start sandboxed commands");
        assertThat(run.workDir.resolve("made.txt")).doesNotExist();
        assertThat(run.log.lines()).anyMatch(l -> l.contains("Summary: Made it."));
    }

    @Test
    void aWorkingSandboxRunsTheAgentsCommandsAndKeepsOutWhatItSays() throws Exception {
        // not below the temp directory, the home, the PATH or the workspace, which the sandbox lets tools see; nor
        // below this checkout, which may well be in one of those (a clone in the home or in /tmp)
        Path outside = Files.createTempDirectory(Path.of("/dev/shm"), "sandbox-outside-");
        Files.writeString(outside.resolve("secret.txt"), "outside-the-workspace");
        try {
            probe(outside);
        } finally {
            Files.delete(outside.resolve("secret.txt"));
            Files.delete(outside);
        }
    }

    private void probe(Path outside) throws Exception {
        String probe = "echo in > made.txt; cat " + outside.resolve("secret.txt") + " || echo 'outside: unreadable';"
                + " echo x > /etc/copilot-sandbox-probe || echo 'etc: read-only'";
        E2eRun run = E2eRun.with(Scripts.bashThenComplete(probe, "Probed."))
                .options(o -> o.set(SANDBOX, true).set(ALLOW_ALL_TOOLS, true).set(ALLOW_ALL_PATHS, true))
                .run();

        assertThat(run.result.outcome()).as(run.result.reason()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.workDir.resolve("made.txt")).hasContent("in");
        String tool = run.journalText();
        assertThat(tool).contains("outside: unreadable").doesNotContain("outside-the-workspace")
                .contains("etc: read-only");
        assertThat(Path.of("/etc/copilot-sandbox-probe")).doesNotExist();
    }
}
