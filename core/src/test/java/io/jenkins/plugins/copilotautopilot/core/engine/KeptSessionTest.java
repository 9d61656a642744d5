package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.ArchiveWriter;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Script;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session kept between runs: the first run packs the CLI's state at its end, the second starts from it in a new
 * working directory and the CLI resumes the conversation (the model's first request of run 2 holds run 1's); an
 * acceptance check does not count the kept run's completion as the new one's. The real CLI 1.0.102.
 */
class KeptSessionTest {
    @TempDir
    Path tmp;

    /** Completes each new prompt once: a conversation that ends with the user's words gets a task_complete. */
    private static final Script COMPLETE = request -> {
        var messages = request.body().path("messages");
        boolean userSpokeLast = messages.size() > 0 && "user".equals(messages.get(messages.size() - 1).path("role").asText());
        return userSpokeLast ? Reply.taskComplete("Noted.") : Reply.text("Done.");
    };

    @Test
    void aSecondRunContinuesTheFirstRunsConversation() throws Exception {
        Path kept = tmp.resolve("sessions/pr-42.tgz");
        E2eRun first = E2eRun.with(COMPLETE).prompt("Remember the code word PAPAYA-7.").keepSessionIn(kept).run();
        assertThat(first.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(kept).isRegularFile();

        byte[] state = Files.readAllBytes(kept);
        E2eRun second = E2eRun.with(COMPLETE).prompt("Which code word did I give you?")
                .options(o -> o.keptState(state)).keepSessionIn(kept).run();

        assertThat(second.result.outcome()).isEqualTo(Outcome.COMPLETED);
        String firstRequest = second.server.requests().get(0).toString();
        assertThat(firstRequest).contains("PAPAYA-7").contains("Which code word did I give you?");
        assertThat(second.result.ending().sessionId()).isEqualTo(first.result.ending().sessionId());
        // only this run's model calls count (the kept record holds run 1's usage records too)
        assertThat(second.result.usage().inputTokens()).isEqualTo(first.result.usage().inputTokens());
        assertThat(second.log.lines()).filteredOn(l -> l.startsWith("[copilot] Tokens: "))
                .containsExactly("[copilot] Tokens: 1,000 in (0 from the cache), 20 out, in 1 model call");
        assertThat(Files.size(kept)).isGreaterThan(0);
    }

    /**
     * The kept state held the first run's working directory ({@code workspace.yaml}'s {@code cwd}), which CLI 1.0.102
     * changes into on {@code --resume}: the second run's tools worked in the first run's workspace.
     */
    @Test
    void aContinuedSessionsToolsWorkInThisRunsWorkingDirectory() throws Exception {
        Path kept = tmp.resolve("sessions/pr-29.tgz");
        E2eRun first = E2eRun.with(Scripts.bashThenCompleteEachPrompt("pwd > where-1.txt", "Noted where."))
                .prompt("Note where you are.").options(o -> o.set(ALLOW_ALL_TOOLS, true)).keepSessionIn(kept).run();
        assertThat(first.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(first.workDir.resolve("where-1.txt")).hasContent(first.workDir.toString());

        byte[] state = Files.readAllBytes(kept);
        E2eRun second = E2eRun.with(Scripts.bashThenCompleteEachPrompt("pwd > where-2.txt; pwd", "Noted where again."))
                .prompt("Note where you are now.").options(o -> o.set(ALLOW_ALL_TOOLS, true).keptState(state)).keepSessionIn(kept).run();

        assertThat(second.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(second.workDir).isNotEqualTo(first.workDir);
        assertThat(second.workDir.resolve("where-2.txt")).hasContent(second.workDir.toString());
        assertThat(first.workDir.resolve("where-2.txt")).doesNotExist();
        assertThat(second.result.ending().sessionId()).isEqualTo(first.result.ending().sessionId());
        // the model is told where it works now: nothing of the first run's working directory
        String request = second.server.requests().get(0).toString();
        assertThat(request).contains("Current working directory: " + second.workDir).doesNotContain(first.workDir.toString());
    }

    /** The kept state is the owner's alone, holds no earlier working directory and no secret a tool printed. */
    @Test
    void theKeptStateIsPrivateAndHoldsNeitherAPathOfTheRunNorASecret() throws Exception {
        Path kept = tmp.resolve("state/s1.tgz");
        String secret = "kept-secret-9f8e7d6c5b4a";
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("echo \"the key is $DEPLOY_KEY\" | base64; echo $DEPLOY_KEY", "Printed it."))
                .environment("DEPLOY_KEY", secret)
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).add(TOOL_SECRETS, "DEPLOY_KEY"))
                .keepSessionIn(kept).run();
        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);

        assertThat(Files.getPosixFilePermissions(kept)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.getPosixFilePermissions(kept.getParent())).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        String unpacked = ArchiveWriter.textOfTarGz(Files.readAllBytes(kept));
        assertThat(unpacked).contains("workspace.yaml").doesNotContain("cwd:").doesNotContain(run.workDir.toString() + "\n")
                .doesNotContain(secret)
                .doesNotContain(java.util.Base64.getEncoder().encodeToString(("the key is " + secret + "\n").getBytes()).substring(16, 40))
                .contains("****");
    }

    @Test
    void aVerifyCheckDoesNotTakeTheKeptRunsCompletionForTheNewOne() throws Exception {
        Path kept = tmp.resolve("pr-7.tgz");
        E2eRun.with(COMPLETE).prompt("Start.").keepSessionIn(kept).run();
        byte[] state = Files.readAllBytes(kept);

        E2eRun second = E2eRun.with(request -> Reply.text("Still thinking."))
                .options(o -> o.keptState(state).set(MAX_AUTOPILOT_CONTINUES, 1).set(VERIFY, "echo ran > verify-ran.txt"))
                .run();

        assertThat(second.result.outcome()).isEqualTo(Outcome.INCOMPLETE);
        assertThat(second.result.verification().rounds()).isZero();
        assertThat(second.workDir.resolve("verify-ran.txt")).doesNotExist();
    }
}
