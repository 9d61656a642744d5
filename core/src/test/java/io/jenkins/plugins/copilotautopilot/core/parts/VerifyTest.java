package io.jenkins.plugins.copilotautopilot.core.parts;

import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Script;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code verify}: the acceptance check runs after task_complete; a failure resumes the same CLI session with a prompt
 * naming the command, its exit code and the end of its output (masked); NOT_VERIFIED when it never passes. The real
 * CLI 1.0.102; the scripted model completes at once, and fixes the work when told the check failed.
 */
class VerifyTest {
    private static final String CHECK = "sleep 0.2; if [ -f fixed.txt ]; then echo all-tests-pass; else echo 'FAIL: fixed.txt is missing'; exit 3; fi";

    private static final Script FIX_WHEN_TOLD = Scripts.completeThenFixWhenTold("touch fixed.txt");

    @Test
    void aCheckThatFailsOnceIsFixedInTheSameSessionAndPassesInRoundTwo() throws Exception {
        E2eRun run = E2eRun.with(FIX_WHEN_TOLD).options(o -> o.set(ALLOW_ALL_TOOLS, true).set(VERIFY, CHECK)).run();

        assertThat(run.result.outcome()).as(run.log.lines().toString()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.verification().verified()).isTrue();
        assertThat(run.result.verification().rounds()).isEqualTo(2);
        assertThat(run.result.verification().exitCode()).isZero();
        assertThat(run.result.toMap()).containsEntry("verified", true).containsEntry("verifyRounds", 2).containsEntry("verifyExitCode", 0);
        assertThat(run.log.lines()).contains("[copilot] Verify, round 1 of 2: running the acceptance check",
                "[copilot] verify | FAIL: fixed.txt is missing",
                "[copilot] Verify, round 1: FAILED with exit code 3; the agent is asked to fix it",
                "[copilot] verify | all-tests-pass",
                "[copilot] Verify, round 2: passed");
        assertThat(run.result.reason()).endsWith("verify passed in round 2.");
        // the model's request after the failure names the command, its exit code and its output, in the same conversation
        JsonNode told = run.server.requests().stream().filter(r -> r.toString().contains("The acceptance check of this task failed"))
                .findFirst().orElseThrow();
        String messages = told.path("messages").toString();
        assertThat(messages).contains("exited with code 3").contains("FAIL: fixed.txt is missing").contains("fixed.txt ]")
                .contains("Implemented it.");
        assertThat(run.journalText()).contains("autopilot.verify_finished");
        // the session page and the timeline draw each round as a call of "verify" in the turn it follows
        var report = io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader.read(run.journal);
        var rounds = report.turns().stream().flatMap(t -> t.toolCalls().stream()).filter(c -> c.name().equals("verify")).toList();
        assertThat(rounds).extracting(c -> c.arguments() + " " + c.status() + " " + c.error())
                .containsExactly("round 1 FAILED exit code 3", "round 2 SUCCEEDED null");
        assertThat(rounds.get(0).output()).contains("FAIL: fixed.txt is missing");
        assertThat(rounds.get(0).startedAt()).isNotNull();
        assertThat(io.jenkins.plugins.copilotautopilot.core.report.TimelineSvg.render(report)).contains("verify");
        // stamped to the millisecond as the CLI's events are: a round has its real length and comes after the turn it follows
        assertThat(run.journalLines().stream().filter(j -> j.path("type").asText().matches("autopilot.verify_(started|finished)"))
                .map(j -> j.path("timestamp").asText())).hasSize(4).allMatch(t -> t.matches(".*T\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));
        var turnOfRoundOne = report.turns().stream().filter(t -> t.toolCalls().contains(rounds.get(0))).findFirst().orElseThrow();
        assertThat(rounds.get(0).startedAt()).isAfterOrEqualTo(turnOfRoundOne.startedAt());
        assertThat(rounds.get(0).durationMillis()).as("the check sleeps 200 ms first").isBetween(200L, 60_000L);
    }

    @Test
    void aCheckThatNeverPassesIsNotVerifiedAndItsSecretsNeverReachTheModel() throws Exception {
        String secret = "s3cr3t-verify-value-9876";
        E2eRun run = E2eRun.with(FIX_WHEN_TOLD)
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(VERIFY, "echo \"token is $VERIFY_SECRET\"; echo broken; exit 1")
                        .add(SECRET_ENV_VARS, "VERIFY_SECRET"))
                .environment("VERIFY_SECRET", secret)
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.NOT_VERIFIED);
        assertThat(run.result.verification().verified()).isFalse();
        assertThat(run.result.verification().rounds()).isEqualTo(2);
        assertThat(run.result.verification().exitCode()).isEqualTo(1);
        assertThat(run.result.reason()).isEqualTo("The acceptance check `echo \"token is $VERIFY_SECRET\"; echo broken; exit 1` still"
                + " failed (exit code 1) after 2 rounds (the maxVerifyRounds limit).");
        assertThat(run.log.lines()).contains("[copilot] verify | token is ****", "[copilot] Verify, round 2: FAILED with exit code 1; no rounds left");
        List<JsonNode> requests = run.server.requests();
        assertThat(requests.toString()).contains("token is ****").doesNotContain(secret);
        assertThat(String.join("\n", run.log.lines())).doesNotContain(secret);
        assertThat(run.journalText()).doesNotContain(secret);
    }

