package io.jenkins.plugins.copilotautopilot.core.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * One JSON event line of {@code copilot --output-format json}: {@code {"type", "data", "id",
 * "timestamp", "parentId", "ephemeral"?}}; the final {@code result} line keeps its fields at the top
 * level. Unknown types and missing fields are normal: read with {@link JsonNode#path}.
 */
public final class CliEvent implements StreamLine {
    private final String type;
    private final JsonNode root;
    private final String raw;

    public CliEvent(String type, JsonNode root, String raw) {
        this.type = type;
        this.root = root;
        this.raw = raw;
    }

    public String type() {
        return type;
    }

    /** The {@code data} object, or a missing node. */
    public JsonNode data() {
        return root.path("data");
    }

    /** The whole event object. */
    public JsonNode root() {
        return root;
    }

    @Override
    public String raw() {
        return raw;
    }

    public boolean ephemeral() {
        return root.path("ephemeral").asBoolean(false);
    }

    /** The event's own timestamp, or null when absent or unreadable. */
    public Instant timestamp() {
        String text = root.path("timestamp").asText(null);
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** A text field of {@code data}, or null. */
    public String dataText(String field) {
        JsonNode node = data().get(field);
        return node == null || node.isNull() ? null : node.asText();
    }

    @Override
    public String toString() {
        return "CliEvent[" + type + "]";
    }
}
