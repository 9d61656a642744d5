package io.jenkins.plugins.copilotautopilot.core.render;

import java.io.PrintStream;

/** A {@link LogSink} over a {@link PrintStream}; flushes every line so the log is live. */
public final class PrintStreamLogSink implements LogSink {
    private final PrintStream out;

    public PrintStreamLogSink(PrintStream out) {
        this.out = out;
    }

    @Override
    public void println(String line) {
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }
}
