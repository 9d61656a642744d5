package io.jenkins.plugins.copilotautopilot.trace;

import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.tasks.BuildStep;
import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.Jenkins;
import org.jenkinsci.plugins.workflow.graph.FlowNode;

/**
 * The session in the build's trace where the optional opentelemetry plugin traces builds: the step's span gets the
 * session's outcome and numbers, and the CLI's spans are recorded under it, through that plugin's tracer and exporter.
 * Without that plugin, does nothing (and never loads {@link OpenTelemetryTrace}, whose classes come from it). A trace that
 * cannot be written is a log line, never a failed step.
 */
public final class BuildTraces {
    private static final Logger LOGGER = Logger.getLogger(BuildTraces.class.getName());

    private BuildTraces() {
    }

    /** The step a session runs in: its flow node (Pipeline) or its build step (Freestyle). */
    public record Step(Run<?, ?> run, FlowNode node, BuildStep buildStep) {
    }

    /** Whether the opentelemetry plugin is installed and active. */
    static boolean available() {
        Jenkins jenkins = Jenkins.getInstanceOrNull();
        hudson.PluginWrapper plugin = jenkins == null ? null : jenkins.getPluginManager().getPlugin("opentelemetry");
        return plugin != null && plugin.isActive();
    }

    /** Whether the opentelemetry plugin exports the builds' traces (installed, active, with a traces exporter). */
    public static boolean exporting() {
        if (!available()) {
            return false;
        }
        try {
            return OpenTelemetryTrace.exporting();
        } catch (RuntimeException | LinkageError e) {
            LOGGER.log(Level.FINE, "could not tell whether the opentelemetry plugin exports traces", e);
            return false;
        }
    }

    /**
     * The session has ended, before its step does: the step's span gets its attributes and, when the CLI's spans were
     * kept ({@code spans}: the span file, under the build's trace), those spans below it. Nothing without a span.
     */
    public static void ended(Step step, SessionResult result, byte[] spans, TaskListener listener) {
        if (step == null || !available()) {
            return;
        }
        try {
            OpenTelemetryTrace.Recorded recorded = OpenTelemetryTrace.ended(step, result, spans);
            if (recorded != null && recorded.spans() > 0) {
                listener.getLogger().println(Messages.BuildTraces_Recorded(recorded.spans(), recorded.traceId()));
            }
        } catch (RuntimeException | LinkageError e) {
            LOGGER.log(Level.FINE, "could not add a Copilot session to the build's trace", e);
            listener.getLogger().println(Messages.BuildTraces_NotRecorded(e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }
}
