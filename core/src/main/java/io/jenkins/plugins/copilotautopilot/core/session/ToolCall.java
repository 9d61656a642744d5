package io.jenkins.plugins.copilotautopilot.core.session;

import io.jenkins.plugins.copilotautopilot.core.text.Texts;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One tool call of the agent, from {@code tool.execution_start} to {@code tool.execution_complete}.
 * Mutable while running; listeners get it at start and again when it completes.
 */
public final class ToolCall {
    /** Longest output excerpt kept per call. */
    public static final int MAX_OUTPUT_EXCERPT = 2000;

    private final String id;
    private final String name;
    private final String argumentSummary;
    private final int turn;
    private final Instant startedAt;
    private ToolStatus status = ToolStatus.RUNNING;
    private Duration duration;
    private String error;
    private String outputExcerpt;
    private boolean overlapping;
    private List<String> commandUrls = List.of();
    private List<String> deniedUrls = List.of();

    ToolCall(String id, String name, String argumentSummary, int turn, Instant startedAt) {
        this.id = id;
        this.name = name;
        this.argumentSummary = argumentSummary;
        this.turn = turn;
        this.startedAt = startedAt;
    }

    void complete(ToolStatus status, Duration duration, String error, String output) {
        this.status = status;
        this.duration = duration;
        this.error = error;
        this.outputExcerpt = output == null ? null : Texts.truncate(output, MAX_OUTPUT_EXCERPT);
    }

    void commandUrls(List<String> urls) {
        commandUrls = List.copyOf(urls);
    }

    List<String> commandUrls() {
        return commandUrls;
    }

    void deniedUrls(List<String> urls) {
        deniedUrls = List.copyOf(urls);
    }

    /** The URLs the permission policy refused this call (empty unless it was denied for a URL). */
    public List<String> deniedUrls() {
        return deniedUrls;
    }

    /** Marks that another call of the session ran at the same time (parallel tool calls). */
    void overlapping(boolean value) {
        overlapping = value;
    }

    /** Whether another call ran at the same time: then its result line must say which call it belongs to. */
    public boolean overlapping() {
        return overlapping;
    }

    public String id() {
        return id;
    }

    /** The tool's name, e.g. {@code bash}. */
    public String name() {
        return name;
    }

    /** A short, single-line description of the arguments, e.g. the shell command. */
    public String argumentSummary() {
        return argumentSummary;
    }

    /** The session turn (1-based) in which the call was made. */
    public int turn() {
        return turn;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public ToolStatus status() {
        return status;
    }

    /** How long the call took, or null while running or when unknown. */
    public Duration duration() {
        return duration;
    }

    /** The error message of a failed or denied call, else null. */
    public String error() {
        return error;
    }

    /** The beginning of the call's output, else null. */
    public String outputExcerpt() {
        return outputExcerpt;
    }
}
