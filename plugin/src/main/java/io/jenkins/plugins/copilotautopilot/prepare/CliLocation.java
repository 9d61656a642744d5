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

    /** Where the session's CLI is and where it works, on the agent. */
    record Located(FilePath workDir, CliExecutable cli) {
    }

    /**
     * The working directory, made if need be, and the CLI to start: found on the agent in the same call, or (inside a
     * container, whose files the agent cannot see) left to the launch script.
     */
    static Located locate(SessionPlan plan, FilePath workspace, EnvVars env, Launcher launcher, TaskListener listener)
            throws IOException, InterruptedException {
        FilePath dir = workingDirectoryOf(plan, workspace);
        if (AgentCliLauncher.insideContainer(launcher)) {
            TimeLimits.limit(AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.CliLocation_PreparingWorkDir(SessionInputs.displayNode(workspace)),
                    () -> makeWorkingDirectory(dir));
            String location = configured(plan, workspace, env, listener);
            return new Located(dir, new CliExecutable(location == null ? "" : location, null));
        }
        String location = configured(plan, workspace, env, listener);
        CliExecutable cli = TimeLimits.limit(AgentSession.REMOTE_TIMEOUT_SECONDS,
                Messages.CliLocation_LookingForCli(SessionInputs.displayNode(workspace)), () -> locate(location, env, launcher, dir));
        return new Located(dir, cli);
    }

    private static FilePath workingDirectoryOf(SessionPlan plan, FilePath workspace) throws AbortException {
        String relative;
        try {
            relative = WorkspacePaths.relative(plan.get(SessionSettings.WORKING_DIRECTORY));
        } catch (IllegalArgumentException e) {
            throw new AbortException(e.getMessage());
        }
        return relative.isEmpty() ? workspace : workspace.child(relative);
    }

    /** The agent's working directory, created if it does not exist yet (as {@code sh} creates the workspace). */
    private static FilePath makeWorkingDirectory(FilePath dir) throws IOException, InterruptedException {
        if (!dir.isDirectory()) {
            if (dir.exists()) {
                throw new AbortException(Messages.CliLocation_NotADirectory(dir.getRemote()));
            }
            dir.mkdirs();
        }
        return dir;
    }

    /** The CLI on the agent, resolved there (paths and files are the agent's), and the working directory made. */
    private static CliExecutable locate(String configured, EnvVars env, Launcher launcher, FilePath workDir)
            throws IOException, InterruptedException {
        VirtualChannel channel = launcher.getChannel();
        if (channel == null) {
            throw new AbortException(Messages.CliLocation_Offline());
        }
        String[] answer = channel.call(new LocateCliCallable(configured, env.get("PATH"), workDir.getRemote()));
        String problem = LocateCliCallable.workDirProblem(answer);
        if (LocateCliCallable.NOT_A_DIRECTORY.equals(problem)) {
            throw new AbortException(Messages.CliLocation_NotADirectory(workDir.getRemote()));
        } else if (problem != null) {
            throw new IOException(problem);
        }
        try {
            return LocateCliCallable.executable(answer);
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
