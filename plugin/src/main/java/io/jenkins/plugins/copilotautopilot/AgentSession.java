package io.jenkins.plugins.copilotautopilot;

import hudson.FilePath;
import hudson.Launcher;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.io.IOException;
import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jenkinsci.plugins.durabletask.Controller;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * A session running on an agent, seen from the controller: its control folder is read over the agent's
 * channel, found again by node name and path after the agent reconnects or the controller restarts.
 */
final class AgentSession implements CliSession {
    /** How long one call to the agent may take before the agent counts as unreachable. */
    static final long REMOTE_TIMEOUT_SECONDS = Long.getLong(AgentSession.class.getName() + ".REMOTE_TIMEOUT_SECONDS", 20);
    /** How often durable-task is asked whether the launch wrapper is still alive while the CLI writes nothing. */
    private static final long LIVENESS_CHECK_MILLIS = 10_000;

    /** Where a session runs: what survives a restart of the controller. Plain strings and durable-task's controller. */
    static final class Location implements Serializable {
        private static final long serialVersionUID = 1L;

        final String node;
        final String workspace;
        final String controlFolder;
        final String runId;
        final boolean insideContainer;
        final Controller controller;

        Location(String node, String workspace, String controlFolder, String runId, boolean insideContainer, Controller controller) {
            this.node = node;
            this.workspace = workspace;
            this.controlFolder = controlFolder;
            this.runId = runId;
            this.insideContainer = insideContainer;
            this.controller = controller;
        }
    }

    /** What a session needs from the build it belongs to, looked up again when needed. */
    interface Access {
        Launcher launcher() throws IOException, InterruptedException;

        TaskListener listener();
    }

    /** The control folder is gone (the workspace was wiped): there is nothing left to follow. */
    static final class GoneException extends IOException {
        private static final long serialVersionUID = 1L;

        GoneException(String message) {
            super(message);
        }
    }

    private final Location where;
    private final Access access;
    private FilePath folder;
    private long lastLivenessCheck = System.currentTimeMillis();

    AgentSession(Location where, Access access) {
        this.where = where;
        this.access = access;
    }

    Location location() {
        return where;
    }

    /** The control folder on the agent's current channel, or an exception saying the agent cannot be reached now. */
    private synchronized FilePath folder() throws IOException {
        if (folder == null) {
            folder = FilePathUtils.find(where.node, where.controlFolder);
            if (folder == null) {
                throw new IOException(Messages.AgentSession_Offline(displayNode()));
            }
        }
        return folder;
    }

    private String displayNode() {
        return where.node.isEmpty() ? "the built-in node" : where.node;
    }

    private synchronized void forget() {
        folder = null;
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException, InterruptedException {
        return poll(outputOffset, stderrOffset, 0, maxBytes);
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes)
            throws IOException, InterruptedException {
        PollCallable.Answer answer;
        try {
            answer = call(folder().actAsync(new PollCallable(outputOffset, stderrOffset, usageOffset, maxBytes)));
        } catch (IOException e) {
            forget(); // a closed channel: find the agent again next time
            throw e;
        }
        if (!answer.folderExists) {
            throw new GoneException(Messages.AgentSession_Gone(where.controlFolder, displayNode()));
        }
        Integer exitCode = answer.exitCode;
        boolean quiet = answer.output.length == 0 && answer.stderr.length == 0;
        if (exitCode == null && quiet && System.currentTimeMillis() - lastLivenessCheck >= LIVENESS_CHECK_MILLIS) {
            lastLivenessCheck = System.currentTimeMillis();
            exitCode = wrapperExitStatus(); // the wrapper died without the launch script writing an exit code
        }
        return new SessionPoll(answer.output, answer.stderr, exitCode, exitCode != null, answer.launchError, answer.usage,
                answer.usageConsumed, WorkTreeChanges.parse(answer.changesStatus, answer.changesNumstat, answer.changesPatch));
    }

    private Integer wrapperExitStatus() throws IOException, InterruptedException {
        FilePath workspace = FilePathUtils.find(where.node, where.workspace);
        return workspace == null ? null : where.controller.exitStatus(workspace, access.launcher(), access.listener());
    }

    @Override
    public void stop() throws IOException, InterruptedException {
        if (where.insideContainer) {
            // the container's launcher knows how to find processes inside it (their environment carries the marker)
            access.launcher().kill(Map.of(CliCommand.RUN_MARKER_VARIABLE, where.runId));
        } else {
            VirtualChannel channel = folder().getChannel();
            if (channel == null) {
                throw new IOException(Messages.AgentSession_Offline(displayNode()));
            }
            try {
                channel.call(new KillMarkedProcessesCallable(where.runId)); // SIGTERM, a grace period, SIGKILL
            } catch (IOException e) {
                forget();
                throw e;
            }
        }
    }

    @Override
    public void cleanup() throws IOException, InterruptedException {
        folder().deleteRecursive();
        FilePath workspace = FilePathUtils.find(where.node, where.workspace);
        if (workspace != null) {
            where.controller.cleanup(workspace);
        }
    }

    private <T> T call(Future<T> future) throws IOException, InterruptedException {
        try {
            return future.get(REMOTE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            forget();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw cause instanceof IOException io ? io : new IOException(cause.toString(), cause);
        } catch (TimeoutException e) {
            future.cancel(true);
            forget();
            throw new IOException(Messages.AgentSession_NoAnswer(displayNode(), REMOTE_TIMEOUT_SECONDS));
        }
    }
}
