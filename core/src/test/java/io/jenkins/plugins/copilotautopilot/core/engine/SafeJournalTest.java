package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.render.LogRenderer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The journal as the engine uses it: when what it holds is written out. */
class SafeJournalTest {
    private final ByteArrayOutputStream disk = new ByteArrayOutputStream();
    private final List<String> log = new ArrayList<>();
    private final SafeJournal journal = new SafeJournal(new EventJournal(disk, SecretMasker.none()),
            new LogRenderer(log::add, SecretMasker.none()), Long.MAX_VALUE);

    @Test
    void aTimedFlushWaitsForTheLatestFlushOfAnyKindToAge() {
        journal.recordEvent(event("e1"));
        assertThat(disk.size()).as("held in memory until a flush").isZero();
        journal.flush(); // a checkpoint's
        int afterCheckpoint = disk.size();
        assertThat(afterCheckpoint).isPositive();

        journal.recordEvent(event("e2"));
        journal.flushIfOlderThan(TimeUnit.MINUTES.toNanos(1));
        assertThat(disk.size()).as("the checkpoint's flush was just now: no timed write").isEqualTo(afterCheckpoint);

        journal.flushIfOlderThan(0);
        assertThat(disk.toString(StandardCharsets.UTF_8)).contains("\"e2\"");
    }

    @Test
    void aTimedFlushWritesWhatANewJournalHoldsOnceItsAgeHasPassed() {
        journal.recordEvent(event("e1"));
        journal.flushIfOlderThan(TimeUnit.MINUTES.toNanos(1));
        assertThat(disk.size()).as("a journal just made counts as flushed").isZero();
        journal.flushIfOlderThan(0);
        assertThat(disk.toString(StandardCharsets.UTF_8)).contains("\"e1\"");
        assertThat(log).as("no warning").isEmpty();
    }

    private static CliEvent event(String id) {
        return (CliEvent) new EventParser().parse("{\"type\":\"session.info\",\"data\":{\"infoType\":\"x\",\"message\":\"m\"},\"id\":\""
                + id + "\",\"timestamp\":\"2026-12-01T10:00:00.000Z\"}");
    }
}
