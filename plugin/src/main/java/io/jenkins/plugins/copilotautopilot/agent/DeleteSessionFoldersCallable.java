package io.jenkins.plugins.copilotautopilot.agent;

import hudson.remoting.VirtualChannel;
import hudson.util.ProcessTree;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.files.FileTrees;
import java.io.File;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
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
    private static final Logger LOGGER = Logger.getLogger(DeleteSessionFoldersCallable.class.getName());

    private final String controlParent;
    private final String runId;

    /**
     * @param controlParent the folder durable-task made its control folder in, next to the launch folder
     * @param runId         the session's run marker, or null: what still carries it is ended with the folders
     */
    DeleteSessionFoldersCallable(String controlParent, String runId) {
        this.controlParent = controlParent;
        this.runId = runId;
    }

    @Override
    public String invoke(File launchFolder, VirtualChannel channel) {
        String refused = delete(launchFolder.toPath(), Path.of(controlParent));
        if (runId != null) {
            endRun(runId);
        }
        return refused;
    }

    /**
     * On the agent: ends every process that carries the session's run marker. The CLI runs a shell tool in a process
     * group of its own, so an agent killed with its processes loses the CLI and the launch script's watchdog but not
     * the tool, which nothing would stop once the folders are gone.
     */
    static void endRun(String runId) {
        try {
            ProcessTree.get().killAll(Map.of(CliCommand.RUN_MARKER_VARIABLE, runId));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOGGER.log(Level.FINE, "could not end the processes of Copilot run " + runId, e);
        }
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
