package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.ToolCall;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Whole autopilot sessions with the real Copilot CLI against a scripted model on 127.0.0.1: outcomes, the
 * live log, the journal, and that no process outlives a stopped session.
 */
@Timeout(120)
class EngineEndToEndTest {

    @Test
    void completesAfterAShellToolCall() throws Exception {
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("echo hello-from-the-model > hello.txt && cat hello.txt",
                        "Created hello.txt."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.summary()).isEqualTo("Created hello.txt.");
        assertThat(run.result.activity().turns()).isEqualTo(2);
        assertThat(run.result.activity().toolCalls()).isEqualTo(2);
        assertThat(run.result.ending().exitCode()).isZero();
        assertThat(run.result.ending().sessionId()).isNotBlank();
        assertThat(Files.readString(run.workDir.resolve("hello.txt")).trim()).isEqualTo("hello-from-the-model");

        assertThat(run.log.lines()).contains(
                "[copilot] Turn 1",
                "[copilot]   I'll run a command.",
                "[copilot]   > bash: echo hello-from-the-model > hello.txt && cat hello.txt",
                "[copilot] Turn 2",
                "[copilot]   Task complete: Created hello.txt.",
                "[copilot] COMPLETED: The agent called task_complete after 2 turns.",
                "[copilot] Summary: Created hello.txt.");
        assertThat(run.log.find("< bash ok (")).isNotNull();
        assertThat(run.log.find("2 turns | 2 tool calls (0 failed, 0 denied)")).isNotNull();

        List<JsonNode> journal = run.journalLines();
        assertThat(journal.get(0).path("type").asText()).isEqualTo("autopilot.run_started");
        assertThat(journal.get(journal.size() - 1).path("type").asText()).isEqualTo("autopilot.run_finished");
        assertThat(journal.get(journal.size() - 1).path("data").path("outcome").asText()).isEqualTo("COMPLETED");
        List<String> types = journal.stream().map(j -> j.path("type").asText()).collect(Collectors.toList());
        assertThat(types).contains("assistant.message_delta", "tool.execution_start", "session.task_complete",
                "assistant.idle", "result");
        long rawEventLines = run.rawStdout.lines().filter(l -> !l.isBlank()).count();
        long usageRecords = journal.stream().filter(l -> "autopilot.usage".equals(l.path("type").asText())).count();
        assertThat(usageRecords).as("one usage record per model call").isGreaterThanOrEqualTo(2);
        // every stdout line, the usage of each model call, and our first and last record
        assertThat(journal).hasSize((int) (rawEventLines + usageRecords) + 2);
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
    }

