package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ControlFolderReader;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A session's control folder without a process: like {@link LocalCliSession}, read with the same code the
 * plugin runs on the agent when it reads a session instead of watching it ({@link ControlFolderReader#look}: the exit code
 * first, the usage records in the CLI's session state, both output files from where the follower stopped), and ended
 * once someone has written the exit code file. The benchmark's warm-up follows complete sessions through it.
 */
final class FileCliSession implements CliSession {
    private final Path folder;

    FileCliSession(Path folder) {
        this.folder = folder;
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException {
        return poll(outputOffset, stderrOffset, 0, maxBytes);
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes) throws IOException {
        return ControlFolderReader.look(folder, outputOffset, stderrOffset, usageOffset, maxBytes).toPoll();
    }

    @Override
    public void stop() {
        // no process: the writer ends the session by writing its exit code
    }

    @Override
    public void cleanup() {
        // the benchmark removes the folder when the session has ended
    }
}
