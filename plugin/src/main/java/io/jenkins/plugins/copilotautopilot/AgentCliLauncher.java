package io.jenkins.plugins.copilotautopilot;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.launch.LaunchFiles;
import io.jenkins.plugins.copilotautopilot.core.launch.LaunchScript;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jenkinsci.plugins.durabletask.BourneShellScript;
import org.jenkinsci.plugins.durabletask.Controller;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * Starts a session on the build's agent the way {@code sh} runs a script: durable-task's
 * {@link BourneShellScript} runs the generated launch script detached (nohup, outside the agent's process
 * tree), through the build's launcher — so inside {@code container} and {@code docker.image().inside} too.
 * The launch script holds paths only; the task, the options and the secrets reach the agent as files written
 * over the channel, never on a command line.
 */
final class AgentCliLauncher implements CliLauncher {
    private final FilePath workspace;
    private final Launcher launcher;
    private final EnvVars env;
    private final TaskListener listener;
    private final AgentSession.Access access;

    AgentCliLauncher(FilePath workspace, Launcher launcher, EnvVars env, TaskListener listener, AgentSession.Access access) {
        this.workspace = workspace;
        this.launcher = launcher;
        this.env = env;
        this.listener = listener;
        this.access = access;
    }

    /** Whether the build's launcher runs commands somewhere else than the agent itself (a container). */
    static boolean insideContainer(Launcher launcher) {
        return launcher instanceof Launcher.DecoratedLauncher;
    }

    @Override
    public Map<String, String> inheritedEnvironment() {
        return env;
    }

    @Override
    public CliSession launch(CliCommand command) throws IOException, InterruptedException {
        if (!launcher.isUnix()) {
            throw new AbortException(Messages.AgentCliLauncher_NotUnix());
        }
        FilePath folder = new FilePath(workspace.getChannel(), command.controlFolder());
        Map<String, byte[]> files = new LinkedHashMap<>(LaunchFiles.of(command));
        files.remove(ControlFolder.SCRIPT); // durable-task writes the script itself
        folder.act(new WriteControlFolderCallable(files));
        // BourneShellScript escapes every $ of the environment against the launcher's variable expansion
        Controller controller = new BourneShellScript(LaunchScript.render(folder.getRemote()))
                .launch(new EnvVars(env), workspace, launcher, listener);
        AgentSession.Location where = new AgentSession.Location(FilePathUtils.getNodeName(workspace), workspace.getRemote(),
                folder.getRemote(), command.runId(), insideContainer(launcher), controller);
        return new AgentSession(where, access);
    }
}
