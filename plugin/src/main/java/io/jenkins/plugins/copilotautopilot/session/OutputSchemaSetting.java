package io.jenkins.plugins.copilotautopilot.session;

import hudson.AbortException;
import hudson.FilePath;
import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.core.output.OutputSchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code outputSchema} as the session takes it: the schema itself, or the text of {@code @file} in the workspace (from
 * the trusted revision for an untrusted change request, as {@code promptFile} is), read once when the step starts so
 * that the plan holds the schema a restarted controller checks the answers against.
 */
final class OutputSchemaSetting {
    private OutputSchemaSetting() {
    }

    /** The schema {@code setting} names; {@code untrusted}: read an {@code @file} from the trusted revision. */
    static String text(String setting, FilePath workspace, ChangeRequestTrust.Untrusted untrusted) throws IOException, InterruptedException {
        if (!setting.startsWith("@")) {
            return setting;
        }
        String name = setting.substring(1).strip();
        if (untrusted != null) {
            return ChangeRequestTrust.readTrusted(untrusted, name);
        }
        FilePath file = workspace.child(name);
        if (!file.exists() || file.isDirectory()) {
            throw new AbortException(Messages.OutputSchemaSetting_Missing(name, workspace.getRemote()));
        }
        byte[] bytes;
        try (InputStream in = file.read()) {
            bytes = in.readNBytes(OutputSchema.MAX_SCHEMA_CHARS + 1);
        }
        if (bytes.length > OutputSchema.MAX_SCHEMA_CHARS) {
            throw new AbortException(Messages.OutputSchemaSetting_TooLarge(name, OutputSchema.MAX_SCHEMA_CHARS));
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
