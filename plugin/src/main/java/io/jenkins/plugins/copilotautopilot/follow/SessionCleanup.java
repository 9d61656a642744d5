package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.agent.AgentCalls;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.agent.FolderDeletions;
import io.jenkins.plugins.copilotautopilot.agent.FoldersNotDeletedException;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An ended session's folders deleted on its agent (the launch files, the control folder with the CLI's home): at once,
 * waited for a bounded time, else in the background until the agent answers ({@link FolderDeletions}). An agent
 * that answers that it cannot delete them (files of another user) is not asked again.
 */
final class SessionCleanup {
    private static final Logger LOGGER = Logger.getLogger(SessionCleanup.class.getName());

    private SessionCleanup() {
    }

    /** How a deletion went. */
    sealed interface Cleanup {
        /** The folders are gone. */
        record Deleted() implements Cleanup {
        }

        /** The agent did not answer (in time): worth asking again. */
        record Unreachable() implements Cleanup {
        }

        /** The agent answered that it could not delete them, and why. */
        record Refused(String why) implements Cleanup {
        }
    }

    /**
     * Deletes the session's folders on the agent (which also stops a CLI still running there: its watchdog ends it
     * once its folder is gone).
     */
    private static Cleanup cleanedUp(AgentSession s) {
        try {
            s.cleanup();
            return new Cleanup.Deleted();
        } catch (FoldersNotDeletedException e) {
            return new Cleanup.Refused(e.getMessage());
        } catch (IOException | InterruptedException | RuntimeException e) {
            LOGGER.log(Level.FINE, "could not delete the folders of a Copilot session", e);
            return new Cleanup.Unreachable();
        }
    }

    /**
     * {@link #cleanedUp} on the remote-call pool, waited for a bounded time: a channel that never answers keeps that
     * pool's thread (not this one), and the build is recorded and ends anyway.
     */
    static Cleanup now(AgentSession s) {
        Future<Cleanup> cleanup = AgentCalls.pool().submit(() -> cleanedUp(s));
        try {
            return cleanup.get(AgentSession.REMOTE_TIMEOUT_SECONDS + 5, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            cleanup.cancel(true);
            return new Cleanup.Unreachable();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Cleanup.Unreachable();
        }
    }

    /** Tries again, in the background, until the agent answers ({@link FolderDeletions}; a restart does not forget it). */
    static void later(AgentSession s) {
        s.deleteFoldersLater();
    }
}
