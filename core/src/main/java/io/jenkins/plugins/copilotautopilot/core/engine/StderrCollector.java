package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.events.LineAssembler;
import io.jenkins.plugins.copilotautopilot.core.outcome.ServiceFailures;
import io.jenkins.plugins.copilotautopilot.core.render.LogRenderer;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What the CLI writes on stderr: the first lines go to the log and the journal (a flood is cut off, with a
 * note), the last few are kept to explain a failure.
 */
final class StderrCollector implements LineAssembler.LineHandler {
    static final int MAX_LOGGED = 50;
    static final int MAX_JOURNALED = 1000;
    static final int TAIL = 5;
    /** The most characters of an explanation built of several lines. */
    private static final int MAX_EXPLANATION = 300;

    private final LogRenderer renderer;
    private final SafeJournal journal;
    private final Deque<String> tail = new ArrayDeque<>();
    private String firstError;
    /** The first line that is one of the CLI's refusals before a session (a bad token, an unknown model), or null. */
    private String startFailure;
    /** Whether the line after the first error may still be a hint of the error's own. */
    private boolean explaining;
    private long lines;
    private boolean afterStop;
    private boolean closed;

    StderrCollector(LogRenderer renderer, SafeJournal journal) {
        this.renderer = renderer;
        this.journal = journal;
    }

    @Override
    public synchronized void onLine(String line, long originalBytes, boolean truncated) {
        if (closed) {
            return;
        }
        lines++;
        if (afterStop) {
            // what the CLI says while it is being stopped ("Cannot invoke native session after disposal") is
            // no news: it is in the journal
        } else if (lines <= MAX_LOGGED) {
            renderer.stderr(line);
        } else if (lines == MAX_LOGGED + 1) {
            renderer.note("(more stderr output is not shown)");
        }
        if (lines <= MAX_JOURNALED) {
            journal.recordStderr(line);
        }
        if (startFailure == null && lines <= MAX_JOURNALED && ServiceFailures.isStartFailure(line)) {
            startFailure = line.strip();
        }
        if (firstError == null && saysWhatWentWrong(line)) {
            firstError = line.strip();
            explaining = true;
        } else if (explaining) {
            // a hint right after the error belongs to it ("(Did you mean --autopilot-mode?)"); prose, stack frames and the
            // error object Node prints after it do not
            if (line.startsWith("(") && firstError.length() < MAX_EXPLANATION) {
                firstError = firstError + " | " + line.strip();
            } else {
                explaining = false;
            }
        }
        tail.addLast(line);
        if (tail.size() > TAIL) {
            tail.removeFirst();
        }
    }

    /**
     * Whether a line says what went wrong: a line of its own (not indented: not a stack frame, not a field of an error
     * object Node prints after it) that names an error or a failure, e.g. {@code Failed to extract bundled package:
     * Error: EACCES: permission denied, mkdir '/.cache'}.
     */
    static boolean saysWhatWentWrong(String line) {
        return !line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && WENT_WRONG.matcher(line).find();
    }

    private static final java.util.regex.Pattern WENT_WRONG = java.util.regex.Pattern.compile(
            "(?i)\\b(error|failed|cannot|can't|denied|not found)\\b");

    /**
     * What stderr says about a failure: its first line that says what went wrong when there is one, else the last
     * lines joined; null when nothing was written.
     */
    synchronized String explanation() {
        if (firstError != null) {
            return firstError;
        }
        return tail.isEmpty() ? null : String.join(" | ", tail);
    }

    /** The first line that says the CLI refused to start a session (see {@link ServiceFailures}), or null. */
    synchronized String startFailure() {
        return startFailure;
    }

    synchronized long lines() {
        return lines;
    }

    /** From now on the CLI is being stopped: its stderr is journaled, not shown. */
    synchronized void stopping() {
        afterStop = true;
    }

    synchronized void close() {
        closed = true;
    }
}
