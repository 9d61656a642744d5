package io.jenkins.plugins.copilotautopilot.core.otel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One span of the CLI's span file, read back to be recorded again under the build's step span (where the opentelemetry
 * plugin traces the build): the file is the JavaScript SDK's, with times as {@code [seconds, nanoseconds]}, the kind and
 * status as that SDK's numbers, and attributes of strings, numbers, booleans and arrays of those.
 *
 * @param spanId       the CLI's id of the span
 * @param parentSpanId its parent's id in the file, or null for a run's root span (the step span's, once adopted)
 * @param kind         INTERNAL, SERVER, CLIENT, PRODUCER or CONSUMER
 * @param error        whether the span's status is an error ({@code statusMessage} says which)
 * @param attributes   by name: a String, Long, Double, Boolean or a List of one of those
 */
public record CliSpan(String spanId, String parentSpanId, String name, String kind, long startEpochNanos, long endEpochNanos,
                      Map<String, Object> attributes, boolean error, String statusMessage, List<Event> events) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] KINDS = {"INTERNAL", "SERVER", "CLIENT", "PRODUCER", "CONSUMER"};
    /** The JavaScript SDK's status code of an error. */
    private static final int STATUS_ERROR = 2;

    /** An event of a span: its name, when, and its attributes (as a span's). */
    public record Event(String name, long epochNanos, Map<String, Object> attributes) {
    }

    /**
     * The spans of {@code lines} (the file as kept with the session), each after its parent: recording them in this order
     * lets each find its parent already recorded. Lines that are no span, or no span with an id and a start, are left out;
     * a span whose parent is not in the file counts as a root.
     */
    public static List<CliSpan> inParentOrder(byte[] lines) {
        List<CliSpan> spans = new ArrayList<>();
        for (String line : new String(lines, StandardCharsets.UTF_8).split("\n")) {
            CliSpan span = line.isBlank() ? null : parse(line);
            if (span != null) {
                spans.add(span);
            }
        }
        Set<String> ids = new HashSet<>();
        spans.forEach(s -> ids.add(s.spanId()));
        Map<String, List<CliSpan>> children = new HashMap<>();
        List<CliSpan> roots = new ArrayList<>();
        for (CliSpan span : spans) {
            if (span.parentSpanId() == null || !ids.contains(span.parentSpanId()) || span.parentSpanId().equals(span.spanId())) {
                roots.add(span);
            } else {
                children.computeIfAbsent(span.parentSpanId(), k -> new ArrayList<>()).add(span);
            }
        }
        Comparator<CliSpan> byStart = Comparator.comparingLong(CliSpan::startEpochNanos);
        roots.sort(byStart);
        List<CliSpan> ordered = new ArrayList<>(spans.size());
        List<CliSpan> pending = new ArrayList<>(roots);
        Set<String> placed = new HashSet<>();
        // breadth first: a parent is placed before its children; a span is placed once (ids repeated in a damaged file)
        for (int i = 0; i < pending.size(); i++) {
            CliSpan span = pending.get(i);
            if (!placed.add(span.spanId())) {
                continue;
            }
            ordered.add(span);
            List<CliSpan> below = children.get(span.spanId());
            if (below != null) {
                below.sort(byStart);
                pending.addAll(below);
            }
        }
        return ordered;
    }

    /** The span of one line, or null when it is none. */
    static CliSpan parse(String line) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (IOException e) {
            return null;
        }
        if (node == null || !"span".equals(node.path("type").asText()) || node.path("spanId").asText("").isEmpty()
                || !node.path("startTime").isArray()) {
            return null;
        }
        long start = nanos(node.path("startTime"));
        long end = node.path("endTime").isArray() ? Math.max(start, nanos(node.path("endTime"))) : start;
        int kind = node.path("kind").asInt(0);
        String parent = node.path("parentSpanId").asText("");
        List<Event> events = new ArrayList<>();
        for (JsonNode event : node.path("events")) {
            events.add(new Event(event.path("name").asText(""), event.path("time").isArray() ? nanos(event.path("time")) : start,
                    attributes(event.path("attributes"))));
        }
        return new CliSpan(node.path("spanId").asText(), parent.isEmpty() ? null : parent, node.path("name").asText(""),
                kind >= 0 && kind < KINDS.length ? KINDS[kind] : KINDS[0], start, end, attributes(node.path("attributes")),
                node.path("status").path("code").asInt(0) == STATUS_ERROR,
                node.path("status").path("message").isTextual() ? node.path("status").path("message").asText() : null, events);
    }

    private static long nanos(JsonNode time) {
        return time.path(0).asLong() * 1_000_000_000L + time.path(1).asLong();
    }

    private static Map<String, Object> attributes(JsonNode object) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        object.properties().forEach(e -> {
            Object value = value(e.getValue());
            if (value != null) {
                attributes.put(e.getKey(), value);
            }
        });
        return attributes;
    }

    /** A String, Long, Double or Boolean, or a List of those all of one type; null for what no attribute can hold. */
    private static Object value(JsonNode value) {
        if (value.isTextual()) {
            return value.asText();
        }
        if (value.isIntegralNumber()) {
            return value.asLong();
        }
        if (value.isNumber()) {
            return value.asDouble();
        }
        if (value.isBoolean()) {
            return value.asBoolean();
        }
        if (value.isArray()) {
            List<Object> items = new ArrayList<>();
            for (JsonNode item : value) {
                Object one = item.isArray() || item.isObject() ? null : value(item);
                if (one == null || (!items.isEmpty() && items.get(0).getClass() != one.getClass())) {
                    return null;
                }
                items.add(one);
            }
            return List.copyOf(items);
        }
        return null;
    }
}
