package io.jenkins.plugins.copilotautopilot.core.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.events.LineAssembler;
import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;
import io.jenkins.plugins.copilotautopilot.core.events.StreamLine;
import io.jenkins.plugins.copilotautopilot.core.mask.CliRedactions;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import java.nio.charset.StandardCharsets;

/**
 * One stdout line's way through the engine: read back what the CLI's own redaction garbled, parse, record in the
 * journal (which masks), follow in the tracker (which tells the renderer, which masks). Stops taking lines once closed,
 * so a late line can never change a decided outcome.
 */
final class EventPipeline implements LineAssembler.LineHandler {
    /**
     * How each of the launch script's own events begins. The CLI's output can end in the middle of a line (a full disk,
     * the CLI killed as it wrote); the script's next event then follows on that line, and is read as the event it is:
     * inside a CLI event the text is escaped, so an unescaped start of an event in a line that is not one is the script's.
     */
    private static final String SCRIPT_EVENT = "{\"type\":\"autopilot.";
    private final EventParser parser = new EventParser();
    private final SessionTracker tracker;
    private final SafeJournal journal;
    private final CliRedactions redactions;
    private volatile boolean resultSeen;
    private volatile Integer reportedExitCode;
    private long events;
    private boolean closed;

    EventPipeline(SessionTracker tracker, SafeJournal journal, CliRedactions redactions) {
        this.tracker = tracker;
        this.journal = journal;
        this.redactions = redactions;
    }

    @Override
    public synchronized void onLine(String line, long originalBytes, boolean truncated) {
        if (closed) {
            return;
        }
        StreamLine parsed = parser.parse(redactions.restore(line), originalBytes, truncated);
        int glued = parsed instanceof PlainOutput && !truncated ? line.indexOf(SCRIPT_EVENT, 1) : -1;
        if (glued > 0) {
            String cut = line.substring(0, glued);
            String script = line.substring(glued);
            onLine(cut, cut.getBytes(StandardCharsets.UTF_8).length, false);
            onLine(script, script.getBytes(StandardCharsets.UTF_8).length, false);
            return;
        }
        if (parsed instanceof CliEvent event) {
            events++;
            journal.recordEvent(event);
            if ("tool.execution_start".equals(event.type())) {
                journal.flush(); // on disk before the tool runs (and before the log says it does)
            }
        } else {
            journal.recordPlainOutput((PlainOutput) parsed);
        }
        tracker.accept(parsed);
        if (parsed instanceof CliEvent event && CliEvent.AWAITING.equals(event.type())) {
            resultSeen = false; // the CLI has ended, its result was not the end: the acceptance check may run, maybe the CLI again
        }
        if (parsed instanceof CliEvent event && "result".equals(event.type())) {
            JsonNode exit = event.root().get("exitCode");
            reportedExitCode = exit != null && exit.canConvertToInt() ? exit.asInt() : null;
            resultSeen = true;
        }
    }

    /** The exit code the CLI's result line reported, or null. */
    Integer reportedExitCode() {
        return reportedExitCode;
    }

    /** Whether the CLI's final {@code result} line has arrived. */
    boolean resultSeen() {
        return resultSeen;
    }

    /** Event lines seen so far (not counting lines that are not events). */
    synchronized long events() {
        return events;
    }

    synchronized void close() {
        closed = true;
    }
}
