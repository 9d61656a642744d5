package io.jenkins.plugins.copilotautopilot.follow;

import hudson.Extension;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.model.listeners.RunListener;
import io.jenkins.plugins.copilotautopilot.agent.FolderDeletions;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A Pipeline session is noted in its build's folder as it launches, and un-noted once its end has seen to its folders
 * on the agent. A build that completes with one still noted ended without its step ending it: workflow-job's hard kill
 * (the stop button's last resort, and the only one a build not yet resumed after a restart has) tells its steps
 * nothing, before or after they were resumed. The session's folders are then deleted once its agent answers, which
 * stops its CLI instead of letting it run on, and spend, for nobody.
 */
@Extension
public final class UnendedSessions extends RunListener<Run<?, ?>> {
    private static final Logger LOGGER = Logger.getLogger(UnendedSessions.class.getName());

    /** The session of {@code invocationId} is about to be launched in {@code launchFolder} on {@code node}. */
    public static void launching(Run<?, ?> run, String invocationId, String node, String launchFolder) {
        try {
            Path noted = SessionFiles.launched(run, invocationId);
            Files.createDirectories(noted.getParent());
            Files.writeString(noted, node + "\t" + launchFolder, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            LOGGER.log(Level.WARNING, "could not note where a Copilot session launches; a build killed by force leaves it running", e);
        }
    }

    /** The session's end has seen to its folders (deleted, or to be deleted once its agent answers). */
    public static void endedWithItsFolders(Run<?, ?> run, String invocationId) {
        try {
            Files.deleteIfExists(SessionFiles.launched(run, invocationId));
        } catch (IOException | RuntimeException e) {
            LOGGER.log(Level.FINE, "could not un-note a Copilot session", e);
        }
    }

    @Override
    public void onCompleted(Run<?, ?> run, TaskListener listener) {
        for (Path noted : SessionFiles.stillLaunched(run)) {
            try {
                String[] where = Files.readString(noted, StandardCharsets.UTF_8).split("\t", 2);
                if (where.length == 2) {
                    LOGGER.info(() -> run + " ended without ending its Copilot session in " + where[1]
                            + ": its folders are deleted once its agent answers, which stops the CLI");
                    FolderDeletions.later(where[0], where[1]);
                }
                Files.delete(noted);
            } catch (IOException | RuntimeException e) {
                LOGGER.log(Level.WARNING, "could not see to the folders of a Copilot session its build did not end", e);
            }
        }
    }
}
