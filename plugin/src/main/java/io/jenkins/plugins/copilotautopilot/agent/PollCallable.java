package io.jenkins.plugins.copilotautopilot.agent;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.process.ControlFolderReader;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import jenkins.MasterToSlaveFileCallable;

/**
 * On the agent: reads what a session wrote into its control folder since the given positions (its events in
 * durable-task's log, its errors, the usage records of its model calls) and, once it has ended, how and what the agent
 * changed, in one round trip. For a session that is read rather than watched: after a controller restart, up to
 * where the log got, and when durable-task's watch is not available. Only JDK types and this plugin's
 * {@link SessionChunk} cross the channel.
 */
final class PollCallable extends MasterToSlaveFileCallable<PollCallable.Answer> {
    private static final long serialVersionUID = 1L;

    private final String outputFile;
    private final String resultFile;
    private final long outputOffset;
    private final long stderrOffset;
    private final long usageOffset;
    private final int maxBytes;

    PollCallable(String outputFile, String resultFile, long outputOffset, long stderrOffset, long usageOffset, int maxBytes) {
        this.outputFile = outputFile;
        this.resultFile = resultFile;
        this.outputOffset = outputOffset;
        this.stderrOffset = stderrOffset;
        this.usageOffset = usageOffset;
        this.maxBytes = maxBytes;
    }

    @Override
    public Answer invoke(File folder, VirtualChannel channel) throws IOException {
        Integer exitCode = durableExitCode(); // read first: once it is there, the other files are complete
        ControlFolderReader.Look look = ControlFolderReader.look(folder.toPath(), new File(outputFile).getName(), outputOffset, stderrOffset,
                usageOffset, maxBytes);
        if (exitCode == null) {
            exitCode = look.exitCode();
        }
        SessionChunk chunk = new SessionChunk(outputOffset, look.output(), stderrOffset, look.stderr(), usageOffset,
                look.usage().lines(), look.usage().consumed());
        if (look.approvals() != null) {
            chunk.approvals(look.approvals());
        }
        if (exitCode != null) {
            chunk.launchError = look.launchError();
            chunk.changesStatus = look.changesStatus();
            chunk.changesNumstat = look.changesNumstat();
            chunk.changesPatch = look.changesPatch();
        }
        return new Answer(chunk, exitCode, look.folderExists());
    }

    private Integer durableExitCode() throws IOException {
        File result = new File(resultFile);
        if (result.length() == 0) {
            return null;
        }
        String text = Files.readString(result.toPath(), StandardCharsets.UTF_8).strip();
        try {
            return text.isEmpty() ? null : Integer.valueOf(text);
        } catch (NumberFormatException e) {
            throw new IOException("the exit status file " + result + " holds '" + text + "'", e);
        }
    }

    /** What the agent found: the new bytes, the exit status once there is one, whether the control folder exists. */
    record Answer(SessionChunk chunk, Integer exitCode, boolean folderExists) implements java.io.Serializable {
    }
}
