package io.jenkins.plugins.copilotautopilot.core.output;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import java.util.List;
import java.util.function.Function;

/**
 * How the agent gives an answer that must follow a schema ({@code outputSchema}, {@code reviewFindings}): as the
 * summary of its {@code task_complete} call, one JSON document and nothing else. That works with read-only tools (a
 * review of an untrusted change request) and is in the session's stream, so a follower that reads the session again
 * after a restart sees the same answers. What the agent is told, and when it is sent back, is decided here only.
 */
public final class AnswerRequest {
    /** The longest answer taken; a longer one is reported as too large, never read in part. */
    public static final int MAX_CHARS = 1024 * 1024;

    private AnswerRequest() {
    }

    /** The schema a plan asks answers to follow: its {@code outputSchema}, else the findings' with {@code reviewFindings}, else null. */
    public static String schema(SessionPlan plan) {
        String given = plan.get(SessionSettings.OUTPUT_SCHEMA);
        if (given != null) {
            return given;
        }
        return Boolean.TRUE.equals(plan.get(SessionSettings.REVIEW_FINDINGS)) ? ReviewFindings.SCHEMA : null;
    }

    /**
     * What is wrong with the plan's schema, in one line naming the setting ({@code outputSchema} in {@code names}), or
     * null; {@code @file} must have been read into it before.
     */
    public static String problem(SessionPlan plan, Function<Setting<?>, String> names) {
        String schema = schema(plan);
        if (schema == null) {
            return null;
        }
        try {
            OutputSchema.parse(schema);
            return null;
        } catch (OutputSchema.InvalidSchemaException e) {
            return (plan.get(SessionSettings.OUTPUT_SCHEMA) == null ? names.apply(SessionSettings.REVIEW_FINDINGS) + "' schema "
                    : names.apply(SessionSettings.OUTPUT_SCHEMA) + " ") + e.getMessage();
        }
    }

    /** What the task gets appended: how to answer and the schema the answer must follow. */
    public static String request(String schema) {
        return "\n\n---\nWhen the task is done, call task_complete with your answer as its summary: one JSON document, valid"
                + " against the JSON Schema below, and no other text (no Markdown fence). The answer is checked against the"
                + " schema; at most " + MAX_CHARS / 1024 + " KB are taken.\n\n" + schema.strip() + "\n";
    }

    /** The task the agent gets when its answer is not valid (the errors, masked as the journal is). */
    public static String retryPrompt(OutputVerdict verdict) {
        String what;
        if (verdict.answer().isBlank()) {
            what = "You called task_complete without an answer: its summary must be your answer, a JSON document that"
                    + " follows the schema of the task.";
        } else if (verdict.answer().length() > MAX_CHARS) {
            what = "Your answer is " + verdict.answer().length() + " characters long, more than the " + MAX_CHARS + " taken.";
        } else {
            StringBuilder list = new StringBuilder();
            verdict.errors().forEach(e -> list.append("- ").append(e).append('\n'));
            what = "Your answer (the summary of task_complete) does not follow the JSON Schema of the task:\n\n" + list;
        }
        return what + "\nCall task_complete again with the corrected answer, one JSON document, as its summary. It is"
                + " checked again after that.\n";
    }

    /**
     * The answer's JSON text in a summary: the summary itself, or what a Markdown code fence around it holds (models
     * add one however they are told).
     */
    public static String json(String summary) {
        String text = summary == null ? "" : summary.strip();
        if (text.startsWith("```") && text.endsWith("```") && text.length() >= 6) {
            int firstLine = text.indexOf('\n');
            if (firstLine > 0 && firstLine < text.length() - 3) {
                return text.substring(firstLine + 1, text.length() - 3).strip();
            }
        }
        return text;
    }

    static List<String> problems(String answer) {
        if (answer.isBlank()) {
            return List.of("the answer is empty");
        }
        if (answer.length() > MAX_CHARS) {
            return List.of("the answer is " + answer.length() + " characters long, more than the " + MAX_CHARS + " taken");
        }
        return List.of();
    }
}
