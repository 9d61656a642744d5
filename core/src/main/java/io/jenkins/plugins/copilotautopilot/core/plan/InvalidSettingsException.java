package io.jenkins.plugins.copilotautopilot.core.plan;

import java.util.List;

/** Settings a session cannot run with; the message lists every problem, one per line. */
public final class InvalidSettingsException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    public InvalidSettingsException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
