package io.jenkins.plugins.copilotautopilot;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.process.SessionFiles;
import java.io.File;
import java.io.IOException;
import java.io.Serializable;
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
        SessionFiles.Look look = SessionFiles.look(folder.toPath(), outputOffset, stderrOffset, usageOffset, maxBytes);
        Answer answer = new Answer(look.output(), look.stderr(), look.exitCode(), look.launchError(), look.folderExists(),
                look.usage().lines(), look.usage().consumed());
        answer.changesStatus = look.changesStatus();
        answer.changesNumstat = look.changesNumstat();
        answer.changesPatch = look.changesPatch();
        return answer;
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
