package io.jenkins.plugins.copilotautopilot.core.session;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code outcome} values of {@code session.task_complete} and its {@code blocker} in words. The CLI's schema
 * names the blocker's type (TaskBlocker) but not its fields, so a text or any object is taken: its descriptive
 * fields when it has them, else the object as JSON.
 */
public final class TaskBlockers {
    public static final String COMPLETED = "completed";
    public static final String CONTINUE = "continue";
    public static final String BLOCKED = "blocked";

    private static final int MAX = 2_000;
    private static final String[] KINDS = {"kind", "type", "category", "code"};
    private static final String[] TEXTS = {"description", "message", "summary", "reason", "details", "detail", "text"};

    private TaskBlockers() {
    }

    /** The blocker in one text, or null when there is none. */
    public static String describe(JsonNode blocker) {
        if (blocker == null || blocker.isNull() || blocker.isMissingNode()) {
            return null;
        }
        if (blocker.isValueNode()) {
            return Texts.isBlank(blocker.asText()) ? null : Texts.truncate(blocker.asText().strip(), MAX);
        }
        List<String> texts = new ArrayList<>();
        for (String field : TEXTS) {
            JsonNode value = blocker.get(field);
            if (value != null && value.isValueNode() && !Texts.isBlank(value.asText())) {
                texts.add(value.asText().strip());
            }
        }
        String kind = null;
        for (String field : KINDS) {
            JsonNode value = blocker.get(field);
            if (value != null && value.isValueNode() && !Texts.isBlank(value.asText())) {
                kind = value.asText().strip();
                break;
            }
        }
        String text = texts.isEmpty() ? blocker.toString() : String.join(" ", texts);
        return Texts.truncate(kind == null || texts.isEmpty() ? text : kind + ": " + text, MAX);
    }
}
