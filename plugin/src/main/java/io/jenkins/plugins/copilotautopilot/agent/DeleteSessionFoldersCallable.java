package io.jenkins.plugins.copilotautopilot.agent;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import java.io.File;
import java.io.IOException;
import jenkins.MasterToSlaveFileCallable;

/**
 * On the agent: deletes a session's folders, the launch files and durable-task's control folder with the CLI's private
 * state in it, in one round trip. A watchdog still running there stops its CLI once its folder is gone.
 */
final class DeleteSessionFoldersCallable extends MasterToSlaveFileCallable<Void> {
    private static final long serialVersionUID = 1L;

    private final String controlParent;

    /** @param controlParent the folder durable-task made its control folder in, next to the launch folder */
    DeleteSessionFoldersCallable(String controlParent) {
        this.controlParent = controlParent;
    }

    @Override
    public Void invoke(File launchFolder, VirtualChannel channel) throws IOException {
        LocalCliSession.deleteRecursively(launchFolder.toPath());
        LocalCliSession.deleteRecursively(new File(controlParent).toPath());
        return null;
    }
}
