package io.jenkins.plugins.copilotautopilot.core.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's example session, run for real (the real CLI, a scripted model on 127.0.0.1, a git work tree): a failing
 * test, a fix, a denied {@code git push}, an autopilot continuation and {@code task_complete}, with the usage each
 * model call reports. It checks what the README shows and leaves the log, the timeline and the patch in
 * {@code core/target/readme-example/}; {@code docs/timeline-example.svg} is a copy of that timeline.
 */
@Timeout(180)
class ReadmeExampleTest {
    static final String CALC = "#!/bin/sh\nadd() { echo $(( $1 - $2 )); }\n";
    static final String TEST = "#!/bin/sh\n. ./calc.sh\n"
            + "if [ \"$(add 2 3)\" = 5 ]; then echo 'ok: add 2 3 = 5'; else echo \"FAIL: add 2 3 = $(add 2 3), expected 5\"; exit 1; fi\n";

    @TempDir
    Path dir;

    /** The model's side of the session, one answer per request, streamed at a model's pace. */
    static ScriptedModelServer.Script fixTheFailingTest() {
        return request -> paced(switch (request.turn()) {
            case 1 -> Reply.bash("./test.sh", 30).withText("Let me run the test first.").withUsage(5_210, 48);
            case 2 -> Reply.bash("sed -i 's/\\$1 - \\$2/$1 + $2/' calc.sh && ./test.sh", 30)
                    .withText("add() subtracts. Fixing it and running the test again.").withUsage(6_030, 96);
            case 3 -> Reply.bash("git push", 30).withText("Pushing the fix.").withUsage(6_480, 31);
            case 4 -> Reply.text("The test passes now; pushing is not allowed here, so I leave the commit to you.")
                    .withUsage(6_730, 40);
            case 5 -> Reply.taskComplete("Fixed add() in calc.sh: it subtracted instead of adding. ./test.sh passes.")
                    .withUsage(7_020, 52);
            default -> Reply.text("Done.").withUsage(7_100, 5);
        });
    }

    private static Reply paced(Reply reply) {
        return reply.chunked(12, 120);
    }

    @Test
    void theReadmeSessionShowsUsagePerCallAndTheChanges() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Files.writeString(repo.resolve("calc.sh"), CALC);
        Files.writeString(repo.resolve("test.sh"), TEST);
        repo.resolve("test.sh").toFile().setExecutable(true);
        git(repo, "init", "-q");
        git(repo, "config", "user.email", "dev@example.invalid");
        git(repo, "config", "user.name", "dev");
        git(repo, "add", "-A");
        git(repo, "commit", "-q", "-m", "add() and its test");

        Path out = Files.createDirectories(Path.of("target", "readme-example"));
        Path timeline = out.resolve("timeline.svg");
        Path patch = out.resolve("changes.patch");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int code;
        try (ScriptedModelServer server = ScriptedModelServer.start(fixTheFailingTest())) {
            Map<String, String> env = new HashMap<>();
            env.put("PATH", System.getenv("PATH"));
            env.put("COPILOT_CLI", TestCli.executable().path());
            env.put("COPILOT_PROVIDER_BASE_URL", server.baseUrl());
            env.put("COPILOT_MODEL", "fake-model");
            RunnerMain runner = new RunnerMain(env, new ByteArrayInputStream(new byte[0]),
                    new PrintStream(log, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()), false);
            code = runner.run(new String[] {"--offline", "--allow-all-tools", "--deny-tool", "shell(git push)",
                "--max-autopilot-continues", "2", "-C", repo.toString(), "-p", "Make ./test.sh pass. Fix the code, not the test.",
                "--timeline", timeline.toString(), "--changes", patch.toString(), "--max-tokens", "100000"});
        }
        String text = log.toString(StandardCharsets.UTF_8);
        Files.writeString(out.resolve("log.txt"), text);

        assertThat(code).as(text).isZero();
        assertThat(text).contains("[copilot]   < bash FAILED", "exit code 1: FAIL: add 2 3 = -1, expected 5",
                "[copilot] Paths: the working directory only (allowAllPaths is off)",
                "[copilot]   < bash DENIED (", "Permission to run this tool was denied due to the following rules", "[copilot] Autopilot continuation 1",
                "[copilot] COMPLETED: The agent called task_complete",
                "[copilot] Changed: 1 file (+1 -1): calc.sh\n");
        // the CLI writes usage records in batches: a call's line may come in a later turn, naming its own
        assertThat(text).containsPattern("\\[copilot\\]   tokens( \\(turn 1\\))?: 5,210 in, 48 out")
                .containsPattern("\\[copilot\\]   tokens( \\(turn 2\\))?: 6,030 in, 96 out");
        assertThat(text).contains("[copilot] Tokens: 31,470 in (0 from the cache), 267 out, in 5 model calls");
        assertThat(Files.readString(repo.resolve("calc.sh"))).contains("$(( $1 + $2 ))");
        assertThat(Files.readString(patch)).contains("-add() { echo $(( $1 - $2 )); }", "+add() { echo $(( $1 + $2 )); }");
        assertThat(Files.readString(timeline)).contains(">Tokens<", "Turn 1: 5,210 tokens in, 48 out", "git push");
        assertThat(gitOutput(repo, "status", "--porcelain")).as("the runner commits nothing").isEqualTo(" M calc.sh\n");
    }

    private static void git(Path repo, String... args) throws IOException, InterruptedException {
        assertThat(gitProcess(repo, args).waitFor()).isZero();
    }

    private static String gitOutput(Path repo, String... args) throws IOException, InterruptedException {
        Process process = gitProcess(repo, args);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).isZero();
        return output;
    }

    private static Process gitProcess(Path repo, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
