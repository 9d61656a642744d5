package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.events.LineAssembler;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The CLI's output and its usage records (which it writes into its session state, in batches) followed in the order of
 * the turns: each record is taken once the turn it belongs to has been followed by the start of the next, as when they
 * come one by one, so that a read that brings many turns at once (what the CLI did while nobody followed it) prints
 * their tokens lines among them, not all after them.
 */
final class UsageInTurnOrder {
    private final SessionTracker tracker;
    private final LineAssembler stdoutLines;
    private final EventParser parser = new EventParser();
    private final Deque<CliEvent> pending = new ArrayDeque<>();

    UsageInTurnOrder(SessionTracker tracker, LineAssembler stdoutLines) {
        this.tracker = tracker;
        this.stdoutLines = stdoutLines;
    }

    /** The usage records a read brought (whole lines). */
    void records(byte[] usage) {
        for (String line : new String(usage, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank() && parser.parse(line) instanceof CliEvent event) {
                pending.add(event);
            }
        }
    }

    /** The output a read brought, with the records of the turns that ended in it taken between its lines. */
    void output(byte[] output) {
        acceptOfEndedTurns();
        if (pending.size() < 2) {
            // as a live session brings them (one model call at a time): the record left belongs to the turn that runs
            stdoutLines.write(output, 0, output.length);
            return;
        }
        int from = 0;
        for (int i = 0; i < output.length && !pending.isEmpty(); i++) {
            if (output[i] == '\n') {
                stdoutLines.write(output, from, i + 1 - from);
                from = i + 1;
                acceptOfEndedTurns();
            }
        }
        stdoutLines.write(output, from, output.length - from);
    }

    /** The records left once a read was followed: their turns still run, or were not seen. */
    void acceptRest() {
        while (!pending.isEmpty()) {
            tracker.acceptUsage(pending.poll());
        }
    }

    private void acceptOfEndedTurns() {
        while (!pending.isEmpty() && tracker.laterTurnStarted(pending.peek().root().path("parentId").asText(""))) {
            tracker.acceptUsage(pending.poll());
        }
    }
}
