package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.Messages;

/**
 * {@code outputSchema}'s {@code @file}: the schema read from a file in the workspace (from the trusted revision for an
 * untrusted change request, as {@code promptFile} is), once when the step starts, so that the plan holds the schema a
 * restarted controller checks the answers against.
 */
final class OutputSchemaSetting extends FileWording {
    OutputSchemaSetting(String workspace) {
        super("outputSchema", workspace);
    }

    @Override
    public String missing(String name) {
        return Messages.OutputSchemaSetting_Missing(name, workspace());
    }

    @Override
    public String tooLarge(String name, long bytes, int maxBytes) {
        return Messages.OutputSchemaSetting_TooLarge(name, maxBytes);
    }

    @Override
    String reading(String name, String node) {
        return Messages.SessionInputs_ReadingOutputSchema(node);
    }

    @Override
    String instead() {
        return Messages.OutputSchemaSetting_Instead();
    }

    @Override
    String what() {
        return Messages.OutputSchemaSetting_What();
    }
}
