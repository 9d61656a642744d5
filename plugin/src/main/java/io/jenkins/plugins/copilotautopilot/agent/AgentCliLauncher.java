package io.jenkins.plugins.copilotautopilot.agent;

import io.jenkins.plugins.copilotautopilot.Messages;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.TaskListener;
import hudson.slaves.WorkspaceList;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.launch.LaunchFiles;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jenkinsci.plugins.durabletask.BourneShellScript;
import org.jenkinsci.plugins.durabletask.Controller;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * Starts a session on the build's agent as {@code sh} runs a script: durable-task's {@link BourneShellScript} runs the
 * generated launch script detached, through the build's launcher (so inside {@code container} and
 * {@code docker.image().inside} too), and from then on owns the process. The launch script holds a path only; the
 * task, the options and the secrets reach the agent as files written over the channel into the session's launch
 * folder, never on a command line, and the script deletes them once read. Each call to the agent is limited in time.
 *
 * <p>The launch folder, {@code <workspace>@tmp/copilot-autopilot-<id>}, is also durable-task's workspace for the task:
 * its cookie (which its stop, {@code sh}'s and the container launchers' kill by) is then the session's own, so that
 * stopping a session never stops an {@code sh} running in the same workspace; and durable-task's control folder,
 * {@code <workspace>@tmp/copilot-autopilot-<id>@tmp/durable-<hash>}, is the session's control folder.
 */
public final class AgentCliLauncher {
    private static final String FOLDER_PREFIX = "copilot-autopilot-";

    private AgentCliLauncher() {
    }

    /** Whether the build's launcher runs commands somewhere else than the agent itself (a container). */
    public static boolean insideContainer(Launcher launcher) {
        return launcher instanceof Launcher.DecoratedLauncher;
    }

    /** A new launch folder for a session in {@code workspace} (not created yet). */
    public static FilePath newLaunchFolder(FilePath workspace) throws AbortException {
        FilePath tmp = WorkspaceList.tempDir(workspace);
        if (tmp == null) {
            throw new AbortException(Messages.AgentCliLauncher_NoTempDir(workspace.getRemote()));
        }
        return tmp.child(FOLDER_PREFIX + UUID.randomUUID().toString().substring(0, 8));
    }

    /**
     * Writes the launch files and starts the launch script. Whatever fails, the launch files (secrets among them)
     * do not stay behind.
     *
     * @throws IOException when the session cannot be started (the message says why)
     */
    public static AgentSession launch(CliCommand command, FilePath launchFolder, Launcher launcher, EnvVars env,
                               TaskListener listener, AgentSession.Owner owner) throws IOException, InterruptedException {
        boolean insideContainer = insideContainer(launcher);
        Map<String, byte[]> files = new LinkedHashMap<>(LaunchFiles.of(command, insideContainer));
        String script = new String(files.remove(ControlFolder.SCRIPT), java.nio.charset.StandardCharsets.UTF_8);
        boolean started = false;
        try {
            String node = FilePathUtils.getNodeName(launchFolder).isEmpty() ? "the built-in node" : FilePathUtils.getNodeName(launchFolder);
            TimeLimits.limit(AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.AgentCliLauncher_Writing(node),
                    () -> launchFolder.act(new WriteLaunchFilesCallable(files)));
            // BourneShellScript escapes every $ of the environment against the launcher's variable expansion
            Controller controller = TimeLimits.limit(2 * AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.AgentCliLauncher_Starting(node),
                    () -> new BourneShellScript(script).launch(new EnvVars(env), launchFolder, launcher, listener));
            AgentSession.Location where = TimeLimits.limit(AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.AgentCliLauncher_Starting(node),
                    () -> new AgentSession.Location(FilePathUtils.getNodeName(launchFolder), launchFolder.getRemote(),
                            DurableTaskFiles.controlFolder(controller, launchFolder).getRemote(), command.runId(), insideContainer,
                            controller, DurableTaskFiles.log(controller, launchFolder).getRemote(),
                            DurableTaskFiles.result(controller, launchFolder).getRemote()));
            started = true;
            return new AgentSession(where, owner, true);
        } finally {
            if (!started) {
                // the launch files hold the secrets; a script that did start stops once its folders are gone. Even
                // when the launch was interrupted (an abort, a call that took too long): the deletion must not be.
                boolean interrupted = Thread.interrupted();
                try {
                    AgentSession.deleteFolders(launchFolder);
                } catch (FoldersNotDeletedException e) {
                    listener.getLogger().println(Messages.AgentCliLauncher_CannotDeleteHome(launchFolder.getRemote(), e.getMessage()));
                } catch (IOException | InterruptedException e) {
                    // the agent did not answer (its channel broke, maybe as it answered the launch: a CLI may run there)
                    listener.getLogger().println(Messages.AgentCliLauncher_DeleteLater(launchFolder.getRemote(), e.getMessage()));
                    FolderDeletions.later(FilePathUtils.getNodeName(launchFolder), launchFolder.getRemote());
                } finally {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
    }
}
