package io.jenkins.plugins.copilotautopilot.core.session;

import io.jenkins.plugins.copilotautopilot.core.text.Texts;

import com.fasterxml.jackson.databind.JsonNode;

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
        String pattern = firstText(arguments, "pattern");
        if (pattern != null) {
            String path = firstText(arguments, "path");
            return shorten(path == null ? pattern : pattern + " in " + path);
        }
        String main = firstText(arguments, "command", "path", "file_path", "query", "url", "summary", "intent",
                "description", "prompt", "name");
        return shorten(main != null ? main : arguments.toString());
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

    private static String shorten(String text) {
        return Texts.truncate(Texts.oneLine(text), MAX_LENGTH);
    }
}