    @Test
    void aCheckThatCannotStartIsOneClearLineAndTheAgentIsNotSentBack() throws Exception {
        E2eRun run = E2eRun.with(FIX_WHEN_TOLD).options(o -> o.set(VERIFY, "no-such-test-runner --all")).run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.NOT_VERIFIED);
        assertThat(run.result.verification().rounds()).isEqualTo(1);
        assertThat(run.result.reason()).isEqualTo("The acceptance check `no-such-test-runner --all` could not start (exit code 127:"
                + " a command was not found on the agent; its output is in the log).");
        assertThat(run.log.lines()).contains("[copilot] Verify, round 1: FAILED with exit code 127; the check could not start")
                .anyMatch(l -> l.startsWith("[copilot] verify | ") && l.contains("no-such-test-runner") && l.contains("not found"));
        assertThat(run.server.requests().toString()).doesNotContain("The acceptance check of this task failed");
    }

    @Test
    void anAbortWhileTheCheckRunsStopsItAndDecidesNothingAboutIt() throws Exception {
        java.util.concurrent.atomic.AtomicReference<AutopilotEngine> engine = new java.util.concurrent.atomic.AtomicReference<>();
        E2eRun run = E2eRun.with(FIX_WHEN_TOLD)
                .options(o -> o.set(VERIFY, "echo checking; sleep 60"))
                .engine(engine::set)
                .listener(new io.jenkins.plugins.copilotautopilot.core.session.SessionListener() {
                    @Override
                    public void onVerifyStarted(int round, java.time.Instant at) {
                        engine.get().abort();
                    }
                })
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(run.result.verification().verified()).isNull();
        assertThat(run.result.verification().exitCode()).isNull();
        assertThat(run.log.lines()).contains("[copilot] Verify, round 1: stopped with the session");
        assertThat(io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable.survivorsOf(run.runId)).isEmpty();
    }

    @Test
    void aCheckIsNotRunWhenTheAgentNeverCompletes() throws Exception {
        E2eRun run = E2eRun.with(request -> Reply.text("Still thinking."))
                .options(o -> o.set(MAX_AUTOPILOT_CONTINUES, 1).set(VERIFY, "echo ran > verify-ran.txt"))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.INCOMPLETE);
        assertThat(run.result.verification().rounds()).isZero();
        assertThat(run.workDir.resolve("verify-ran.txt")).doesNotExist();
    }
}
