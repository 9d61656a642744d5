package io.jenkins.plugins.copilotautopilot.core.process;

/**
 * What a look at a running session found: the CLI's output and errors written since the given positions,
 * and whether it has ended.
 *
 * @param output   new bytes of the CLI's standard output (possibly fewer than were written, see the poll's limit)
 * @param stderr   new bytes of the CLI's standard error
 * @param exitCode the CLI's exit code once known, else null
 * @param ended    whether the CLI's process is gone (with or without an exit code)
 * @param launchError why the launch script could not start the CLI, else null
 */
public record SessionPoll(byte[] output, byte[] stderr, Integer exitCode, boolean ended, String launchError) {
    public SessionPoll(byte[] output, byte[] stderr, Integer exitCode, boolean ended) {
        this(output, stderr, exitCode, ended, null);
    }

    public boolean hasData() {
        return output.length > 0 || stderr.length > 0;
    }
}
