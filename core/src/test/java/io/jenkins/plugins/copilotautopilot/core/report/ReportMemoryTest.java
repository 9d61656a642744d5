package io.jenkins.plugins.copilotautopilot.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.testing.SyntheticSession;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A report of a 100,000-event journal, read in a JVM whose heap is smaller than the journal. */
@Timeout(120)
class ReportMemoryTest {
    static final String HEAP = "-Xmx12m";

    /** Run in the child JVM: prints what it read. */
    public static void main(String[] args) throws Exception {
        SessionReport report = SessionReportReader.read(Path.of(args[0]));
        System.out.println("turns=" + report.turns().size() + " omitted=" + report.omittedTurns() + " events=" + report.totals().events()
                + " summary=" + report.summary());
    }

    @Test
    void aHundredThousandEventsInABoundedHeap(@TempDir Path dir) throws Exception {
        Path journal = dir.resolve("journal.jsonl");
        long events;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(journal))) {
            events = SyntheticSession.write(out, 100_000);
        }
        assertThat(Files.size(journal)).isGreaterThan(12L * 1024 * 1024); // bigger than the child's whole heap

        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                "-cp", System.getProperty("java.class.path"), ReportMemoryTest.class.getName(), journal.toString())
                .redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output.lines().toList()).isEqualTo(List.of("turns=" + SessionReportReader.MAX_TURNS + " omitted="
                + (100_000 / SyntheticSession.EVENTS_PER_TURN - SessionReportReader.MAX_TURNS) + " events=" + events
                + " summary=All 2000 cases pass."));
    }
}
