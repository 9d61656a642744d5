package io.jenkins.plugins.copilotautopilot.core.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner stopped while its acceptance check runs, as a user stops it (SIGTERM to the runner's process), and a
 * runner given a {@code --state-dir} it cannot keep sessions in. Acceptance found both wrong: 4 runs of 20 let the
 * check run on and pass after the signal, one resumed the CLI.
 */
@Timeout(180)
class RunnerStopTest {
    @TempDir
    Path dir;

    private static Map<String, String> providerEnv(ScriptedModelServer server) {
        return Map.of("PATH", System.getenv("PATH"), "COPILOT_CLI", TestCli.executable().path(),
                "COPILOT_PROVIDER_BASE_URL", server.baseUrl(), "COPILOT_PROVIDER_API_KEY", "sk-runner-test-key",
                "COPILOT_MODEL", "fake-model");
    }

    @RepeatedTest(3)
    void sigtermWhileTheCheckRunsStopsTheCheckAndNeverResumesTheCli() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        Path journal = dir.resolve("journal.jsonl");
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.completeThenFixWhenTold("touch fixed.txt"))) {
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), RunnerMain.class.getName(),
                    "--offline", "--allow-all-tools", "-C", work.toString(), "-p", "Do it",
                    "--verify", "echo checking; sleep 61; echo late", "--journal", journal.toString());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(providerEnv(server));
            Process runner = builder.start();
            List<String> lines = new ArrayList<>();
            long signalled = 0;
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(runner.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    lines.add(line);
                    if (line.contains("Verify, round 1 of 2: running the acceptance check")) {
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        while (!ProcessTable.runningWith("sleep 61") && System.nanoTime() < deadline) {
                            Thread.onSpinWait(); // until the check's command runs
                        }
                        new ProcessBuilder("kill", "-TERM", String.valueOf(runner.pid())).start().waitFor();
                        signalled = System.nanoTime();
                    }
                }
            }
            assertThat(runner.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(signalled).as("the check started").isPositive();
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - signalled)).as("seconds to stop").isLessThan(20);
            assertThat(runner.exitValue()).isEqualTo(143);
            assertThat(lines).contains("[copilot] Verify, round 1: stopped with the session")
                    .noneMatch(l -> l.contains("verify | late")).noneMatch(l -> l.contains(": passed"))
                    .noneMatch(l -> l.contains("round 2"));
            assertThat(server.requests()).as("the CLI is never resumed after the signal").hasSize(1);
            List<String> records = Files.readAllLines(journal, StandardCharsets.UTF_8);
            assertThat(records.get(records.size() - 1)).contains("autopilot.run_finished").contains("ABORTED")
                    .doesNotContain("\"verifyExitCode\":0");
            assertThat(ProcessTable.runningWith("sleep 61")).isFalse();
        }
    }

    @Test
    void aStateDirSessionsCannotBeKeptInIsOneLineBeforeAnythingRuns() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "not a folder");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.bashThenComplete("true", "Done."))) {
            int code = new RunnerMain(providerEnv(server), new ByteArrayInputStream(new byte[0]),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false)
                    .run(new String[] {"--offline", "-C", dir.toString(), "-p", "x", "--session", "s1",
                        "--state-dir", file.resolve("sessions").toString()});

            assertThat(code).isEqualTo(RunnerMain.EXIT_USAGE);
            assertThat(err.toString(StandardCharsets.UTF_8).strip()).isEqualTo("copilot-autopilot: --state-dir "
                    + file.resolve("sessions") + ": sessions cannot be kept there (a file is in the way: " + file + ") (see --help)");
            assertThat(server.requests()).as("the model was never called").isEmpty();
        }
    }
}
