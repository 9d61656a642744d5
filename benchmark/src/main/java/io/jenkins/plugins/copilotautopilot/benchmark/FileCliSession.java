package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A session's control folder without a process: like {@link LocalCliSession}, read with the same code the
 * plugin runs on the agent for each look (the exit code first, then both output files from where the follower
 * stopped), and ended once someone has written the exit code file. The benchmark's writer plays the CLI.
 */
final class FileCliSession implements CliSession {
    private final Path folder;
    private final Path output;
    private final Path stderr;

    FileCliSession(Path folder) {
        this.folder = folder;
        this.output = folder.resolve(ControlFolder.OUTPUT);
        this.stderr = folder.resolve(ControlFolder.STDERR);
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException {
        // as the plugin's PollCallable: once the exit code is there, the output files are complete
        Integer exitCode = LocalCliSession.readExitCode(folder);
        return new SessionPoll(LocalCliSession.read(output, outputOffset, maxBytes), LocalCliSession.read(stderr, stderrOffset, maxBytes),
                exitCode, exitCode != null, exitCode == null ? null : LocalCliSession.readLaunchError(folder));
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
