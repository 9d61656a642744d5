package io.jenkins.plugins.copilotautopilot.agent;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import java.io.File;
import java.io.IOException;
import java.io.Serializable;
import jenkins.MasterToSlaveFileCallable;

/**
 * On the agent: how a session's control folder looks, to tell a CLI that runs from one that ended or was lost with
 * its machine: whether the folder is there, whether an exit status was written (the launch script's, or
 * durable-task's when the script itself was killed), how long ago the watchdog last wrote its heartbeat (by the
 * agent's clock, so that clock skew does not matter), and how long the task's log is (a watch that has stopped on the
 * agent leaves it ahead of what was handed over).
 */
final class SessionHealthCallable extends MasterToSlaveFileCallable<SessionHealthCallable.Health> {
    private static final long serialVersionUID = 1L;

    private final String resultFile;
    private final String launchFolder;
    private final String logFile;

    SessionHealthCallable(String resultFile, String launchFolder, String logFile) {
        this.resultFile = resultFile;
        this.launchFolder = launchFolder;
        this.logFile = logFile;
    }

    @Override
    public Health invoke(File folder, VirtualChannel channel) throws IOException {
        if (!folder.isDirectory()) {
            return new Health(false, false, -1, false, null, -1);
        }
        boolean ended = LocalCliSession.readExitCode(folder.toPath()) != null || new File(resultFile).length() > 0;
        File heartbeat = new File(folder, ControlFolder.HEARTBEAT);
        long age = heartbeat.exists() ? Math.max(0, System.currentTimeMillis() - heartbeat.lastModified()) : -1;
        boolean unread = new File(launchFolder, ControlFolder.ARGUMENTS).exists();
        java.util.List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> open =
                io.jenkins.plugins.copilotautopilot.core.process.ControlFolderReader.openApprovals(folder.toPath());
        SessionChunk approvals = null;
        if (open != null) {
            approvals = new SessionChunk(0, SessionChunk.NONE, 0, SessionChunk.NONE, 0, SessionChunk.NONE, 0);
            approvals.approvals(open);
        }
        return new Health(true, ended, age, unread, approvals, new File(logFile).length());
    }

    /**
     * @param folderExists      false: the control folder is gone (the workspace was wiped)
     * @param ended             an exit status is there
     * @param heartbeatAgeMillis how long since the watchdog's last heartbeat; -1 before the first
     * @param launchFilesUnread  the launch script has not read its files yet (it has not started)
     * @param approvals          the approval hook's open requests (in a chunk of nothing else), or null when there is no
     *                           approval folder: the watch hands them over only once the log grows, which a call that
     *                           waits does not do (after a restart, a reconnection)
     * @param logBytes           the length of the task's log (the CLI's events)
     */
    record Health(boolean folderExists, boolean ended, long heartbeatAgeMillis, boolean launchFilesUnread, SessionChunk approvals,
                  long logBytes) implements Serializable {
    }
}
