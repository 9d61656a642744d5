package io.jenkins.plugins.copilotautopilot.core.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.render.LogRenderer;
import java.io.IOException;

/**
 * The journal as the engine uses it: optional, and never allowed to break a run. If writing fails (a full
 * disk), recording stops with one note in the log and the session goes on.
 */
final class SafeJournal {
    private final LogRenderer renderer;
    private EventJournal journal;

    SafeJournal(EventJournal journal, LogRenderer renderer) {
        this.journal = journal;
        this.renderer = renderer;
    }

    synchronized void recordEvent(CliEvent event) {
        if (journal != null) {
            try {
                journal.recordEvent(event);
            } catch (RuntimeException e) {
                fail(e);
            }
        }
    }

    synchronized void recordPlainOutput(PlainOutput line) {
        if (journal != null) {
            try {
                journal.recordPlainOutput(line);
            } catch (RuntimeException e) {
                fail(e);
            }
        }
    }

    synchronized void recordStderr(String line) {
        if (journal != null) {
            try {
                journal.recordStderr(line);
            } catch (RuntimeException e) {
                fail(e);
            }
        }
    }

    synchronized void recordOwn(String type, JsonNode data) {
        if (journal != null) {
            try {
                journal.recordOwn(type, data);
            } catch (RuntimeException e) {
                fail(e);
            }
        }
    }

    synchronized void flush() {
        if (journal != null) {
            try {
                journal.flush();
            } catch (RuntimeException e) {
                fail(e);
            }
        }
    }

    synchronized void close() {
        if (journal != null) {
            try {
                journal.close();
            } catch (IOException | RuntimeException e) {
                fail(e);
            }
        }
    }

    private void fail(Exception e) {
        renderer.note("WARNING: the session journal could not be written and is incomplete: " + e.getMessage());
        try {
            journal.close();
        } catch (IOException | RuntimeException ignored) {
            // already failing
        }
        journal = null;
    }
}