    @Test
    void completesAfterOneNudge() throws Exception {
        E2eRun run = E2eRun.with(Scripts.completeAfterNudge("Finished after the nudge.")).run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.activity().nudges()).isEqualTo(1);
        assertThat(run.result.activity().turns()).isEqualTo(2);
        assertThat(run.log.lines()).contains("[copilot]   I think I am done, but I did not call task_complete.");
        assertThat(run.log.find("Autopilot continuation 1: the agent stopped without task_complete")).isNotNull();
        assertThat(run.log.lines().indexOf(run.log.find("Autopilot continuation 1")))
                .isLessThan(run.log.lines().indexOf("[copilot] Turn 2"));
    }

    @Test
    void neverCompletingHitsTheContinuationCapAndIsIncomplete() throws Exception {
        E2eRun run = E2eRun.with(Scripts.neverComplete())
                .options(o -> o.set(MAX_AUTOPILOT_CONTINUES, 2))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.INCOMPLETE);
        assertThat(run.result.activity().nudges()).isEqualTo(2);
        assertThat(run.result.activity().turns()).isEqualTo(3);
        assertThat(run.result.summary()).isNull();
        assertThat(run.result.reason()).contains("without calling task_complete after 2 autopilot continuations");
        assertThat(run.log.find("Autopilot stopped: cap_reached")).isNotNull();
        assertThat(run.log.find("INCOMPLETE: The agent stopped without calling task_complete")).isNotNull();
        assertThat(run.server.agentTurns()).isEqualTo(3);
    }

    @Test
    void http400FromTheModelFailsWithTheCliMessage() throws Exception {
        E2eRun run = E2eRun.with(Scripts.always(Reply.status(400, "scripted: the request is bad"))).run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result.reason()).contains("HTTP 400").contains("scripted: the request is bad");
        assertThat(run.result.ending().exitCode()).isEqualTo(1);
        assertThat(run.log.find("[copilot] ERROR: model error (HTTP 400)")).contains("scripted: the request is bad");
        assertThat(run.log.find("FAILED: The session failed with a model error (HTTP 400)")).isNotNull();
    }

    @Test
    void toolsWithoutPermissionAreReportedAsDenied() throws Exception {
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("echo denied-please > hello.txt", "Tried to write the file."))
                .run(); // no allowAllTools: the CLI refuses the redirecting shell command

        assertThat(run.result.activity().deniedToolCalls()).isEqualTo(1);
        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.log.find("< bash DENIED")).contains("Permission denied");
        assertThat(run.log.find("(0 failed, 1 denied)")).isNotNull();
        assertThat(run.workDir.resolve("hello.txt")).doesNotExist();
    }

    @Test
    void allowedAndDeniedToolPatternsReachTheCli() throws Exception {
        E2eRun allowed = E2eRun.with(Scripts.bashThenComplete("echo allowed-by-pattern", "Echoed."))
                .options(o -> o.add(ALLOW_TOOLS, "shell(echo)"))
                .run();
        assertThat(allowed.log.find("< bash ok")).isNotNull();
        assertThat(allowed.journalText()).contains("allowed-by-pattern\\n");

        E2eRun denied = E2eRun.with(Scripts.bashThenComplete("echo denied-by-pattern", "Tried."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).add(DENY_TOOLS, "shell(echo)"))
                .run();
        assertThat(denied.result.activity().deniedToolCalls()).isEqualTo(1);
        assertThat(denied.log.find("< bash DENIED")).isNotNull();
    }

    @Test
    void aStalledModelEndsStalledWithinTheLimitAndLeavesNoProcess() throws Exception {
        long start = System.nanoTime();
        // the limit counts from the start too: it must be longer than the CLI takes to print its first event on a
        // loaded machine (more than 8 s measured at a load of 9 on 2 cores)
        E2eRun run = E2eRun.with(Scripts.always(Reply.stall()))
                .options(o -> o.set(INACTIVITY_TIMEOUT, Duration.ofSeconds(15)))
                .run();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(run.result.outcome()).isEqualTo(Outcome.STALLED);
        assertThat(run.result.reason()).contains("No event from the Copilot CLI for 15s")
                .contains("while waiting for the model in turn 1");
        assertThat(took).isLessThan(Duration.ofSeconds(45));
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
        assertThat(run.log.find("STALLED:")).isNotNull();
    }

    @Test
    void theWallClockLimitEndsTimedOutAndLeavesNoProcess() throws Exception {
        // long enough for the CLI to reach its tool on a loaded machine (its first event took more than 8 s there)
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("sleep 120", "never"))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(TIMEOUT, Duration.ofSeconds(20)))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.TIMED_OUT);
        assertThat(run.result.reason()).contains("Timed out after 20s").contains("while tool 'bash' (sleep 120) was running");
        // stopped promptly at the limit: SIGTERM, a grace of at most 3 s, SIGKILL
        assertThat(run.result.ending().durationMillis()).isBetween(20_000L, 26_000L);
        assertThat(run.log.find("< bash INTERRUPTED")).isNotNull();
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
    }

    @Test
    void abortMidToolEndsAbortedAndKillsTheToolToo() throws Exception {
        AtomicReference<AutopilotEngine> engine = new AtomicReference<>();
        AtomicReference<java.nio.file.Path> work = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicLong abortedAt = new java.util.concurrent.atomic.AtomicLong();
        AtomicBoolean toolRan = new AtomicBoolean();
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("sleep 300 && echo should-not-happen > late.txt", "never"))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true))
                .workDir(work::set)
                .engine(engine::set)
                .listener(new SessionListener() {
                    @Override
                    public void onToolStarted(ToolCall call) {
                        // the CLI announces the call before its shell runs the command: abort once the command runs
                        abortWhen(() -> ProcessTable.workingIn(work.get()).stream().anyMatch(p -> p.contains("sleep 300")), toolRan,
                                () -> {
                                    abortedAt.set(System.currentTimeMillis());
                                    engine.get().abort();
                                });
                    }
                })
                .run();

        long stoppedIn = System.currentTimeMillis() - abortedAt.get();
        assertThat(toolRan).as("the tool's command ran before the abort").isTrue();
        assertThat(run.result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(run.result.reason()).contains("Aborted while tool 'bash'");
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
        assertThat(ProcessTable.workingIn(run.workDir)).isEmpty();
        assertThat(run.workDir.resolve("late.txt")).doesNotExist();
        assertThat(run.log.find("ABORTED:")).isNotNull();
        // however the CLI reports the killed shell (exit code 1, before or after its own abort event), it was cut off
        assertThat(run.log.find("< bash INTERRUPTED")).isNotNull();
        assertThat(run.log.find("< bash FAILED")).isNull();
        assertThat(run.result.activity().failedToolCalls()).as("a call the stop cut short did not fail").isZero();
        assertThat(run.log.find("1 tool call (0 failed, 1 interrupted, 0 denied)")).isNotNull();
        assertThat(run.journalLines()).filteredOn(l -> "autopilot.stopping".equals(l.path("type").asText()))
                .singleElement().satisfies(l -> assertThat(l.path("data").path("termination").asText()).isEqualTo("ABORTED"));
        // the tree is stopped promptly, not when some later wait runs out
        assertThat(stoppedIn).isLessThan(6_000L);
    }

    /**
     * Aborts from another thread, as a user pressing "stop" would, as soon as {@code condition} holds; {@code met} says
     * whether it did. A condition that does not hold within a minute aborts all the same, for the test to fail on
     * {@code met} rather than hang.
     */
    static void abortWhen(BooleanSupplier condition, AtomicBoolean met, Runnable abort) {
        Thread aborter = new Thread(() -> {
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            try {
                while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
            } catch (InterruptedException e) {
                return;
            }
            met.set(condition.getAsBoolean());
            abort.run();
        }, "test-aborter");
        aborter.setDaemon(true);
        aborter.start();
    }

    @Test
    void aSecretPrintedByAToolIsMaskedInLogAndJournal() throws Exception {
        String token = "github_pat_scriptedSecretToken1234567890";
        String apiKey = "sk-scripted-provider-key-0987654321";
        // The tool prints the secrets in ways the CLI's own redaction does not catch: split across lines.
        String command = "printf '%s\\n%s\\n' github_pat_scriptedSecret Token1234567890; printf '%s\\n%s\\n' sk-scripted-prov ider-key-0987654321";
        E2eRun run = E2eRun.with(request -> {
                    if (!request.used("bash")) {
                        return Reply.bash(command, 30).withText("Printing " + token + " now.");
                    }
                    return request.used("task_complete") ? Reply.text("done")
                            : Reply.taskComplete("Printed the token " + token + " and key " + apiKey + ".");
                })
                .apiKey(apiKey)
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).githubToken(token))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        String log = run.log.text();
        String journal = run.journalText();
        for (String secret : List.of(token, apiKey)) {
            assertThat(log).doesNotContain(secret);
            assertThat(journal).doesNotContain(secret);
            assertThat(run.result.summary()).doesNotContain(secret);
            assertThat(run.result.toMap().toString()).doesNotContain(secret);
        }
        assertThat(run.result.summary()).startsWith("Printed the token ****").contains(" and key ****");
        // the raw stream really carried the split secrets: the masking was needed
        assertThat(run.rawStdout).contains("github_pat_scriptedSecret\\nToken1234567890");
        assertThat(journal).doesNotContain("github_pat_scriptedSecret\\nToken1234567890");
        assertThat(run.command.commandLine().toString()).doesNotContain(token).doesNotContain(apiKey);
    }

    @Test
    void aOneLetterKeyTheCliRedactsEverywhereDoesNotHideTheCompletion() throws Exception {
        // the CLI writes "session.tas******_complete" when its provider key is "k": the outcome is decided on the event
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("echo fake-work > done.txt", "All good, task done."))
                .apiKey("k")
                .options(o -> o.set(ALLOW_ALL_TOOLS, true))
                .run();

        assertThat(run.rawStdout).as("the CLI's own redaction garbled its event types")
                .contains("\"type\":\"session.tas******_complete\"");
        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.summary()).isEqualTo("All good, task done.");
        assertThat(run.result.warnings()).singleElement().asString()
                .startsWith("WARNING: the secret in COPILOT_PROVIDER_API_KEY is shorter than 8 characters");
        assertThat(run.log.lines()).contains("[copilot]   Task complete: All good, task done.",
                "[copilot] COMPLETED: The agent called task_complete after 2 turns.");
        assertThat(run.log.text()).doesNotContain("******");
        List<String> types = run.journalLines().stream().map(j -> j.path("type").asText()).collect(Collectors.toList());
        assertThat(types).contains("session.task_complete").noneMatch(t -> t.contains("*"));
    }

    @Test
    void aThousandDeltasBecomeOneMessageInTheLog() throws Exception {
        StringBuilder words = new StringBuilder();
        for (int i = 0; i < 800; i++) {
            words.append('w').append(i).append(' ');
        }
        String text = words.toString().trim();
        E2eRun run = E2eRun.with(request -> request.turn() == 1
                        ? Reply.taskComplete("Streamed 800 words.").withText(text).chunked(4, 0)
                        : Reply.text("All done."))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        long deltas = run.rawStdout.lines().filter(l -> l.contains("\"assistant.message_delta\"")).count();
        assertThat(deltas).isGreaterThan(900);
        assertThat(run.log.lines()).containsOnlyOnce("[copilot]   " + text);
        assertThat(run.log.lines().stream().filter(l -> l.contains("w799")).count()).isEqualTo(1);
        assertThat(run.log.lines().size()).isLessThan(20);
    }
}
