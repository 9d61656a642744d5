package io.jenkins.plugins.copilotautopilot.agent;

import hudson.FilePath;
import hudson.slaves.WorkspaceList;
import io.jenkins.plugins.copilotautopilot.Messages;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * What is done to a session on its agent besides following it: stopping it (the launch script's watchdog and
 * durable-task's stop, either enough), telling its launch script what comes next, deleting its folders. Each call is
 * bounded in time; the ones that must not hold up their caller run on {@link AgentCalls#pool()}.
 */
final class AgentStops {
    private static final Logger LOGGER = Logger.getLogger(AgentStops.class.getName());

    private AgentStops() {
    }

    /**
     * Stops the CLI without waiting for it: on {@link Following#remoteCalls()}, asks the launch script's watchdog
     * (which works from inside containers too) and durable-task (whose stop kills what carries its cookie, through
     * the build's launcher: a container's launcher kills inside the container). The follower sees the end.
     */
    static void stop(AgentSession.Location where, AgentSession.Owner owner) {
        AgentCalls.pool().submit(() -> {
            try {
                stopNow(where, owner);
            } catch (IOException | InterruptedException | RuntimeException e) {
                owner.listener().getLogger().println(Messages.AgentSession_CannotStop(where.displayNode(),
                        e.getMessage() == null ? e.toString() : e.getMessage()));
            } finally {
                owner.wake();
            }
        });
    }

    /**
     * Both stops, each bounded in time, on the calling thread. Either is enough: the watchdog stops the CLI where a
     * container launcher's kill cannot (docker-workflow's needs a {@code ps} that Alpine images lack), durable-task's
     * stop where the watchdog itself is gone.
     */
    static void stopNow(AgentSession.Location where, AgentSession.Owner owner) throws IOException, InterruptedException {
        FilePath taskWorkspace = FilePathUtils.find(where.node, where.taskWorkspace);
        if (taskWorkspace == null) {
            throw new IOException(Messages.AgentSession_Offline(where.displayNode()));
        }
        IOException watchdog = null;
        try {
            TimeLimits.limit(taskWorkspace.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.AgentSession_AskingToStop(where.displayNode()),
                    () -> new FilePath(taskWorkspace.getChannel(), where.controlFolder).act(new RequestStopCallable()));
        } catch (IOException e) {
            watchdog = e;
        }
        try {
            TimeLimits.limit(taskWorkspace.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.AgentSession_Killing(where.displayNode()), () -> {
                where.controller.stop(taskWorkspace, owner.launcher());
                return null;
            });
        } catch (IOException e) {
            if (watchdog != null) {
                e.addSuppressed(watchdog);
                throw e;
            }
            owner.listener().getLogger().println(Messages.AgentSession_KillFailed(e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }

    /**
     * Tells the launch script what comes after its wait, without waiting: on {@link Following#remoteCalls()}, bounded in
     * time, written into the control folder from the agent (containers included: the folder is the agent's). A call that
     * fails is not retried here: the follower tells the script again until it moves on.
     */
    static void answer(AgentSession.Location where, AgentSession.Owner owner, int step, String answer, String prompt) {
        inControlFolderSoon(where, owner, new AnswerCallable(step, answer, prompt),
                "telling a Copilot session's launch script what comes next failed; it is told again");
    }

    /**
     * Hands the approval hook its answer without waiting, as {@link #answer} does: written into the control folder from
     * the agent. A call that fails is not retried here: the agent hands over the request as still open, and the follower
     * hands the decision again.
     */
    static void decide(AgentSession.Location where, AgentSession.Owner owner, String id, String hookOutput) {
        inControlFolderSoon(where, owner, new DecideCallable(id, hookOutput),
                "handing a Copilot session's approval hook its decision failed; it is handed again");
    }

    /** Writes into the control folder from the agent on {@link AgentCalls#pool()}, bounded in time; then wakes the follower. */
    private static void inControlFolderSoon(AgentSession.Location where, AgentSession.Owner owner,
                                            jenkins.MasterToSlaveFileCallable<Void> write, String failed) {
        AgentCalls.pool().submit(() -> {
            try {
                FilePath folder = FilePathUtils.find(where.node, where.controlFolder);
                if (folder == null) {
                    throw new IOException(Messages.AgentSession_Offline(where.displayNode()));
                }
                TimeLimits.limit(folder.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.AgentSession_Answering(where.displayNode()),
                        () -> folder.act(write));
            } catch (IOException | InterruptedException | RuntimeException e) {
                LOGGER.log(Level.FINE, failed, e);
            } finally {
                owner.wake();
            }
        });
    }

    /**
     * Deletes a session's folders given its task workspace (the launch folder), and ends what carries its run marker
     * ({@code runId}, when known), bounded in time; a
     * {@link FoldersNotDeletedException} when the agent answered that it could not.
     */
    static void deleteFolders(FilePath taskWorkspace, String runId) throws IOException, InterruptedException {
        String refused = TimeLimits.limit(taskWorkspace.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS,
                Messages.AgentSession_Deleting(taskWorkspace.getRemote()),
                () -> taskWorkspace.act(new DeleteSessionFoldersCallable(controlParent(taskWorkspace), runId)));
        if (refused != null) {
            throw new FoldersNotDeletedException(refused);
        }
    }

    /** The folder durable-task makes a session's control folder in, next to its launch folder ({@code taskWorkspace}). */
    static String controlParent(FilePath taskWorkspace) {
        FilePath tmp = WorkspaceList.tempDir(taskWorkspace);
        return tmp == null ? taskWorkspace.getRemote() : tmp.getRemote();
    }

}
