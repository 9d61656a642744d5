package io.jenkins.plugins.copilotautopilot.core.output;

import java.io.Serializable;
import java.util.List;

/**
 * How one answer fared against the schema: its number (one per completion), the answer's JSON text (masked), and what
 * is wrong with it (empty when it follows the schema).
 */
public record OutputVerdict(int round, String answer, List<String> errors) implements Serializable {
    public OutputVerdict {
        errors = List.copyOf(errors);
    }

    /** Checks the answer of {@code summary} (masked) against {@code schema}. */
    public static OutputVerdict check(int round, String summary, OutputSchema schema) {
        String answer = AnswerRequest.json(summary);
        List<String> problems = AnswerRequest.problems(answer);
        return new OutputVerdict(round, answer, problems.isEmpty() ? schema.validate(answer) : problems);
    }

    public boolean valid() {
        return errors.isEmpty();
    }

    /** Why it is not valid, in one line (the validator's words), or null. */
    public String problem() {
        if (errors.isEmpty()) {
            return null;
        }
        return errors.size() == 1 ? errors.get(0) : errors.get(0) + " (and " + (errors.size() - 1) + " more)";
    }
}
