package io.jenkins.plugins.copilotautopilot;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionFiles;
import java.io.File;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import jenkins.MasterToSlaveFileCallable;

/**
 * On the agent: reads what the CLI wrote into its control folder since the given positions (its output, its
 * errors, the usage records of its model calls) and, once it has ended, what the agent changed, in one round trip.
 * Only JDK types and this plugin's {@link Answer} cross the channel.
 */
final class PollCallable extends MasterToSlaveFileCallable<PollCallable.Answer> {
    private static final long serialVersionUID = 1L;

    private final long outputOffset;
    private final long stderrOffset;
    private final long usageOffset;
    private final int maxBytes;

    PollCallable(long outputOffset, long stderrOffset, long usageOffset, int maxBytes) {
        this.outputOffset = outputOffset;
        this.stderrOffset = stderrOffset;
        this.usageOffset = usageOffset;
        this.maxBytes = maxBytes;
    }

    @Override
    public Answer invoke(File folder, VirtualChannel channel) throws IOException {
        Path path = folder.toPath();
        // the exit code first: once it is there, the output files are complete
        Integer exitCode = LocalCliSession.readExitCode(path);
        SessionFiles.Usage usage = SessionFiles.usage(path, usageOffset, maxBytes);
        Answer answer = new Answer(LocalCliSession.read(path.resolve(ControlFolder.OUTPUT), outputOffset, maxBytes),
                LocalCliSession.read(path.resolve(ControlFolder.STDERR), stderrOffset, maxBytes), exitCode,
                exitCode == null ? null : LocalCliSession.readLaunchError(path), folder.isDirectory(), usage.lines(),
                usage.consumed());
        if (exitCode != null) { // what the agent changed: written before the exit code
            answer.changesStatus = readIfThere(path.resolve(ControlFolder.CHANGES_STATUS));
            answer.changesNumstat = readIfThere(path.resolve(ControlFolder.CHANGES_NUMSTAT));
            answer.changesPatch = readIfThere(path.resolve(ControlFolder.CHANGES_PATCH));
        }
        return answer;
    }

    private static byte[] readIfThere(Path file) throws IOException {
        return java.nio.file.Files.exists(file) ? java.nio.file.Files.readAllBytes(file) : null;
    }

    /** What the agent found. */
    static final class Answer implements Serializable {
        private static final long serialVersionUID = 1L;

        final byte[] output;
        final byte[] stderr;
        final Integer exitCode;
        final String launchError;
        final boolean folderExists;
        final byte[] usage;
        final long usageConsumed;
        byte[] changesStatus;
        byte[] changesNumstat;
        byte[] changesPatch;

        Answer(byte[] output, byte[] stderr, Integer exitCode, String launchError, boolean folderExists, byte[] usage,
               long usageConsumed) {
            this.output = output;
            this.stderr = stderr;
            this.exitCode = exitCode;
            this.launchError = launchError;
            this.folderExists = folderExists;
            this.usage = usage;
            this.usageConsumed = usageConsumed;
        }
    }
}
