package io.jenkins.plugins.copilotautopilot.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.session.ToolStatus;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.ReplayLauncher;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SessionReportReaderTest {

    /** The journal the engine records for a capture. */
    static String journalOf(String capture) {
        ByteArrayOutputStream journal = new ByteArrayOutputStream();
        AutopilotEngine.builder(new ListLogSink(false)).journalTo(journal).build()
                .run(Commands.simple(), ReplayLauncher.ofCapture(capture));
        return journal.toString(StandardCharsets.UTF_8);
    }

    static SessionReport reportOf(String capture) throws IOException {
        return SessionReportReader.read(new StringReader(journalOf(capture)));
    }

    @Test
    void happySessionTurnByTurn() throws IOException {
        SessionReport report = reportOf("cli-happy");

        assertThat(report.outcome()).isEqualTo("COMPLETED");
        assertThat(report.reason()).isEqualTo("The agent called task_complete after 2 turns.");
        assertThat(report.summary()).isEqualTo("Created hello.txt containing 'hello-from-fake-model'.");
        assertThat(report.prompt()).isEqualTo("Do the task");
        assertThat(report.model()).isEqualTo("fake-model");
        assertThat(report.cliVersion()).isEqualTo("1.0.102");
        assertThat(report.startedAt()).isNotNull();
        assertThat(report.durationMillis()).isGreaterThanOrEqualTo(0);
        assertThat(report.turns()).hasSize(2);

        TurnReport first = report.turns().get(0);
        assertThat(first.messages()).containsExactly("I'll create the file.");
        assertThat(first.durationMillis()).isEqualTo(254);
        assertThat(first.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("bash");
            assertThat(call.arguments()).isEqualTo("echo hello-from-fake-model > hello.txt && cat hello.txt");
            assertThat(call.status()).isEqualTo(ToolStatus.SUCCEEDED);
            assertThat(call.durationMillis()).isEqualTo(109);
            assertThat(call.output()).startsWith("hello-from-fake-model");
        });
        assertThat(report.turns().get(1).toolCalls()).extracting(ToolCallReport::name).containsExactly("task_complete");

        SessionReport.Totals totals = report.totals();
        assertThat(totals.turns()).isEqualTo(2);
        assertThat(totals.toolCalls()).isEqualTo(2);
        assertThat(totals.premiumRequests()).isEqualTo(0.0);
        assertThat(totals.events()).isGreaterThan(50);
    }

    @Test
    void aStopJournaledInTheMiddleOfABacklogCountsTheTurnsTheCliHadOpenedBeforeIt() throws IOException {
        String journal = String.join("\n",
                "{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"1\"},\"timestamp\":\"2026-01-01T00:00:01Z\"}",
                "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"1\"},\"timestamp\":\"2026-01-01T00:00:02Z\"}",
                "{\"type\":\"autopilot.stopping\",\"data\":{\"termination\":\"OVER_BUDGET\"},\"timestamp\":\"2026-01-01T00:01:00Z\"}",
                "{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"2\"},\"timestamp\":\"2026-01-01T00:00:03Z\"}",
                "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"2\"},\"timestamp\":\"2026-01-01T00:00:04Z\"}",
                "{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"3\"},\"timestamp\":\"2026-01-01T00:01:01Z\"}",
                "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"3\"},\"timestamp\":\"2026-01-01T00:01:02Z\"}");

        assertThat(SessionReportReader.read(new StringReader(journal)).totals().turns())
                .as("as the console counted them: the stop was decided after turn 2 had begun").isEqualTo(2);
    }

    @Test
    void nudgesDeniedCallsAndErrorsShowWhereTheyHappened() throws IOException {
        assertThat(reportOf("cli-nudge").turns()).extracting(TurnReport::afterNudge).containsExactly(false, true);
        assertThat(reportOf("cli-perm-autopilot-noallow").turns().get(0).toolCalls().get(0))
                .satisfies(call -> {
                    assertThat(call.status()).isEqualTo(ToolStatus.DENIED);
                    assertThat(call.error()).startsWith("Permission denied");
                });
        SessionReport error = reportOf("cli-error400");
        assertThat(error.outcome()).isEqualTo("FAILED");
        assertThat(error.turns().get(0).errors()).containsExactly("model error (HTTP 400): 400 fake server: bad request (scripted)");
    }

    @Test
    void theStepsLabelComesFromThePlanTheJournalBegan() throws IOException {
        assertThat(reportOf("cli-happy").label()).isNull();
        ByteArrayOutputStream journal = new ByteArrayOutputStream();
        AutopilotEngine.builder(new ListLogSink(false)).journalTo(journal).build()
                .run(Commands.of(io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec.of("Do the task")
                        .githubToken("github_pat_testtoken123456")
                        .set(io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.LABEL, "Fix the build")),
                        ReplayLauncher.ofCapture("cli-happy"));
        SessionReport labelled = SessionReportReader.read(new StringReader(journal.toString(StandardCharsets.UTF_8)));
        assertThat(labelled.label()).isEqualTo("Fix the build");
        assertThat(labelled.withoutAgentText().label()).isEqualTo("Fix the build");
    }

    @Test
    void aCallTheRunEndedIsInterruptedNotRunning() throws IOException {
        String journal = withoutLines(journalOf("cli-happy"), "\"call_fake_1\"", "tool.execution_complete");

        ToolCallReport bash = SessionReportReader.read(new StringReader(journal)).turns().get(0).toolCalls().get(0);
        assertThat(bash.status()).isEqualTo(ToolStatus.INTERRUPTED);
        assertThat(bash.error()).isEqualTo("the session ended while it was running");
        assertThat(SessionReportReader.read(new StringReader(journal)).totals().failedToolCalls()).as("cut short, not failed").isZero();
        // it ran until the run ended (the timeline draws it so)
        String finished = journal.substring(journal.lastIndexOf("{\"type\":\"autopilot.run_finished\""));
        java.time.Instant endedAt = java.time.Instant.parse(new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(finished.lines().findFirst().orElseThrow()).path("timestamp").asText());
        assertThat(bash.durationMillis()).isPositive()
                .isEqualTo(java.time.Duration.between(bash.startedAt(), endedAt).toMillis());

        String stillRunning = journal.substring(0, journal.lastIndexOf("{\"type\":\"autopilot.run_finished\""));
        assertThat(SessionReportReader.read(new StringReader(stillRunning)).turns().get(0).toolCalls().get(0).status())
                .as("without the end record the session may still be running")
                .isEqualTo(ToolStatus.RUNNING);
    }

    @Test
    void aCallThatFailedAfterTheStopWasAskedForIsInterruptedAsItWasLive() throws IOException {
        StringBuilder journal = new StringBuilder();
        for (String line : journalOf("cli-happy").split("\n")) {
            if (line.contains("\"call_fake_1\"") && line.contains("tool.execution_complete")) {
                journal.append("{\"type\":\"autopilot.stopping\",\"data\":{\"termination\":\"ABORTED\"}}\n");
                line = line.replace("\"exitCode\": 0", "\"exitCode\": 143").replace("\"exitCode\":0", "\"exitCode\":143");
            }
            journal.append(line).append('\n');
        }

        ToolCallReport bash = SessionReportReader.read(new StringReader(journal.toString())).turns().get(0).toolCalls().get(0);
        assertThat(bash.status()).isEqualTo(ToolStatus.INTERRUPTED);
        assertThat(bash.error()).startsWith("the session was stopped while it was running (exit code 143: ");
    }

    @Test
    void terminalEscapesAndBidiOverridesNeverReachThePage() throws IOException {
        String hostile = "I'll \\u001b[31mcreate\\u001b[0m \\u202egnp.exe the file\\u0007.";
        String journal = journalOf("cli-happy").replace("\"content\": \"I'll create the file.\"",
                "\"content\": \"" + hostile + "\"");
        assertThat(journal).contains("u202egnp");

        SessionReport report = SessionReportReader.read(new StringReader(journal));

        assertThat(report.turns().get(0).messages()).containsExactly("I'll create \uFFFDgnp.exe the file\uFFFD.");
    }

    private static String withoutLines(String journal, String... allOf) {
        StringBuilder kept = new StringBuilder();
        for (String line : journal.split("\n")) {
            boolean drop = true;
            for (String part : allOf) {
                drop &= line.contains(part);
            }
            if (!drop) {
                kept.append(line).append('\n');
            }
        }
        return kept.toString();
    }

    @Test
    void aJournalWithoutEndRecordStillReads() throws IOException {
        String journal = journalOf("cli-happy");
        String withoutEnd = journal.substring(0, journal.lastIndexOf("{\"type\":\"autopilot.run_finished\""));
        SessionReport report = SessionReportReader.read(new StringReader(withoutEnd + "not json at all\n{\"broken\n"));
        assertThat(report.outcome()).isNull();
        assertThat(report.turns()).hasSize(2);
        assertThat(report.summary()).isEqualTo("Created hello.txt containing 'hello-from-fake-model'.");
    }

    @Test
    void manyTurnsAreCapped() throws IOException {
        StringBuilder journal = new StringBuilder();
        int turns = SessionReportReader.MAX_TURNS + 50;
        for (int t = 0; t < turns; t++) {
            journal.append("{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"").append(t).append("\"}}\n");
            journal.append("{\"type\":\"assistant.message\",\"data\":{\"content\":\"").append("m".repeat(20_000)).append("\"}}\n");
            journal.append("{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"").append(t).append("\"}}\n");
        }
        SessionReport report = SessionReportReader.read(new StringReader(journal.toString()));
        assertThat(report.turns()).hasSize(SessionReportReader.MAX_TURNS);
        assertThat(report.omittedTurns()).isEqualTo(50);
        assertThat(report.totals().turns()).isEqualTo(turns);
        assertThat(report.turns().get(0).messages().get(0)).hasSize(SessionReportReader.MAX_MESSAGE);
    }
}
