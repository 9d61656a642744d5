package io.jenkins.plugins.copilotautopilot.core.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.time.Instant;

/**
 * One JSON event line of {@code copilot --output-format json}: {@code {"type", "data", "id",
 * "timestamp", "parentId", "ephemeral"?}}; the final {@code result} line keeps its fields at the top
 * level. Unknown types and missing fields are normal: read with {@link JsonNode#path}.
 *
 * <p>Most events are streaming noise the engine only records, so the parser validates the line and notes the
 * type, flags and the plain fields of {@code data} in one pass ({@link JsonLineScanner}); the full tree
 * ({@link #root()}) is built only when someone asks for it.
 */
public final class CliEvent implements StreamLine {
    /**
     * Not the CLI's own: the event the launch script prints first when the follower could not tell which CLI would
     * run (one looked up inside a container), {@code data.path} and {@code data.version} (empty when unknown).
     */
    public static final String CLI_FOUND = "autopilot.cli";
    /** Not the CLI's own: untracked files the launch script left out of a snapshot of the work tree (too many, too large). */
    public static final String CHANGES_LEFT_OUT = "autopilot.changes_left_out";
    /** Not the CLI's own: the launch script's acceptance check, before it runs, a line of its output, and its end. */
    public static final String VERIFY_STARTED = "autopilot.verify_started";
    public static final String VERIFY_OUTPUT = "autopilot.verify_output";
    public static final String VERIFY_FINISHED = "autopilot.verify_finished";
    /**
     * Not the CLI's own: the launch script waits for the follower to say what comes next, after the CLI ended or after a
     * round of the acceptance check ({@code data.step}, {@code data.after}: {@code cli} or {@code check},
     * {@code data.exitCode}).
     */
    public static final String AWAITING = "autopilot.awaiting";
    /** Whether events of this type are the launch script's (in the CLI's stream), not the journal's own records. */
    public static boolean fromLaunchScript(String type) {
        return CLI_FOUND.equals(type) || CHANGES_LEFT_OUT.equals(type) || VERIFY_STARTED.equals(type)
                || VERIFY_OUTPUT.equals(type) || VERIFY_FINISHED.equals(type) || AWAITING.equals(type);
    }

    private final String type;
    private final String raw;
    private final boolean ephemeral;
    private final String timestamp;
    private final boolean fromSubAgent;
    private final String id;
    private final boolean idNotText;
    private final JsonLineScanner.DataTexts dataTexts;
    private JsonNode root;

    CliEvent(String type, String raw, boolean ephemeral, String timestamp, boolean fromSubAgent, String id, boolean idNotText,
             JsonLineScanner.DataTexts dataTexts) {
        this.type = type;
        this.raw = raw;
        this.ephemeral = ephemeral;
        this.timestamp = timestamp;
        this.fromSubAgent = fromSubAgent;
        this.id = id;
        this.idNotText = idNotText;
        this.dataTexts = dataTexts;
    }

    public String type() {
        return type;
    }

    /** The {@code data} object, or a missing node. */
    public JsonNode data() {
        return root().path("data");
    }

    /** The whole event object (parsed on first use). */
    public JsonNode root() {
        if (root == null) {
            try {
                root = EventParser.mapper().readTree(raw);
            } catch (IOException e) {
                root = MissingNode.getInstance(); // cannot happen: the line was validated when it was parsed
            }
        }
        return root;
    }

    @Override
    public String raw() {
        return raw;
    }

    public boolean ephemeral() {
        return ephemeral;
    }

    /** The event's own timestamp, or null when absent or unreadable. */
    public Instant timestamp() {
        return timestamp == null ? null : Timestamps.parse(timestamp);
    }

    /** Whether the event comes from a sub-agent (it carries an {@code agentId}). */
    public boolean fromSubAgent() {
        return fromSubAgent;
    }

    /** The event's own {@code id} as text, or null when it has none. Cheap when it is a string, as the CLI writes it. */
    public String id() {
        return idNotText ? root().path("id").asText(null) : id;
    }

    /** A plain (string, number or boolean) field of {@code data} as text, or null. Cheap: no tree is built. */
    public String dataText(String field) {
        return dataTexts.get(field);
    }

    /** A field of the event's data as a whole number, or null when it is missing or is none. */
    public Long dataLong(String field) {
        String text = dataText(field);
        try {
            return text == null ? null : Long.valueOf(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "CliEvent[" + type + "]";
    }
}
