package io.jenkins.plugins.copilotautopilot.core.otel;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A W3C trace context ({@code TRACEPARENT}: {@code 00-<trace id>-<span id>-<flags>}), as the opentelemetry plugin hands
 * a step's span to what the step runs.
 */
public record TraceParent(String traceId, String spanId) {
    private static final Pattern HEADER = Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");

    /** The trace context in {@code header}, or null when it is none (missing, malformed, or all zeros). */
    public static TraceParent parse(String header) {
        if (header == null) {
            return null;
        }
        Matcher m = HEADER.matcher(header.strip().toLowerCase(java.util.Locale.ROOT));
        if (!m.matches() || "ff".equals(m.group(1)) || m.group(2).matches("0+") || m.group(3).matches("0+")) {
            return null;
        }
        return new TraceParent(m.group(2), m.group(3));
    }
}
