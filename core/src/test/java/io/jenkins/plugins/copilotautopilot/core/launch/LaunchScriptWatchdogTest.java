package io.jenkins.plugins.copilotautopilot.core.launch;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.files.FileTrees;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptCli;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launch script as durable-task runs it in Jenkins: the launch files in a folder of their own, the script in the
 * control folder run as an executable with durable-task's cookie in its environment and its output going to a log.
 * What stops the CLI on the machine that runs it, whoever follows it: the stop file, the wall-clock limit, a deleted
 * control folder; and what a stop through durable-task's cookie leaves to the script.
 */
@Timeout(60)
class LaunchScriptWatchdogTest {
    private static final String COOKIE = "durable-0123456789abcdef";

    @TempDir
    Path dir;

    private Process script;
    private String runId;
    /** What the script's environment gets besides the test's own. */
    private final Map<String, String> environment = new HashMap<>();

    @AfterEach
    void nothingIsLeftRunning() throws Exception {
        if (script != null && script.isAlive()) {
            script.destroyForcibly();
        }
        if (runId != null) {
            waitFor(() -> ProcessTable.survivorsOf(runId).isEmpty(), Duration.ofSeconds(10));
            assertThat(ProcessTable.survivorsOf(runId)).as("processes of the run").isEmpty();
        }
    }

    /** Starts {@code cliBody} as the CLI the way durable-task starts the launch script; returns the control folder. */
    private Path launch(String cliBody, long watchdogSeconds, boolean describe, boolean withCookie) throws Exception {
        Path cli = ScriptCli.write(dir.resolve("bin"), cliBody);
        return start(cli.toString(), watchdogSeconds, describe, withCookie);
    }

    private Path start(String cli, long watchdogSeconds, boolean describe, boolean withCookie) throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        Path in = dir.resolve("ws@tmp/copilot-autopilot-1");
        Path control = Files.createDirectories(dir.resolve("ws@tmp/copilot-autopilot-1@tmp/durable-1"));
        CliCommand command = Commands.build(TaskSpec.of("the task").githubToken("github_pat_watchdog_1"),
                new CliExecutable(cli, null), work.toString(), in.toString(), Map.of());
        runId = command.runId();
        Map<String, byte[]> files = new HashMap<>(LaunchFiles.of(command, describe));
        byte[] script = files.remove(ControlFolder.SCRIPT);
        files.put(ControlFolder.LAUNCH_SETTINGS, ("watchdog=" + watchdogSeconds + "\ndescribe=" + (describe ? "1" : "") + "\n")
                .getBytes(StandardCharsets.UTF_8));
        LaunchFiles.write(in, files);
        Path scriptFile = control.resolve("script.sh");
        Files.write(scriptFile, script);
        Files.setPosixFilePermissions(scriptFile, PosixFilePermissions.fromString("rwx------"));
        ProcessBuilder builder = new ProcessBuilder(scriptFile.toString()).directory(in.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(control.resolve("jenkins-log.txt").toFile())
                .redirectErrorStream(true);
        if (withCookie) {
            builder.environment().put("JENKINS_SERVER_COOKIE", COOKIE);
        }
        builder.environment().putAll(environment);
        this.script = builder.start();
        return control;
    }

