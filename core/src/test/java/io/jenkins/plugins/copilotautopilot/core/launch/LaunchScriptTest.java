package io.jenkins.plugins.copilotautopilot.core.launch;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptCli;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The launch script with a stand-in CLI that records what it got: arguments, variables, standard input. */
@Timeout(30)
class LaunchScriptTest {
    private static final String HOSTILE = "-x \"double\" 'single' `touch /tmp/pwned-by-launch` $(touch /tmp/pwned-by-launch) ${HOME} $$ \\ ; | & \n"
            + "second line\ttab \u00fcnic\u00f6de \ud83d\ude80\n\n";

    @TempDir
    Path dir;

    /** A CLI that writes its arguments (one per line), two variables and its standard input into the working directory. */
    private Path recorder() throws Exception {
        return ScriptCli.write(dir.resolve("bin"), String.join("\n",
                "for a in \"$@\"; do printf '%s\\n' \"$a\"; done > args.txt",
                "printf '%s' \"$COPILOT_GITHUB_TOKEN\" > token.txt",
                "printf '%s' \"$COPILOT_AUTOPILOT_RUN_ID\" > run-id.txt",
                "cat > stdin.txt",
                "echo '{\"type\":\"result\",\"exitCode\":0}'",
                "echo 'a warning' >&2",
                "exit 3"));
    }

