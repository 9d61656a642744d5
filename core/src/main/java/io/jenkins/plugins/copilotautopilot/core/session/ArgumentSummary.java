package io.jenkins.plugins.copilotautopilot.core.session;

import io.jenkins.plugins.copilotautopilot.core.text.Texts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/** The few words that say what a tool call does: {@code bash: npm test}, {@code view: src/App.java}. */
public final class ArgumentSummary {
    /** Longest summary, in characters. */
    public static final int MAX_LENGTH = 160;

    private ArgumentSummary() {
    }

    public static String of(String toolName, JsonNode arguments) {
        if (arguments == null || arguments.isMissingNode() || arguments.isNull()) {
            return "";
        }
        if (arguments.isTextual()) {
            return shorten(arguments.asText());
        }
        String main = firstText(arguments, "command", "path", "file_path", "pattern", "query", "url", "summary",
                "intent", "description", "prompt", "name");
        if (main != null) {
            String path = "pattern".equals(keyOf(arguments, main)) ? firstText(arguments, "path") : null;
            return shorten(path == null ? main : main + " in " + path);
        }
        return shorten(arguments.toString());
    }

    private static String firstText(JsonNode node, String... fields) {
        for (String field : fields) {
            JsonNode value = node.get(field);
            if (value != null && value.isTextual() && !value.asText().isBlank()) {
                return value.asText();
            }
        }
        return null;
    }

    private static String keyOf(JsonNode node, String value) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isTextual() && e.getValue().asText().equals(value)) {
                return e.getKey();
            }
        }
        return null;
    }

    private static String shorten(String text) {
        return Texts.truncate(Texts.oneLine(text), MAX_LENGTH);
    }
}
