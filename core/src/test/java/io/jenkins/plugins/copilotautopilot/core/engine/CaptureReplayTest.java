package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.ReplayLauncher;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The engine on the real CLI outputs captured in {@code captures/}: outcome, counts, log and journal. */
class CaptureReplayTest {

    record Replay(SessionResult result, ListLogSink log, List<String> journal) {
    }

    static Replay replay(String capture) {
        ListLogSink log = new ListLogSink(false);
        ByteArrayOutputStream journal = new ByteArrayOutputStream();
        SessionResult result = AutopilotEngine.builder(log).journalTo(journal).build()
                .run(Commands.simple(), ReplayLauncher.ofCapture(capture));
        return new Replay(result, log, journal.toString(StandardCharsets.UTF_8).lines().toList());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // capture,                  outcome,    turns, tools, failed, denied, nudges
        "cli-happy,                  COMPLETED,  2,     2,     0,      0,      0",
        "cli-nudge,                  COMPLETED,  2,     1,     0,      0,      1",
        "cli-never-max2,             INCOMPLETE, 3,     0,     0,      0,      2",
        "cli-error400,               FAILED,     1,     0,     0,      0,      0",
        "cli-error500,               FAILED,     1,     0,     0,      0,      0",
        "cli-longstream,             COMPLETED,  1,     1,     0,      0,      0",
        "cli-perm-allowtool-touch,   COMPLETED,  2,     2,     0,      0,      0",
        "cli-perm-autopilot-noallow, COMPLETED,  2,     2,     0,      1,      0",
    })
    void eachCaptureGivesItsOutcomeAndCounts(String capture, Outcome outcome, int turns, int tools, int failed,
                                             int denied, int nudges) {
        Replay replay = replay(capture);

        assertThat(replay.result.outcome()).isEqualTo(outcome);
        assertThat(replay.result.activity().turns()).isEqualTo(turns);
        assertThat(replay.result.activity().toolCalls()).isEqualTo(tools);
        assertThat(replay.result.activity().failedToolCalls()).isEqualTo(failed);
        assertThat(replay.result.activity().deniedToolCalls()).isEqualTo(denied);
        assertThat(replay.result.activity().nudges()).isEqualTo(nudges);
        assertThat(replay.result.ending().exitCode()).isEqualTo(Captures.exitCode(capture));
        long captureLines = Captures.stdoutText(capture).lines().filter(l -> !l.isBlank()).count();
        assertThat(replay.journal).hasSize((int) captureLines + 2);
        assertThat(replay.log.lines()).allMatch(l -> l.startsWith("[copilot] "));
    }

    /**
     * CLI 1.0.102 prints {@code outcome} and {@code blocker} only from its own completion review (a model's
     * task_complete carries a summary alone), so the blocked completion is played from the happy capture.
     */
    private static String blockedCapture() {
        String happy = Captures.stdoutText("cli-happy");
        String completion = "\"summary\": \"Created hello.txt containing 'hello-from-fake-model'.\", \"success\": true}";
        assertThat(happy).contains(completion);
        return happy.replace(completion, "\"summary\": \"Could not publish.\", \"success\": false, \"outcome\": \"blocked\", "
                + "\"blocker\": {\"kind\": \"missing_access\", \"description\": \"No write access to the <registry>.\"}}");
    }

    @Test
    void aBlockedCompletionEndsBlockedWithTheBlockerInTheLogTheResultAndTheJournal() {
        ListLogSink log = new ListLogSink(false);
        ByteArrayOutputStream journal = new ByteArrayOutputStream();
        SessionResult result = AutopilotEngine.builder(log).journalTo(journal).build()
                .run(Commands.simple(), ReplayLauncher.ofText(blockedCapture(), 0));

        assertThat(result.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(result.outcome().exitCode()).isEqualTo(4);
        assertThat(result.reason()).isEqualTo("The agent called task_complete saying it is blocked after 2 turns.");
        assertThat(result.ending().blocker()).isEqualTo("missing_access: No write access to the <registry>.");
        assertThat(result.summary()).isEqualTo("Could not publish.");
        assertThat(result.toMap()).containsEntry("blocker", "missing_access: No write access to the <registry>.")
                .containsEntry("outcome", "BLOCKED").containsEntry("completed", false);
        assertThat(log.lines()).containsSubsequence(
                "[copilot]   Task blocked: missing_access: No write access to the <registry>.",
                "[copilot]   Summary: Could not publish.",
                "[copilot] BLOCKED: The agent called task_complete saying it is blocked after 2 turns.",
                "[copilot] Blocked by: missing_access: No write access to the <registry>.",
                "[copilot] Summary: Could not publish.");
        assertThat(journal.toString(StandardCharsets.UTF_8)).contains("\"blocker\":\"missing_access: No write access to the <registry>.\"");
    }

    @Test
    void withoutAgentTextTheLogSaysBlockedButNotByWhat() {
        ListLogSink log = new ListLogSink(false);
        SessionResult result = AutopilotEngine.builder(log).agentTextInLog(false).build()
                .run(Commands.simple(), ReplayLauncher.ofText(blockedCapture(), 0));

        assertThat(result.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(log.lines()).contains("[copilot]   Task blocked");
        assertThat(log.lines()).noneMatch(l -> l.contains("registry") || l.contains("Could not publish"));
    }

    @Test
    void aCompletionSentBackToWorkIsNoCompletion() {
        String happy = Captures.stdoutText("cli-happy");
        String sentBack = happy.replace("\"success\": true}", "\"success\": false, \"outcome\": \"continue\"}");
        assertThat(sentBack).isNotEqualTo(happy);
        ListLogSink log = new ListLogSink(false);
        SessionResult result = AutopilotEngine.builder(log).build().run(Commands.simple(), ReplayLauncher.ofText(sentBack, 0));

        assertThat(result.outcome()).isEqualTo(Outcome.INCOMPLETE);
        assertThat(result.summary()).isNull();
        assertThat(result.reason()).startsWith("The agent's last task_complete was sent back to work (outcome: continue)");
        assertThat(log.lines()).contains("[copilot]   Task complete not accepted (outcome: continue): the agent goes on");
    }

    @Test
    void happyCaptureReadsLikeTheSession() {
        Replay replay = replay("cli-happy");

        assertThat(replay.log.lines()).containsSubsequence(
                "[copilot] Turn 1",
                "[copilot]   I'll create the file.",
                "[copilot]   > bash: echo hello-from-fake-model > hello.txt && cat hello.txt",
                "[copilot]   < bash ok (109 ms)",
                "[copilot] Turn 2",
                "[copilot]   Task complete: Created hello.txt containing 'hello-from-fake-model'.",
                "[copilot] COMPLETED: The agent called task_complete after 2 turns.",
                "[copilot] Summary: Created hello.txt containing 'hello-from-fake-model'.");
        assertThat(replay.log.find("[copilot] 2 turns | 2 tool calls (0 failed, 0 denied) | 0 continuations | premium requests: 0 | "))
                .isNotNull();
        // the capture's bash call created hello.txt: the CLI's count, all there is without a work tree, leaves it out
        assertThat(replay.log.lines()).endsWith("[copilot] Code changes by the CLI's edit tools: +0 -0 in 0 files; not a git work"
                + " tree, so shell commands' changes are not counted", "[copilot] Session b47bbc09-5752-47c6-9720-d76beed46fe1 | CLI exit code 0");
        assertThat(replay.log.lines()).noneMatch(l -> l.contains("background_tasks") || l.contains("delta"));
        assertThat(replay.result.summary()).isEqualTo("Created hello.txt containing 'hello-from-fake-model'.");
        assertThat(replay.result.ending().sessionId()).isEqualTo("b47bbc09-5752-47c6-9720-d76beed46fe1");
        assertThat(replay.result.ending().model()).isEqualTo("fake-model");
        assertThat(replay.result.usage().premiumRequests()).isEqualTo(0.0);
    }

    @Test
    void error400NamesTheModelError() {
        Replay replay = replay("cli-error400");

        assertThat(replay.result.reason())
                .isEqualTo("The session failed with a model error (HTTP 400): 400 fake server: bad request (scripted)");
        assertThat(replay.log.lines()).contains("[copilot] ERROR: model error (HTTP 400): 400 fake server: bad request (scripted)");
    }

    @Test
    void error500ShowsTheRetries() {
        Replay replay = replay("cli-error500");

        assertThat(replay.log.lines().stream().filter(l -> l.contains("info: Request failed due to a transient API error. Retrying..."))
                .count()).isEqualTo(5);
        assertThat(replay.result.reason()).contains("HTTP 500");
    }

    @Test
    void capReachedIsIncompleteWithTheReason() {
        Replay replay = replay("cli-never-max2");

        assertThat(replay.result.reason())
                .isEqualTo("The agent stopped without calling task_complete after 2 autopilot continuations (the maxAutopilotContinues limit).");
        assertThat(replay.log.lines()).contains(
                "[copilot]   Plain text answer #1, never calling task_complete.",
                "[copilot] Autopilot continuation 2: the agent stopped without task_complete; the CLI asks it to go on",
                "[copilot] Autopilot stopped: cap_reached");
    }

    @Test
    void longStreamIsOneMessage() {
        Replay replay = replay("cli-longstream");

        assertThat(replay.log.lines().stream().filter(l -> l.contains("w0 w1 w2")).count()).isEqualTo(1);
        assertThat(replay.log.lines().stream().filter(l -> l.contains("w321")).count()).isEqualTo(1);
        assertThat(replay.log.lines().size()).isLessThan(15);
        // the capture was abridged with a JSON line that is not an event: kept, as CLI output
        assertThat(replay.log.lines()).contains("[copilot] cli: {\"trimmed\": \"935 streaming delta events dropped\"}");
    }

    @Test
    void deniedToolShowsThePermissionMessage() {
        Replay replay = replay("cli-perm-autopilot-noallow");

        assertThat(replay.log.find("< bash DENIED")).contains("Permission denied because no interactive user response was available");
    }
}
