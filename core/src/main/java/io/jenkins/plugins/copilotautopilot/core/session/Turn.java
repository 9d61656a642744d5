package io.jenkins.plugins.copilotautopilot.core.session;

import java.time.Duration;
import java.time.Instant;

/** One turn: one model call, {@code assistant.turn_start} to {@code assistant.turn_end}. */
public final class Turn {
    private final int number;
    private final String cliTurnId;
    private final Instant startedAt;
    private Instant endedAt;
    private int toolCalls;

    Turn(int number, String cliTurnId, Instant startedAt) {
        this.number = number;
        this.cliTurnId = cliTurnId;
        this.startedAt = startedAt;
    }

    void end(Instant at) {
        this.endedAt = at;
    }

    void countToolCall() {
        toolCalls++;
    }

    /** 1-based position in the session. */
    public int number() {
        return number;
    }

    /** The CLI's own turn id (restarts after each autopilot nudge). */
    public String cliTurnId() {
        return cliTurnId;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public Instant endedAt() {
        return endedAt;
    }

    public int toolCalls() {
        return toolCalls;
    }

    /** The turn's duration, or null while open or when a timestamp is missing. */
    public Duration duration() {
        return startedAt == null || endedAt == null ? null : Duration.between(startedAt, endedAt);
    }
}
