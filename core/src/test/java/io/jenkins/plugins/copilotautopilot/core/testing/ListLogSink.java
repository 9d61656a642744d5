package io.jenkins.plugins.copilotautopilot.core.testing;

import io.jenkins.plugins.copilotautopilot.core.render.LogSink;
import java.util.ArrayList;
import java.util.List;

/** Collects rendered log lines (and echoes them to the test output for debugging). */
public final class ListLogSink implements LogSink {
    private final List<String> lines = new ArrayList<>();
    private final boolean echo;

    public ListLogSink() {
        this(Boolean.getBoolean("copilot.test.echo"));
    }

    public ListLogSink(boolean echo) {
        this.echo = echo;
    }

    @Override
    public synchronized void println(String line) {
        lines.add(line);
        if (echo) {
            System.out.println(line);
        }
    }

    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    public synchronized String text() {
        return String.join("\n", lines);
    }

    /** The first line containing {@code fragment}, or null. */
    public synchronized String find(String fragment) {
        return lines.stream().filter(l -> l.contains(fragment)).findFirst().orElse(null);
    }
}
