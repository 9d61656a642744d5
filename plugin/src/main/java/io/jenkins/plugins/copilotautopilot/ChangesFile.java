package io.jenkins.plugins.copilotautopilot;

import hudson.FilePath;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * {@code changesFile}: what the agent changed (the session's masked patch) written into the workspace once the session
 * has ended, for a later step to review, archive or apply.
 */
final class ChangesFile {
    private static final Logger LOGGER = Logger.getLogger(ChangesFile.class.getName());

    private ChangesFile() {
    }

    /** Writes the file the session's settings name, if any; true when it was written. Bounded in time; never throws. */
    static boolean write(ResumeState state, SessionResult result, TaskListener listener) {
        if (state == null || state.changesPath == null) {
            return false;
        }
        String patch = result.patch() == null ? "" : result.patch();
        try {
            FilePath file = FilePathUtils.find(state.launchNode, state.changesPath);
            if (file == null) {
                throw new IOException(Messages.AgentSession_Offline(state.launchNode.isEmpty() ? "the built-in node" : state.launchNode));
            }
            TimeLimits.limit(file.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS, "writing " + state.changesFile, () -> {
                FilePath parent = file.getParent();
                if (parent != null) {
                    parent.mkdirs();
                }
                file.write(patch, StandardCharsets.UTF_8.name());
                return null;
            });
            listener.getLogger().println(Messages.ChangesFile_Written(state.changesFile,
                    patch.getBytes(StandardCharsets.UTF_8).length, result.patchCut() ? Messages.ChangesFile_Cut() : ""));
            return true;
        } catch (IOException | RuntimeException e) {
            listener.getLogger().println(Messages.ChangesFile_NotWritten(state.changesFile, e.getMessage()));
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOGGER.log(Level.FINE, "interrupted while writing " + state.changesPath, e);
            return false;
        }
    }
}