    private SessionPoll runToEnd(CliSession session) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        SessionPoll poll;
        do {
            Thread.sleep(20);
            poll = session.poll(0, 0, 1 << 20);
        } while (!poll.ended() && System.nanoTime() < deadline);
        return poll;
    }

    @Test
    void theControlFolderAndItsVariablesAreTheOwnersOnlyAndNothingIsWrittenOutsideIt() throws Exception {
        Path control = dir.resolve("control");
        LaunchFiles.write(control, Map.of(ControlFolder.PROMPT, "task".getBytes(StandardCharsets.UTF_8),
                LaunchFiles.environmentFile("COPILOT_GITHUB_TOKEN"), "secret".getBytes(StandardCharsets.UTF_8)));

        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(control))).isEqualTo("rwx------");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(control.resolve(ControlFolder.ENVIRONMENT)))).isEqualTo("rwx------");
        assertThat(control.resolve(LaunchFiles.environmentFile("COPILOT_GITHUB_TOKEN"))).hasContent("secret");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LaunchFiles.write(control,
                        Map.of("../escaped", new byte[] {1})))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("outside the control folder");
        assertThat(dir.resolve("escaped")).doesNotExist();
    }

    @Test
    void userTextReachesTheCliAsDataAndNeverAsShellCode() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work dir 'with' $(quotes)"));
        Path control = dir.resolve("control 'it''s' `x` $(y)");
        TaskSpec options = TaskSpec.of(HOSTILE).githubToken("github_pat_a$b'c\"d`e")
                .add(ALLOW_TOOLS, "shell(echo $(whoami) `id`)").add(DENY_TOOLS, "write(it's)").set(MODEL, "m'o$(d)el");
        CliCommand command = Commands.build(options, new CliExecutable(recorder().toString(), null), work.toString(),
                control.toString(), Map.of());

        SessionPoll end = runToEnd(new LocalCliLauncher().launch(command));

        assertThat(end.exitCode()).isEqualTo(3);
        assertThat(new String(end.output(), StandardCharsets.UTF_8)).isEqualTo("{\"type\":\"result\",\"exitCode\":0}\n");
        assertThat(new String(end.stderr(), StandardCharsets.UTF_8)).isEqualTo("a warning\n");
        assertThat(Files.readString(work.resolve("stdin.txt"), StandardCharsets.UTF_8)).isEqualTo(HOSTILE);
        assertThat(Files.readAllLines(work.resolve("args.txt"), StandardCharsets.UTF_8)).isEqualTo(command.arguments())
                .contains("--allow-tool=shell(echo $(whoami) `id`)", "--deny-tool=write(it's)", "--model=m'o$(d)el");
        assertThat(Files.readString(work.resolve("token.txt"))).isEqualTo("github_pat_a$b'c\"d`e");
        assertThat(Files.readString(work.resolve("run-id.txt"))).isEqualTo(command.runId());
        assertThat(Path.of("/tmp/pwned-by-launch")).doesNotExist();
        // the variables (secrets among them) are gone from the disk once read
        assertThat(control.resolve(ControlFolder.ENVIRONMENT)).doesNotExist();
    }

    @Test
    void theScriptHoldsNoUserText() {
        String script = LaunchScript.render("/ws@tmp/copilot-autopilot-1");
        assertThat(script).startsWith("#!/bin/sh\n").contains("in='/ws@tmp/copilot-autopilot-1'\n")
                .doesNotContain("--allow");
        // the CLI's credentials are named once: where the verify command is started without them
        assertThat(script.lines().filter(l -> l.contains("COPILOT_GITHUB_TOKEN")))
                .singleElement().satisfies(l -> assertThat(l.strip()).startsWith("unset ").endsWith("COPILOT_GITHUB_TOKEN COPILOT_PROVIDER_API_KEY"));
        assertThat(LaunchScript.quote("it's")).isEqualTo("'it'\\''s'");
    }

    /** The script names the files and events the Java side reads by their own names (each kept once, in ControlFolder/CliEvent). */
    @Test
    void theScriptUsesTheNamesTheFollowerReads() {
        String script = LaunchScript.source();
        for (String inLaunchFolder : List.of(ControlFolder.PROMPT, ControlFolder.ARGUMENTS, ControlFolder.WORKING_DIRECTORY,
                ControlFolder.ENVIRONMENT, ControlFolder.LAUNCH_SETTINGS, ControlFolder.VERIFY, ControlFolder.KEPT_SESSION,
                ControlFolder.MCP_CONFIG)) {
            assertThat(script).as(inLaunchFolder).contains("\"$in/" + inLaunchFolder);
        }
        for (String inControlFolder : List.of(ControlFolder.STDERR, ControlFolder.EXIT_CODE, ControlFolder.LAUNCH_ERROR,
                ControlFolder.CLI_PID, ControlFolder.HEARTBEAT, ControlFolder.STOP, ControlFolder.STOPPED, ControlFolder.CHANGES_STATUS,
                ControlFolder.CHANGES_NUMSTAT, ControlFolder.CHANGES_PATCH, ControlFolder.MCP_CONFIG, ControlFolder.KEPT_SESSION,
                ControlFolder.KEPT_SESSION_OFFSET, ControlFolder.ANSWER, ControlFolder.COPILOT_HOME)) {
            assertThat(script).as(inControlFolder).contains("$c/" + inControlFolder);
        }
        for (String event : List.of(ControlFolder.CLI_EVENT, ControlFolder.CHANGES_LEFT_OUT_EVENT, ControlFolder.VERIFY_STARTED_EVENT,
                ControlFolder.VERIFY_OUTPUT_EVENT, ControlFolder.VERIFY_FINISHED_EVENT,
                io.jenkins.plugins.copilotautopilot.core.events.CliEvent.AWAITING)) {
            assertThat(script).as(event).contains("{\"type\":\"" + event + "\"");
        }
        assertThat(script).contains("COPILOT_AUTOPILOT_RUN_ID").contains(CliCommand.RUN_MARKER_VARIABLE);
    }

    /** shellcheck (Debian's package, which the build installs) finds nothing to say about the script. */
    @Test
    void shellcheckFindsNothing() throws Exception {
        Path script = Files.writeString(dir.resolve("launch.sh"), LaunchScript.source());
        Process check = new ProcessBuilder("shellcheck", "--shell=sh", "--severity=style", script.toString())
                .redirectErrorStream(true).start();
        String said = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor()).as(said).isZero();
    }

    @Test
    void anNpmInstallFolderIsResolvedToItsNativeBinary() throws Exception {
        Path npm = dir.resolve("npm");
        Path binary = npm.resolve("node_modules/@github/copilot-linux-x64");
        Files.createDirectories(binary);
        Files.move(recorder(), binary.resolve("copilot"));
        Path work = Files.createDirectories(dir.resolve("w"));
        CliCommand command = Commands.build(TaskSpec.of("task"),
                new CliExecutable(npm.toString(), null), work.toString(), dir.resolve("c").toString(), Map.of());

        SessionPoll end = runToEnd(new LocalCliLauncher().launch(command));

        assertThat(end.launchError()).isNull();
        assertThat(end.exitCode()).isEqualTo(3);
        assertThat(Files.readString(work.resolve("stdin.txt"))).isEqualTo("task");
    }

    @Test
    void aMissingCliIsALaunchErrorThatSaysWhatWasTried() throws Exception {
        Path work = Files.createDirectories(dir.resolve("w"));
        for (List<String> tried : List.of(List.of(dir.resolve("nothing-here").toString(), "cannot run " + dir.resolve("nothing-here") + " (No such file or directory)"),
                List.of(dir.toString(), "the Copilot CLI was not found in the folder " + dir))) {
            CliCommand command = Commands.build(TaskSpec.of("task"), new CliExecutable(tried.get(0), null),
                    work.toString(), Files.createTempDirectory(dir, "c").toString(), Map.of());
            SessionPoll end = runToEnd(new LocalCliLauncher().launch(command));
            assertThat(end.launchError()).isEqualTo(tried.get(1));
            assertThat(end.exitCode()).isEqualTo(127);
        }
    }

    /**
     * A question the script cannot write (its output on a full disk) gets no answer, so the script does not wait for
     * one: it ends with the CLI's exit code at once rather than after its wait (900 s by default).
     */
    @Test
    void aWaitWhoseQuestionCannotBeWrittenIsNotWaitedFor() throws Exception {
        Path work = Files.createDirectories(dir.resolve("w"));
        Path control = dir.resolve("c");
        Path cli = ScriptCli.write(dir.resolve("bin"), "cat > /dev/null\nexit 1");
        CliCommand command = Commands.build(TaskSpec.of("task").set(SERVICE_RETRIES, 2),
                new CliExecutable(cli.toString(), null), work.toString(), control.toString(), Map.of());
        LaunchFiles.write(control, LaunchFiles.of(command));

        Process script = new ProcessBuilder("sh", control.resolve(ControlFolder.SCRIPT).toString())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(new java.io.File("/dev/full")).redirectError(ProcessBuilder.Redirect.DISCARD).start();

        try {
            assertThat(script.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).as("the script ended without waiting").isTrue();
            assertThat(script.exitValue()).isEqualTo(1);
            assertThat(control.resolve(ControlFolder.EXIT_CODE)).hasContent("1\n");
        } finally {
            script.descendants().forEach(ProcessHandle::destroyForcibly);
            script.destroyForcibly();
        }
    }
}
