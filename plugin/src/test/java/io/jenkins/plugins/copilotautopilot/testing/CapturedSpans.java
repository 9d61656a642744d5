package io.jenkins.plugins.copilotautopilot.testing;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The spans the opentelemetry plugin exports in a test Jenkins, kept in memory: its traces exporter
 * {@code otel.traces.exporter=copilot-test}, found by the SDK's autoconfiguration (META-INF/services).
 */
public final class CapturedSpans implements ConfigurableSpanExporterProvider {
    private static final List<SpanData> SPANS = new ArrayList<>();

    /** What was exported so far. */
    public static List<SpanData> exported() {
        synchronized (SPANS) {
            return List.copyOf(SPANS);
        }
    }

    public static void clear() {
        synchronized (SPANS) {
            SPANS.clear();
        }
    }

    @Override
    public SpanExporter createExporter(ConfigProperties config) {
        return new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                synchronized (SPANS) {
                    SPANS.addAll(new ArrayList<>(spans));
                }
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode flush() {
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
                return CompletableResultCode.ofSuccess();
            }
        };
    }

    @Override
    public String getName() {
        return "copilot-test";
    }
}
