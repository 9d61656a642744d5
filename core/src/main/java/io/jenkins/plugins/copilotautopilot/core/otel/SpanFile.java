package io.jenkins.plugins.copilotautopilot.core.otel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;

/**
 * What the Copilot CLI's OpenTelemetry file exporter wrote ({@code otel: true}): one JSON object per line, a span
 * ({@code "type":"span"}: {@code invoke_agent} for a run, {@code chat <model>} per model call, {@code execute_tool
 * <tool>} per tool call) or a metric, as measured with CLI 1.0.102. The CLI starts a new trace for each run and takes no
 * parent from outside in prompt mode, so the session's spans are put under the build's trace here: each span gets the
 * trace id of {@code TRACEPARENT}, and each run's root span that span as its parent. Masked line by line.
 */
public final class SpanFile {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The most of a span file kept with a session. */
    public static final int MAX_BYTES = 16 * 1024 * 1024;

    private SpanFile() {
    }

    /** How many spans of each kind a file holds. */
    public record Counts(int spans, int runs, int modelCalls, int toolCalls, int metrics) {
    }

    /**
     * The file's lines masked and, when {@code parent} is given, under its trace; lines that are no JSON object are
     * left out.
     */
    public static byte[] adopt(byte[] lines, TraceParent parent, UnaryOperator<String> mask) {
        StringBuilder out = new StringBuilder();
        for (String line : new String(lines, StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (IOException e) {
                continue;
            }
            if (!(node instanceof ObjectNode object)) {
                continue;
            }
            if (parent != null && "span".equals(object.path("type").asText())) {
                object.put("traceId", parent.traceId());
                if (object.path("parentSpanId").asText("").isEmpty()) {
                    object.put("parentSpanId", parent.spanId());
                }
            }
            out.append(mask.apply(object.toString())).append('\n');
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** What the file holds. */
    public static Counts count(byte[] lines) {
        int spans = 0;
        int runs = 0;
        int chats = 0;
        int tools = 0;
        int metrics = 0;
        for (String line : new String(lines, StandardCharsets.UTF_8).split("\n")) {
            JsonNode node;
            try {
                node = line.isBlank() ? null : JSON.readTree(line);
            } catch (IOException e) {
                node = null;
            }
            if (node == null) {
                continue;
            }
            String type = node.path("type").asText();
            if ("metric".equals(type)) {
                metrics++;
            } else if ("span".equals(type)) {
                spans++;
                String name = node.path("name").asText();
                if (name.startsWith("invoke_agent")) {
                    runs++;
                } else if (name.startsWith("chat ")) {
                    chats++;
                } else if (name.startsWith("execute_tool ")) {
                    tools++;
                }
            }
        }
        return new Counts(spans, runs, chats, tools, metrics);
    }
}
