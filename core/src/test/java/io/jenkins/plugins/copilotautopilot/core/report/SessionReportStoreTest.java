package io.jenkins.plugins.copilotautopilot.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.testing.SyntheticSession;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A session's report is read from its journal once, then from its report file or memory, until the journal changes. */
class SessionReportStoreTest {
    @TempDir
    Path dir;
    private Path journal;

    @BeforeEach
    void journal() throws Exception {
        SessionReportStore.forget();
        journal = dir.resolve("node-5.jsonl");
        try (OutputStream out = Files.newOutputStream(journal)) {
            SyntheticSession.write(out, 500);
        }
    }

    @Test
    void theFirstViewReadsTheJournalAndKeepsTheReportBesideIt() throws Exception {
        SessionReport report = SessionReportStore.get(journal);

        assertThat(report.summary()).isEqualTo(SessionReportReader.read(journal).summary()).isNotNull();
        assertThat(SessionReportStore.reportFile(journal)).exists();
        assertThat(SessionReportStore.get(journal)).as("the same, from memory").isSameAs(report);
    }

    @Test
    void laterViewsDoNotReadTheJournalAgain() throws Exception {
        SessionReport first = SessionReportStore.get(journal);
        SessionReportStore.forget(); // as after a restart
        // the journal is no journal any more, but looks older than the report: only the report file can answer
        FileTime before = Files.getLastModifiedTime(journal);
        Files.writeString(journal, "not a journal\n");
        Files.setLastModifiedTime(journal, before);

        SessionReport second = SessionReportStore.get(journal);

        assertThat(second).isEqualTo(first).isNotSameAs(first);
    }

    @Test
    void aReportKeptBeforeFailuresWereRecordedIsStillRead() throws Exception {
        SessionReport now = SessionReportReader.read(journal);
        SessionReporX old = new SessionReporX(now.prompt(), now.model(), now.cliVersion(), now.startedAt(), now.endedAt(),
                "FAILED", "kept by an older version", now.summary(), now.durationMillis(), now.turns(), now.omittedTurns(),
                now.totals(), now.changes(), now.approvals(), now.label());
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(old);
        }
        // the same stream as that version wrote: the report's class name, its fields without the failure
        byte[] stream = new String(bytes.toByteArray(), StandardCharsets.ISO_8859_1)
                .replace(SessionReporX.class.getName(), SessionReport.class.getName()).getBytes(StandardCharsets.ISO_8859_1);
        Path file = SessionReportStore.reportFile(journal);
        Files.write(file, stream);
        Files.setLastModifiedTime(file, Files.getLastModifiedTime(journal));

        SessionReport read = SessionReportStore.get(journal);

        assertThat(read.reason()).isEqualTo("kept by an older version");
        assertThat(read.failure()).isNull();
    }

    @Test
    void aReportWithAFailureIsKeptWithIt() throws Exception {
        Files.writeString(journal, "{\"type\":\"autopilot.run_finished\",\"data\":{\"outcome\":\"FAILED\",\"reason\":\"r\","
                + "\"failure\":{\"kind\":\"QUOTA_EXHAUSTED\",\"errorCode\":\"quota_exceeded\",\"statusCode\":402,"
                + "\"retryable\":false,\"action\":\"Raise the budget.\"}}}\n", StandardOpenOption.APPEND);
        SessionReport first = SessionReportStore.get(journal);
        SessionReportStore.forget();
        FileTime before = Files.getLastModifiedTime(journal);
        Files.writeString(journal, "not a journal\n"); // only the report file can answer
        Files.setLastModifiedTime(journal, before);

        SessionReport second = SessionReportStore.get(journal);

        assertThat(second).isEqualTo(first).isNotSameAs(first);
        assertThat(second.failure()).isEqualTo(new io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure(
                io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure.Kind.QUOTA_EXHAUSTED, "quota_exceeded", 402, false,
                "Raise the budget."));
    }

    @Test
    void aJournalThatGrewIsReadAgain() throws Exception {
        SessionReport first = SessionReportStore.get(journal);
        Files.writeString(journal, "{\"type\":\"autopilot.run_finished\",\"data\":{\"outcome\":\"FAILED\",\"reason\":\"later\"}}\n",
                StandardOpenOption.APPEND);
        Files.setLastModifiedTime(journal, FileTime.from(Instant.now().plusSeconds(5)));

        SessionReport second = SessionReportStore.get(journal);

        assertThat(second.outcome()).isEqualTo("FAILED").isNotEqualTo(first.outcome());
    }

    @Test
    void aReportFileHoldingAnythingButAReportIsNotTrusted() throws Exception {
        Path file = SessionReportStore.reportFile(journal);
        try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(file))) {
            out.writeObject(new HashMap<>(java.util.Map.of("a", "b"))); // a class a report never holds
        }
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));

        SessionReport report = SessionReportStore.get(journal);

        assertThat(report.summary()).as("read from the journal instead").isEqualTo(SessionReportReader.read(journal).summary()).isNotNull();
        assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).contains(SessionReport.class.getName());
    }

    @Test
    void withoutAgentTextTheCourseIsKeptAndTheWordsAreGone() throws Exception {
        SessionReport full = SessionReportStore.get(journal);
        SessionReport course = full.withoutAgentText();

        assertThat(course.totals()).isEqualTo(full.totals());
        assertThat(course.turns()).hasSameSizeAs(full.turns());
        assertThat(course.summary()).isNull();
        assertThat(full.turns().get(0).messages()).isNotEmpty();
        assertThat(course.turns()).allSatisfy(t -> {
            assertThat(t.messages()).isEmpty();
            assertThat(t.toolCalls()).allSatisfy(c -> assertThat(c.arguments()).isEmpty());
        });
        assertThat(TimelineSvg.render(course)).doesNotContain(full.turns().get(0).messages().get(0));
    }
}

/**
 * A session report as versions before the failure was recorded had it: the same components without the last. Its name
 * is as long as the report's, so that its serialized form becomes theirs by replacing the name.
 */
record SessionReporX(String prompt, String model, String cliVersion, Instant startedAt, Instant endedAt, String outcome,
                     String reason, String summary, long durationMillis, java.util.List<TurnReport> turns, int omittedTurns,
                     SessionReport.Totals totals, io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges changes,
                     java.util.List<ApprovalReport> approvals, String label) implements java.io.Serializable {
}
