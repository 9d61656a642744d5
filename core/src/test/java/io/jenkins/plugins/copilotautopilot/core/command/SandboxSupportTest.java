package io.jenkins.plugins.copilotautopilot.core.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The check that a host can run the CLI's sandbox, in Java (the runner) and in the launch script (a build agent). */
class SandboxSupportTest {
    @TempDir
    Path dir;

    private Path program(String name) throws Exception {
        Path p = dir.resolve("bin").resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void linuxNeedsBwrapOnThePath() throws Exception {
        Map<String, String> without = Map.of("PATH", dir.resolve("bin").toString());
        assertThat(SandboxSupport.problem("Linux", without))
                .isEqualTo("sandbox is on, but this machine cannot run the Copilot CLI's sandbox: it needs bubblewrap (bwrap 0.5.0+)"
                        + " on the PATH. Install it, run the step on a node that has it, or turn sandbox off.");
        program("bwrap");
        assertThat(SandboxSupport.problem("Linux", without)).isNull();
        assertThat(SandboxSupport.problem("Mac OS X", without)).contains("sandbox-exec is not on the PATH");
        assertThat(SandboxSupport.problem("FreeBSD", without)).contains("on Linux and macOS only");
    }

    /** The launch script's check, run by sh with a PATH that has uname and, the second time, a bwrap. */
    @Test
    void theLaunchScriptRefusesASandboxTheAgentCannotRun() throws Exception {
        Path uname = Path.of("/bin/uname").toFile().exists() ? Path.of("/bin/uname") : Path.of("/usr/bin/uname");
        Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(dir.resolve("bin/uname"), uname);
        String script = script("--autopilot --sandbox");

        Result refused = sh(script);
        assertThat(refused.code).isEqualTo(126);
        assertThat(refused.out.strip()).isEqualTo(SandboxSupport.problem("Linux", Map.of("PATH", dir.resolve("bin").toString())));

        Result notAsked = sh(script("--autopilot --allow-all-tools"));
        assertThat(notAsked.out.strip()).isEqualTo("started");

        program("bwrap");
        Result started = sh(script);
        assertThat(started.code).isZero();
        assertThat(started.out.strip()).isEqualTo("started");
    }

    private static String script(String arguments) {
        return "fail() { echo \"$2\"; exit \"$1\"; }\nset -- " + arguments + "\n" + SandboxSupport.SHELL_CHECK + "\necho started\n";
    }

    private record Result(int code, String out) {
    }

    private Result sh(String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().put("PATH", dir.resolve("bin").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out);
    }
}
