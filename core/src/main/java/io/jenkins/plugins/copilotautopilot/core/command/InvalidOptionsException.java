package io.jenkins.plugins.copilotautopilot.core.command;

import java.util.List;

/** Options that cannot run; the message lists every problem, one per line. */
public final class InvalidOptionsException extends IllegalArgumentException {
    private final List<String> problems;

    public InvalidOptionsException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
