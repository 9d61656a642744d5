package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.agent.TimeLimits;
import io.jenkins.plugins.copilotautopilot.session.ResumeState;

import hudson.FilePath;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
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
        if (state == null || state.changesPath() == null) {
            return false;
        }
        String name = state.plan().get(SessionSettings.CHANGES_FILE);
        String node = state.launchNode();
        String patch = result.changes().patch() == null ? "" : result.changes().patch();
        try {
            FilePath file = FilePathUtils.find(node, state.changesPath());
            if (file == null) {
                throw new IOException(Messages.AgentSession_Offline(node.isEmpty() ? "the built-in node" : node));
            }
            TimeLimits.limit(file.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS, "writing " + name, () -> {
                FilePath parent = file.getParent();
                if (parent != null) {
                    parent.mkdirs();
                }
                file.write(patch, StandardCharsets.UTF_8.name());
                return null;
            });
            listener.getLogger().println(Messages.ChangesFile_Written(name,
                    patch.getBytes(StandardCharsets.UTF_8).length, result.changes().patchCut() ? Messages.ChangesFile_Cut() : ""));
            return true;
        } catch (IOException | RuntimeException e) {
            listener.getLogger().println(Messages.ChangesFile_NotWritten(name, e.getMessage()));
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOGGER.log(Level.FINE, "interrupted while writing " + state.changesPath(), e);
            return false;
        }
    }
}
