package io.jenkins.plugins.copilotautopilot.trace;

import hudson.model.AbstractBuild;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.engine.StepSpanAttributes;
import io.jenkins.plugins.copilotautopilot.core.otel.CliSpan;
import io.jenkins.plugins.opentelemetry.api.ReconfigurableOpenTelemetry;
import io.jenkins.plugins.opentelemetry.job.OtelTraceService;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** {@link BuildTraces} with the opentelemetry plugin's classes: loaded only when that plugin is active. */
final class OpenTelemetryTrace {
    /** The instrumentation scope of the CLI's spans, as its file exporter names it. */
    static final String CLI_SCOPE = "github.copilot";

    private OpenTelemetryTrace() {
    }

    /** How many of the CLI's spans went into which trace. */
    record Recorded(int spans, String traceId) {
    }

    static boolean exporting() {
        String exporter = ReconfigurableOpenTelemetry.get().getConfig().getString("otel.traces.exporter", "none");
        return !exporter.isBlank() && !"none".equals(exporter.trim());
    }

    /** Null when the step has no span (the plugin is not configured, or the build was traced before a restart). */
    static Recorded ended(BuildTraces.Step step, SessionResult result, byte[] spans) {
        Span stepSpan = span(step);
        if (!stepSpan.getSpanContext().isValid()) {
            return null;
        }
        stepSpan.setAllAttributes(attributes(StepSpanAttributes.of(result)));
        int recorded = spans == null ? 0 : record(CliSpan.inParentOrder(spans), stepSpan);
        return new Recorded(recorded, stepSpan.getSpanContext().getTraceId());
    }

    /** The step's span as the opentelemetry plugin keeps it (for a Pipeline step, that of its flow node). */
    private static Span span(BuildTraces.Step step) {
        OtelTraceService service = OtelTraceService.get();
        if (step.node() != null) {
            return service.getSpan(step.run(), step.node());
        }
        if (step.buildStep() != null && step.run() instanceof AbstractBuild<?, ?> build) {
            return service.getSpan(build, step.buildStep());
        }
        return service.getSpan(step.run());
    }

    /** Records the CLI's spans, each under its parent, a run's root under the step span, with the CLI's times. */
    private static int record(List<CliSpan> spans, Span stepSpan) {
        if (spans.isEmpty()) {
            return 0;
        }
        Tracer tracer = ReconfigurableOpenTelemetry.get().getTracer(CLI_SCOPE);
        Map<String, Span> recorded = new HashMap<>();
        for (CliSpan cli : spans) {
            Span parent = cli.parentSpanId() == null ? stepSpan : recorded.getOrDefault(cli.parentSpanId(), stepSpan);
            SpanBuilder builder = tracer.spanBuilder(cli.name())
                    .setParent(Context.root().with(parent))
                    .setSpanKind(SpanKind.valueOf(cli.kind()))
                    .setStartTimestamp(cli.startEpochNanos(), TimeUnit.NANOSECONDS)
                    .setAllAttributes(attributes(cli.attributes()));
            Span span = builder.startSpan();
            for (CliSpan.Event event : cli.events()) {
                span.addEvent(event.name(), attributes(event.attributes()), event.epochNanos(), TimeUnit.NANOSECONDS);
            }
            if (cli.error()) {
                span.setStatus(StatusCode.ERROR, cli.statusMessage() == null ? "" : cli.statusMessage());
            }
            span.end(cli.endEpochNanos(), TimeUnit.NANOSECONDS);
            recorded.put(cli.spanId(), span);
        }
        return recorded.size();
    }

    @SuppressWarnings("unchecked")
    private static Attributes attributes(Map<String, Object> values) {
        AttributesBuilder attributes = Attributes.builder();
        values.forEach((name, value) -> {
            if (value instanceof String s) {
                attributes.put(name, s);
            } else if (value instanceof Long l) {
                attributes.put(name, l);
            } else if (value instanceof Double d) {
                attributes.put(name, d);
            } else if (value instanceof Boolean b) {
                attributes.put(name, b);
            } else if (value instanceof List<?> list && !list.isEmpty()) {
                Object first = list.get(0);
                if (first instanceof String) {
                    attributes.put(AttributeKey.stringArrayKey(name), (List<String>) list);
                } else if (first instanceof Long) {
                    attributes.put(AttributeKey.longArrayKey(name), (List<Long>) list);
                } else if (first instanceof Double) {
                    attributes.put(AttributeKey.doubleArrayKey(name), (List<Double>) list);
                } else if (first instanceof Boolean) {
                    attributes.put(AttributeKey.booleanArrayKey(name), (List<Boolean>) list);
                }
            }
        });
        return attributes.build();
    }
}
