package io.jenkins.plugins.copilotautopilot.core.output;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A review finding of the agent's: where (a path relative to the workspace, a line and an end line), how bad
 * ({@link Severity}), what, and optionally the rule or category it falls under.
 */
public record Finding(String path, int line, int endLine, Severity severity, String message, String rule, String category)
        implements Serializable {

    /** How bad a finding is; {@link #name()} in lower case is the agent's word. */
    public enum Severity {
        HIGH, MEDIUM, LOW;

        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The severity of analysis-model's native format. */
        public String analysisModel() {
            return switch (this) {
                case HIGH -> "HIGH";
                case MEDIUM -> "NORMAL";
                case LOW -> "LOW";
            };
        }

        static Severity of(String word) {
            return word == null ? MEDIUM : switch (word.toLowerCase(Locale.ROOT)) {
                case "high" -> HIGH;
                case "low" -> LOW;
                default -> MEDIUM;
            };
        }
    }

    /** A finding of an answer that follows {@link ReviewFindings#SCHEMA}, or as {@link #toMap} put it. */
    public static Finding of(JsonNode node) {
        int line = Math.max(1, node.path("line").asInt(1));
        int end = Math.max(line, node.path("endLine").asInt(line));
        return new Finding(node.path("path").asText(""), line, end, Severity.of(node.path("severity").asText(null)),
                node.path("message").asText(""), text(node, "rule"), text(node, "category"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    /** The same finding at another path. */
    Finding at(String newPath) {
        return new Finding(newPath, line, endLine, severity, message, rule, category);
    }

    /** As plain JDK values, for a Pipeline's returned map. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("path", path);
        map.put("line", line);
        map.put("endLine", endLine);
        map.put("severity", severity.word());
        map.put("message", message);
        map.put("rule", rule);
        map.put("category", category);
        return map;
    }
}