    private static void waitFor(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    private boolean running(String commandLinePart) {
        return !ProcessTable.survivorsOf(runId).stream().filter(p -> p.contains(commandLinePart)).toList().isEmpty();
    }

    @Test
    void aStopFileStopsTheCliAndWhatLeftItsTreeWithinSecondsAndTheScriptStillRecordsTheEnd() throws Exception {
        Path control = launch("(sleep 611 &)\necho '{\"type\":\"x\"}'\nexec sleep 612", 0, false, true);
        waitFor(() -> running("sleep 611") && running("sleep 612") && Files.exists(control.resolve(ControlFolder.HEARTBEAT)),
                Duration.ofSeconds(15));
        assertThat(running("sleep 611")).as("the CLI's orphan runs").isTrue();

        long asked = System.nanoTime();
        Files.writeString(control.resolve(ControlFolder.STOP), "");

        assertThat(script.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)).as("the script ended").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(8));
        assertThat(ProcessTable.survivorsOf(runId)).isEmpty();
        assertThat(control.resolve(ControlFolder.STOPPED)).hasContent("stop");
        assertThat(LocalCliSession.readExitCode(control)).isEqualTo(143);
        assertThat(script.exitValue()).isEqualTo(143);
        assertThat(control.resolve("jenkins-log.txt")).hasContent("{\"type\":\"x\"}");
        assertThat(dir.resolve("ws@tmp/copilot-autopilot-1")).as("the launch files, secrets among them").doesNotExist();
    }

    @Test
    void theHeartbeatCountsTheSecondsWhileTheCliRuns() throws Exception {
        Path control = launch("exec sleep 613", 0, false, false);
        Path heartbeat = control.resolve(ControlFolder.HEARTBEAT);
        waitFor(() -> heartbeat.toFile().length() > 0, Duration.ofSeconds(10));
        waitFor(() -> beat(heartbeat) >= 2, Duration.ofSeconds(10));
        assertThat(beat(heartbeat)).isGreaterThanOrEqualTo(2);
        Files.writeString(control.resolve(ControlFolder.STOP), "");
        assertThat(script.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }

    private static int beat(Path heartbeat) {
        try {
            String text = Files.readString(heartbeat).strip();
            return text.isEmpty() ? -1 : Integer.parseInt(text);
        } catch (java.io.IOException | NumberFormatException e) {
            return -1;
        }
    }

    @Test
    void theWatchdogsOwnSleepDoesNotCarryTheRunsMarkerSoTheSweepAfterTheCliDoesNotWaitForIt() throws Exception {
        Path control = launch("exec sleep 616", 0, false, false);
        Path heartbeat = control.resolve(ControlFolder.HEARTBEAT);
        waitFor(() -> running("sleep 616") && ProcessTable.runningWith("sleep 1") && beat(heartbeat) >= 1, Duration.ofSeconds(10));
        assertThat(running("sleep 616")).as("the CLI carries the marker").isTrue();
        assertThat(beat(heartbeat)).as("the watchdog is between two beats").isGreaterThanOrEqualTo(1);
        assertThat(ProcessTable.survivorsOf(runId)).as("processes carrying the run's marker")
                .noneMatch(p -> p.endsWith(" sleep 1") || p.endsWith(" sleep 1 "));
        Files.writeString(control.resolve(ControlFolder.STOP), "");
        assertThat(script.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }

    /**
     * Between reading its launch files and the watchdog's first beat the script takes the work tree's snapshot, which
     * a large tree makes long: it beats itself meanwhile, so that the follower can tell a session killed with its
     * machine then (the heartbeat goes stale) from one still getting ready; and it stops beating once it is killed.
     */
    @Test
    void whileTheScriptGetsReadyItBeatsItselfAndAKilledScriptBeatsNoMore() throws Exception {
        Path called = dir.resolve("git-called");
        Path release = dir.resolve("git-release");
        Path bin = Files.createDirectories(dir.resolve("slow-git"));
        Path git = bin.resolve("git");
        Files.writeString(git, "#!/bin/sh\n: > '" + called + "'\nwhile ! [ -f '" + release + "' ] && [ -d '" + bin + "' ]; do sleep 0.1; done\nexit 1\n");
        Files.setPosixFilePermissions(git, PosixFilePermissions.fromString("rwx------"));
        environment.put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
        try {
            Path control = launch("exec sleep 617", 0, false, false);
            Path heartbeat = control.resolve(ControlFolder.HEARTBEAT);
            waitFor(() -> Files.exists(called), Duration.ofSeconds(15));
            assertThat(called).as("the snapshot asked git").exists();
            assertThat(dir.resolve("ws@tmp/copilot-autopilot-1")).as("the launch files, read").doesNotExist();
            assertThat(control.resolve(ControlFolder.CLI_PID)).as("the CLI has not started").doesNotExist();
            assertThat(heartbeat).as("the script's own heartbeat").exists();
            long first = heartbeat.toFile().lastModified();
            waitFor(() -> heartbeat.toFile().lastModified() > first, Duration.ofSeconds(10));
            assertThat(heartbeat.toFile().lastModified()).as("the heartbeat, written again").isGreaterThan(first);
            assertThat(running("sleep 617")).isFalse();

            String scriptFile = "/bin/sh " + control.resolve("script.sh");
            assertThat(ProcessTable.runningWith(scriptFile)).as("the script, as the process table shows it").isTrue();
            script.destroyForcibly();
            Files.writeString(release, ""); // the snapshot the script was in (a subshell of its own) ends
            waitFor(() -> !ProcessTable.runningWith(scriptFile), Duration.ofSeconds(10));
            assertThat(ProcessTable.runningWith(scriptFile)).as("the script, or its beat, still runs").isFalse();
        } finally {
            Files.writeString(release, "");
        }
    }

    /** What the script beats with (its watchdog, its own beat as it records the end) is gone, sleep and all, when it ends. */
    @Test
    void nothingOfTheScriptsOwnBeatOutlivesIt() throws Exception {
        Path control = launch("echo '{\"type\":\"x\"}'", 0, false, true);
        assertThat(script.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("the script ended").isTrue();
        assertThat(ProcessTable.workingIn(dir.resolve("work"))).as("processes in the working directory").isEmpty();
        assertThat(ProcessTable.runningWith("/bin/sh " + control.resolve("script.sh"))).as("the script's own processes").isFalse();
        assertThat(LocalCliSession.readExitCode(control)).isZero();
    }

    @Test
    void theWatchdogEndsTheCliAtItsLimitWhenNobodyIsLeftToStopIt() throws Exception {
        Path control = launch("exec sleep 614", 2, false, false);

        assertThat(script.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(control.resolve(ControlFolder.STOPPED)).hasContent("limit");
        assertThat(ProcessTable.survivorsOf(runId)).isEmpty();
    }

    @Test
    void deletingTheControlFolderStopsTheCli() throws Exception {
        Path control = launch("exec sleep 615", 0, false, true);
        waitFor(() -> running("sleep 615") && Files.exists(control.resolve(ControlFolder.HEARTBEAT)), Duration.ofSeconds(15));

        FileTrees.delete(control);

        assertThat(script.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(ProcessTable.survivorsOf(runId)).isEmpty();
    }

    /**
     * The CLI writes its logs and session state under its home in the control folder, making the folders it needs: a
     * control folder deleted while it runs comes back at its next write. The watchdog stops it anyway, and what the
     * CLI made again is deleted with the control folder's own folder (durable-task's {@code @tmp} beside the launch folder).
     */
    @Test
    void aControlFolderTheCliMakesAgainAfterItsDeletionStillStopsTheCliAndGoes() throws Exception {
        Path control = launch("while :; do mkdir -p \"$COPILOT_HOME/logs\"; date >> \"$COPILOT_HOME/logs/process.log\"; sleep 0.1; done",
                0, false, true);
        waitFor(() -> Files.exists(control.resolve(ControlFolder.HEARTBEAT)) && Files.exists(control.resolve("copilot-home/logs/process.log")),
                Duration.ofSeconds(15));

        deletedItStopsTheCliAndLeavesNothing(control);
    }

    /**
     * The control folder deleted while the CLI runs, made again by the CLI only as it is stopped (it writes its log on
     * the way out), after the watchdog found it gone and could not mark it: nothing of it is left, and the script's end
     * writes nothing into it (an agent killed with its processes, a launch the restarted controller gave up on).
     */
    @Test
    void aControlFolderTheCliMakesAgainAsItIsStoppedIsDeletedAndNotWrittenInto() throws Exception {
        Path control = launch("trap 'mkdir -p \"$COPILOT_HOME/logs\"; echo stopping >> \"$COPILOT_HOME/logs/process.log\"; exit 143' TERM\n"
                + "while :; do sleep 0.1; done", 0, false, true);
        waitFor(() -> Files.exists(control.resolve(ControlFolder.HEARTBEAT)), Duration.ofSeconds(15));

        deletedItStopsTheCliAndLeavesNothing(control);
    }

    /** Deletes the control folder's own folder: the script ends, nothing of the run is left running or on disk. */
    private void deletedItStopsTheCliAndLeavesNothing(Path control) throws Exception {
        FileTrees.delete(control.getParent());

        assertThat(script.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)).as("the script ended").isTrue();
        waitFor(() -> ProcessTable.survivorsOf(runId).isEmpty(), Duration.ofSeconds(10));
        assertThat(ProcessTable.survivorsOf(runId)).isEmpty();
        assertThat(control.getParent()).doesNotExist();
    }

    @Test
    void durableTasksCookieMarksTheCliAndItsToolsButNotTheScriptSoAKillByCookieLeavesItToRecordTheEnd() throws Exception {
        Path control = launch("printf '%s' \"$JENKINS_SERVER_COOKIE\" > cookie.txt\nsleep 616 &\nwait", 0, false, true);
        waitFor(() -> running("sleep 616"), Duration.ofSeconds(15));
        assertThat(dir.resolve("work/cookie.txt")).hasContent(COOKIE);

        // kubernetes-plugin's ContainerExecDecorator.kill, verbatim but for the cookie
        Process kill = new ProcessBuilder("sh", "-c",
                "kill `grep -l 'JENKINS_SERVER_COOKIE=" + COOKIE + "' /proc/*/environ | cut -d / -f 3 `").start();
        assertThat(kill.waitFor()).isZero();

        assertThat(script.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)).as("the script ended by itself").isTrue();
        assertThat(LocalCliSession.readExitCode(control)).as("the exit code the script recorded").isEqualTo(143);
        assertThat(ProcessTable.survivorsOf(runId)).isEmpty();
    }

    @Test
    void whatTheAgentLeftRunningInTheBackgroundEndsWithTheSession() throws Exception {
        Path control = launch("(sleep 617 &)\necho '{\"type\":\"result\",\"exitCode\":0}'\nexit 0", 0, false, false);

        assertThat(script.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(LocalCliSession.readExitCode(control)).isZero();
        waitFor(() -> !running("sleep 617"), Duration.ofSeconds(5));
        assertThat(running("sleep 617")).isFalse();
        assertThat(control.resolve(ControlFolder.STOPPED)).doesNotExist();
    }

    @Test
    void asFirstLineTheScriptSaysWhichCliItFoundWhenTheFollowerCouldNotLook() throws Exception {
        Path npm = dir.resolve("tools/npm \"quoted\" \\ dir");
        Path platform = Files.createDirectories(npm.resolve("node_modules/@github/copilot-linux-x64"));
        Path binary = ScriptCli.write(platform, "echo '{\"type\":\"result\",\"exitCode\":0}'");
        Files.writeString(platform.resolve("package.json"), "{\n  \"name\": \"@github/copilot-linux-x64\",\n  \"version\": \"1.0.102\"\n}\n");

        Path control = start(npm.toString(), 0, true, false);

        assertThat(script.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        List<String> lines = Files.readAllLines(control.resolve("jenkins-log.txt"));
        assertThat(lines).hasSize(2);
        JsonNode described = new ObjectMapper().readTree(lines.get(0));
        assertThat(described.path("type").asText()).isEqualTo(ControlFolder.CLI_EVENT);
        assertThat(described.path("data").path("path").asText()).isEqualTo(binary.toString());
        assertThat(described.path("data").path("version").asText()).isEqualTo("1.0.102");
    }
}
