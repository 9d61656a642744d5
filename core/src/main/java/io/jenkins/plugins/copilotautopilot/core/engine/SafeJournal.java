package io.jenkins.plugins.copilotautopilot.core.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.render.LogRenderer;
import java.io.IOException;

/**
 * The journal as the engine uses it: optional, bounded, and never allowed to break a run. If writing fails (a
 * full disk), recording stops with one note in the log and the session goes on. Past its size limit, the CLI's
 * lines are no longer recorded (one note in the log says so); the engine's own records, the last one with the
 * outcome, still are.
 */
final class SafeJournal {
    private final LogRenderer renderer;
    private final long limitChars;
    private EventJournal journal;
    private long recordedChars;
    private long dropped;
    /** When what it held was last written out (a checkpoint's flush, a tool's start, a timed one). */
    private long flushedAtNanos = System.nanoTime();

    SafeJournal(EventJournal journal, LogRenderer renderer, long limitChars) {
        this.journal = journal;
        this.renderer = renderer;
        this.limitChars = limitChars;
    }

    /** Whether a CLI line of this length may still be recorded. */
    private boolean room(int chars) {
        if (recordedChars + chars <= limitChars) {
            recordedChars += chars;
            return true;
        }
        if (dropped++ == 0) {
            renderer.note("WARNING: the session journal reached its limit of " + (limitChars / (1024 * 1024))
                    + " MB; later lines of the CLI are not recorded in it (the log goes on).");
        }
        return false;
    }

    /** CLI lines left out of the journal because of its size limit. */
    synchronized long dropped() {
        return dropped;
    }

    synchronized void recordEvent(CliEvent event) {
        if (journal != null && room(event.raw().length())) {
            try {
                journal.recordEvent(event);
            } catch (RuntimeException e) {
                fail(e);
            }
        }
    }

    synchronized void recordPlainOutput(PlainOutput line) {
        if (journal != null && room(line.raw().length())) {
            try {
                journal.recordPlainOutput(line);
            } catch (RuntimeException e) {
                fail(e);
            }
        }
    }

    synchronized void recordStderr(String line) {
        if (journal != null && room(line.length())) {
            try {
                journal.recordStderr(line);
            } catch (RuntimeException e) {
                fail(e);
            }
        }
    }

    /** Records one of the engine's own records, made only if there is a journal to record it in. */
    synchronized void recordOwn(String type, java.util.function.Supplier<JsonNode> data) {
        if (journal != null) {
            recordOwn(type, data.get());
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
        flushedAtNanos = System.nanoTime();
        if (journal != null) {
            try {
                journal.flush();
            } catch (RuntimeException e) {
                fail(e);
            }
        }
    }

    /**
     * Writes out what it holds unless that was done less than {@code maxAgeNanos} ago, by any flush: a follower
     * that saves a checkpoint every two seconds (each one a flush) adds no timed writes of its own.
     */
    synchronized void flushIfOlderThan(long maxAgeNanos) {
        if (System.nanoTime() - flushedAtNanos >= maxAgeNanos) {
            flush();
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
