package io.jenkins.plugins.copilotautopilot.agent;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.files.FileTrees;
import java.io.File;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import jenkins.MasterToSlaveFileCallable;

/**
 * On the agent: deletes a session's folders, the launch files and durable-task's control folder with the CLI's private
 * state in it, in one round trip. A watchdog still running there stops its CLI once its folder is gone. Returns why
 * the agent could not delete them, or null when they are gone: a refusal is told apart from an agent that did not
 * answer, which is worth asking again. A session whose end durable-task's watch handed over is deleted by its
 * {@link EventsHandler} in the same way, without a call. Either way the agent looks again a little later
 * ({@link DeletedFoldersLookedAt}).
 */
final class DeleteSessionFoldersCallable extends MasterToSlaveFileCallable<String> {
    private static final long serialVersionUID = 1L;

    private final String controlParent;

    /** @param controlParent the folder durable-task made its control folder in, next to the launch folder */
    DeleteSessionFoldersCallable(String controlParent) {
        this.controlParent = controlParent;
    }

    @Override
    public String invoke(File launchFolder, VirtualChannel channel) {
        return delete(launchFolder.toPath(), Path.of(controlParent));
    }

    /** On the agent: deletes the launch folder and the folder of the control folder; why it could not, or null. */
    static String delete(Path launchFolder, Path controlParent) {
        try {
            FileTrees.delete(launchFolder);
            FileTrees.delete(controlParent);
            DeletedFoldersLookedAt.later(launchFolder, controlParent);
            return null;
        } catch (AccessDeniedException e) {
            return "permission denied for " + e.getFile() + " (the agent runs as " + System.getProperty("user.name") + ")";
        } catch (IOException e) {
            return e.toString();
        }
    }
}
