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
