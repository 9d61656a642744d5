package io.jenkins.plugins.copilotautopilot.core.render;

/** Where rendered log lines go: a terminal, a Jenkins build log. Each line is flushed as written. */
@FunctionalInterface
public interface LogSink {
    void println(String line);
}
