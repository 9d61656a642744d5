package io.jenkins.plugins.copilotautopilot.record;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.agent.TimeLimits;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;

import hudson.FilePath;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.otel.SpanFile;
import io.jenkins.plugins.copilotautopilot.core.otel.TraceParent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CLI's OpenTelemetry spans of a session ({@code otel}), kept with the build's session files: masked, and under the
 * build's trace when the step had one ({@code TRACEPARENT}); the session page offers them to those who may download the
 * journal.
 */
public final class SessionSpans {
    private SessionSpans() {
    }

    /**
     * Takes the spans durable-task's watch handed over at the end, else reads them from the control folder (bounded);
     * returns what was kept (masked, under the build's trace), or null for no span.
     */
    public static byte[] save(Run<?, ?> run, String invocationId, AgentSession session, SecretMasker masker, String traceParent,
                     TaskListener listener) throws IOException, InterruptedException {
        byte[] lines = session.handedOverSpans();
        if (lines == null) {
            FilePath file = session.spansFile();
            lines = TimeLimits.limit(file.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.SessionSpans_Fetching(), () -> {
                if (!file.exists()) {
                    return new byte[0];
                }
                try (InputStream in = file.read()) {
                    return in.readNBytes(SpanFile.MAX_BYTES);
                }
            });
        }
        TraceParent parent = TraceParent.parse(traceParent);
        byte[] adopted = SpanFile.adopt(lines, parent, masker::mask);
        SpanFile.Counts counts = SpanFile.count(adopted);
        if (counts.spans() == 0) {
            listener.getLogger().println(Messages.SessionSpans_None());
            return null;
        }
        Path target = SessionFiles.spans(run, invocationId);
        Files.write(target, adopted);
        listener.getLogger().println(Messages.SessionSpans_Kept(counts.spans(), counts.runs(), counts.modelCalls(), counts.toolCalls(),
                parent == null ? Messages.SessionSpans_OwnTrace() : Messages.SessionSpans_BuildTrace(parent.traceId())));
        return adopted;
    }
}
