package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.core.prepare.Note;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a session's preparation notes, as lines of the build's log: each kind of note has its words. */
class SessionInputsTest {
    @Test
    void everyNoteIsOneLineOfTheLog() {
        assertEquals("[copilot] From the global configuration: model, provider",
                SessionInputs.line(new Note.FromDefaults(new LinkedHashSet<>(List.of("model", "provider")))));
        assertEquals("[copilot] The task is the text of .ci/task.md (14 characters).",
                SessionInputs.line(new Note.TaskFromFile(".ci/task.md", 14, false)));
        assertEquals("[copilot] The task is the text of task.md in the trusted revision (5 characters).",
                SessionInputs.line(new Note.TaskFromFile("task.md", 5, true)));
        assertEquals("[copilot] CR-1: its author is not trusted by the SCM, so the session is restricted (policy: restricted): no"
                        + " custom instructions, no built-in MCP server, no write tools; taken away: allowAllTools, toolSecrets; a"
                        + " promptFile is read from the trusted revision.",
                SessionInputs.line(new Note.Restricted("CR-1", List.of("allowAllTools", "toolSecrets"))));
        assertEquals("[copilot] WARNING: toolSecrets names NPM_TOKEN, which this build does not set (bind it with withCredentials"
                + " around the step).", SessionInputs.line(new Note.ToolSecretUnset("NPM_TOKEN")));
        assertEquals("[copilot] The task ends with the last 30 lines of this build's console, secrets masked (1 line of this"
                + " plugin's own left out).", SessionInputs.line(new Note.BuildLogIncluded(30, 1)));
        assertEquals("[copilot] GitHub token: credential 'copilot-token'", SessionInputs.line(new Note.TokenSource("credential 'copilot-token'")));
        assertEquals("[copilot] OpenTelemetry: the opentelemetry plugin traces this build, so the CLI's spans are kept and recorded"
                + " under this step's span (otel: false turns it off).", SessionInputs.line(new Note.Traced()));
    }
}
