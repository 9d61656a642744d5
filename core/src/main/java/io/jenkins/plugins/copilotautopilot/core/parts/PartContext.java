package io.jenkins.plugins.copilotautopilot.core.parts;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.render.LogLines;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * What a part of a session writes with and reads from: the log's lines, the masker, the session as tracked, the
 * journal (a record of the engine's own, by type), and the session's warnings (a line in the log, a record in the
 * journal and a line in the result).
 */
public record PartContext(LogLines lines, SecretMasker masker, SessionTracker tracker, BiConsumer<String, JsonNode> journal,
                          Consumer<String> warnings) {
    /** A warning of the session's, masked where it leaves. */
    public void warn(String line) {
        warnings.accept(line);
    }

    /** A record of the engine's own in the journal. */
    public void record(String type, JsonNode data) {
        journal.accept(type, data);
    }
}
