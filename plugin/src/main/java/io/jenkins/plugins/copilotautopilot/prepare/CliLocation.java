package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentCliLauncher;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.agent.LocateCliCallable;
import io.jenkins.plugins.copilotautopilot.agent.TimeLimits;
import io.jenkins.plugins.copilotautopilot.tools.CopilotCliInstallation;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Computer;
import hudson.model.Node;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import io.jenkins.plugins.copilotautopilot.core.command.WorkspacePaths;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.io.IOException;

/**
 * Where on the agent a session's CLI is and where it works: {@code copilotPath}, else the named (or default) tool
 * installation (installed on the agent now if it has an installer), else {@code COPILOT_CLI} in the build's
 * environment, else the PATH; and the working directory, made if need be. Every call to the agent is limited in time.
 */
final class CliLocation {
    /** How long installing the CLI on an agent may take (a download). */
    static final long INSTALL_TIMEOUT_MINUTES = Long.getLong(CliLocation.class.getName() + ".installTimeoutMinutes", 15);

    private CliLocation() {
    }

    /** The CLI to start: found on the agent, or (inside a container, whose files the agent cannot see) left to the launch script. */
    static CliExecutable executable(SessionPlan plan, FilePath workspace, EnvVars env, Launcher launcher, TaskListener listener)
            throws IOException, InterruptedException {
        String location = configured(plan, workspace, env, listener);
        if (AgentCliLauncher.insideContainer(launcher)) {
            return new CliExecutable(location == null ? "" : location, null);
        }
        return TimeLimits.limit(AgentSession.REMOTE_TIMEOUT_SECONDS,
                Messages.CliLocation_LookingForCli(SessionInputs.displayNode(workspace)), () -> locate(location, env, launcher));
    }

    /** The agent's working directory, created if it does not exist yet (as {@code sh} creates the workspace). */
    static FilePath workingDirectory(SessionPlan plan, FilePath workspace) throws IOException, InterruptedException {
        return TimeLimits.limit(AgentSession.REMOTE_TIMEOUT_SECONDS,
                Messages.CliLocation_PreparingWorkDir(SessionInputs.displayNode(workspace)), () -> makeWorkingDirectory(plan, workspace));
    }

    private static FilePath makeWorkingDirectory(SessionPlan plan, FilePath workspace) throws IOException, InterruptedException {
        String relative;
        try {
            relative = WorkspacePaths.relative(plan.get(SessionSettings.WORKING_DIRECTORY));
        } catch (IllegalArgumentException e) {
            throw new AbortException(e.getMessage());
        }
        FilePath dir = relative.isEmpty() ? workspace : workspace.child(relative);
        if (!dir.isDirectory()) {
            if (dir.exists()) {
                throw new AbortException(Messages.CliLocation_NotADirectory(dir.getRemote()));
            }
            dir.mkdirs();
        }
        return dir;
    }

    /** The CLI on the agent, resolved there (paths and files are the agent's). */
    private static CliExecutable locate(String configured, EnvVars env, Launcher launcher) throws IOException, InterruptedException {
        VirtualChannel channel = launcher.getChannel();
        if (channel == null) {
            throw new AbortException(Messages.CliLocation_Offline());
        }
        try {
            return LocateCliCallable.executable(channel.call(new LocateCliCallable(configured, env.get("PATH"))));
        } catch (CliNotFoundException e) {
            throw new AbortException(e.getMessage());
        }
    }

    /** What to hand the CLI locator (null: search the PATH). */
    private static String configured(SessionPlan plan, FilePath workspace, EnvVars env, TaskListener listener)
            throws IOException, InterruptedException {
        String path = plan.get(SessionSettings.COPILOT_PATH);
        if (path != null) {
            return path;
        }
        String name = plan.get(SessionSettings.INSTALLATION);
        if (name != null) {
            CopilotCliInstallation installation = CopilotCliInstallation.named(name);
            if (installation == null) {
                throw new AbortException(Messages.CliLocation_NoSuchInstallation(name));
            }
            Computer computer = workspace.toComputer();
            Node node = computer == null ? null : computer.getNode();
            if (node == null) {
                throw new AbortException(Messages.CliLocation_NoNode(workspace.getRemote()));
            }
            return TimeLimits.limit(INSTALL_TIMEOUT_MINUTES * 60, Messages.CliLocation_Installing(installation.getName(),
                    node.getDisplayName()), () -> installation.forNode(node, listener).forEnvironment(env).getHome());
        }
        return env.get(CopilotCliInstallation.CLI_VARIABLE);
    }
}
