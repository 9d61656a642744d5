package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.agent.TimeLimits;

import hudson.FilePath;
import io.jenkins.plugins.copilotautopilot.core.prepare.InlineOrFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Function;

/** The files of a build's workspace, read on its agent within a time limit, as a setting names them. */
final class WorkspaceFiles implements InlineOrFile.Files {
    private final FilePath workspace;
    private final Function<String, String> reading;

    /** @param reading what reading a file of that name is called while it takes time */
    WorkspaceFiles(FilePath workspace, Function<String, String> reading) {
        this.workspace = workspace;
        this.reading = reading;
    }

    @Override
    public InlineOrFile.Content read(String name, int maxBytes) throws IOException, InterruptedException {
        return TimeLimits.limit(workspace.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS, reading.apply(name), () -> {
            FilePath file = workspace.child(name);
            if (!file.exists()) {
                return new InlineOrFile.Missing();
            }
            if (file.isDirectory()) {
                return new InlineOrFile.Folder();
            }
            long size = file.length();
            try (InputStream in = file.read()) {
                return new InlineOrFile.Bytes(in.readNBytes(maxBytes + 1), size);
            }
        });
    }
}
