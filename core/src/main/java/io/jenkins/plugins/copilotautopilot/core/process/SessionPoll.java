package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import java.util.List;

/**
 * What a look at a running session found: the CLI's output and errors written since the given positions, the
 * usage records of its model calls, and whether it has ended.
 *
 * @param output        new bytes of the CLI's standard output (possibly fewer than were written, see the poll's limit)
 * @param stderr        new bytes of the CLI's standard error
 * @param exitCode      the CLI's exit code once known, else null
 * @param ended         whether the CLI's process is gone (with or without an exit code)
 * @param launchError   why the launch script could not start the CLI, else null
 * @param usage         new {@code session.usage_record} lines from the CLI's session state, one per line
 * @param usageConsumed how far to move the usage position: the bytes read of the session state, records or not
 * @param changes       what the agent changed in the git work tree, once the session has ended (null: not known)
 * @param approvals     the approval hook's open requests ({@code approveTools}), all of them; null when the look did not
 *                      tell (nothing changed, or a session without approvals)
 */
public record SessionPoll(byte[] output, byte[] stderr, Integer exitCode, boolean ended, String launchError,
                          byte[] usage, long usageConsumed, WorkTreeChanges changes, List<ApprovalGate.Request> approvals) {
    private static final byte[] NONE = new byte[0];

    public SessionPoll(byte[] output, byte[] stderr, Integer exitCode, boolean ended, String launchError,
                       byte[] usage, long usageConsumed, WorkTreeChanges changes) {
        this(output, stderr, exitCode, ended, launchError, usage, usageConsumed, changes, null);
    }

    public SessionPoll(byte[] output, byte[] stderr, Integer exitCode, boolean ended, String launchError) {
        this(output, stderr, exitCode, ended, launchError, NONE, 0, null);
    }

    public SessionPoll(byte[] output, byte[] stderr, Integer exitCode, boolean ended) {
        this(output, stderr, exitCode, ended, null);
    }

    public boolean hasData() {
        return output.length > 0 || stderr.length > 0 || usageConsumed > 0;
    }
}
