package io.jenkins.plugins.copilotautopilot.tools;

import io.jenkins.plugins.copilotautopilot.Messages;

import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.EnvVars;
import hudson.Extension;
import hudson.FilePath;
import hudson.Util;
import hudson.model.EnvironmentSpecific;
import hudson.model.Node;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import hudson.slaves.NodeSpecific;
import hudson.tools.ToolDescriptor;
import hudson.tools.ToolInstallation;
import hudson.tools.ToolInstaller;
import hudson.tools.ToolProperty;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.MasterToSlaveFileCallable;
import jenkins.model.Jenkins;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundConstructor;

/**
 * A Copilot CLI configured under <em>Manage Jenkins » Tools</em>: a folder on each agent holding the CLI (or an
 * npm install of it), usually filled by {@link CopilotCliInstaller}. Selected with the step's
 * {@code installation} parameter or the global default, or with {@code tool name: '…', type: 'copilotCli'}.
 */
public final class CopilotCliInstallation extends ToolInstallation
        implements NodeSpecific<CopilotCliInstallation>, EnvironmentSpecific<CopilotCliInstallation> {
    private static final long serialVersionUID = 1L;

    private static final Logger LOGGER = Logger.getLogger(CopilotCliInstallation.class.getName());

    /** Set by {@link #buildEnvVars}: the step and the standalone runner read the CLI location from it. */
    public static final String CLI_VARIABLE = "COPILOT_CLI";

    /**
     * On an installation for a node ({@link #forNode}): the folder on that node holding the {@code copilot} a user
     * would call, which {@link #buildEnvVars} puts on the {@code PATH}. Null on the configured installation (the
     * one that is saved), so it never appears in the configuration.
     */
    private final String commandFolder;

    @DataBoundConstructor
    public CopilotCliInstallation(String name, String home, List<? extends ToolProperty<?>> properties) {
        this(name, home, properties, null);
    }

    private CopilotCliInstallation(String name, String home, List<? extends ToolProperty<?>> properties, String commandFolder) {
        super(Util.fixEmptyAndTrim(name), Util.fixEmptyAndTrim(home), properties);
        this.commandFolder = commandFolder;
    }

    /** Installs the CLI on the node if needed, and finds there the folder with the {@code copilot} command. */
    @Override
    public CopilotCliInstallation forNode(@NonNull Node node, TaskListener log) throws IOException, InterruptedException {
        String home = translateFor(node, log);
        return new CopilotCliInstallation(getName(), home, getProperties().toList(), commandFolder(node, home));
    }

    @Override
    public CopilotCliInstallation forEnvironment(EnvVars environment) {
        return new CopilotCliInstallation(getName(), environment.expand(getHome()), getProperties().toList(),
                commandFolder == null ? null : environment.expand(commandFolder));
    }

    /**
     * {@code COPILOT_CLI} is the installation folder (the plugin resolves the native binary in it), and
     * {@code PATH+COPILOT} the folder holding the {@code copilot} command: {@code node_modules/.bin} of an
     * {@code npm install --prefix} folder, {@code bin/} of a global npm prefix, or the folder of an unpacked
     * release. Without a node (or when nothing is found there) it is the installation folder.
     */
    @Override
    public void buildEnvVars(EnvVars env) {
        String home = getHome();
        if (home != null) {
            env.put(CLI_VARIABLE, home);
            env.put("PATH+COPILOT", commandFolder != null ? commandFolder : home);
        }
    }

    private static String commandFolder(Node node, String home) throws InterruptedException {
        if (home == null) {
            return null;
        }
        FilePath path = node.createPath(home);
        if (path == null) {
            return null;
        }
        try {
            return path.act(new CommandFolderCallable());
        } catch (IOException e) {
            LOGGER.log(Level.FINE, "Cannot look for the copilot command in " + home + " on " + node.getDisplayName(), e);
            return null;
        }
    }

    /** On the node: the folder holding the {@code copilot} command a user would call, or null. */
    private static final class CommandFolderCallable extends MasterToSlaveFileCallable<String> {
        private static final long serialVersionUID = 1L;
        private static final String[] FOLDERS = {"node_modules/.bin", "bin", ".", "package"};
        private static final String[] NAMES = {"copilot", "copilot.cmd", "copilot.exe"};

        @Override
        public String invoke(File home, VirtualChannel channel) {
            if (home.isFile()) {
                return home.getAbsoluteFile().getParent();
            }
            for (String folder : FOLDERS) {
                File dir = ".".equals(folder) ? home : new File(home, folder);
                for (String name : NAMES) {
                    if (new File(dir, name).isFile()) {
                        return dir.getAbsolutePath();
                    }
                }
            }
            return null;
        }
    }

    /** The installation with this name, or null. */
    @CheckForNull
    public static CopilotCliInstallation named(String name) {
        DescriptorImpl descriptor = Jenkins.get().getDescriptorByType(DescriptorImpl.class);
        for (CopilotCliInstallation installation : descriptor.getInstallations()) {
            if (installation.getName().equals(name)) {
                return installation;
            }
        }
        return null;
    }

    @Extension
    @Symbol("copilotCli")
    public static final class DescriptorImpl extends ToolDescriptor<CopilotCliInstallation> {
        public DescriptorImpl() {
            load();
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.CopilotCliInstallation_DisplayName();
        }

        @Override
        public List<? extends ToolInstaller> getDefaultInstallers() {
            return List.of(new CopilotCliInstaller(null));
        }

        /** Both the Tools page and Configuration as Code set installations through here. */
        @Override
        public void setInstallations(CopilotCliInstallation... installations) {
            super.setInstallations(installations);
            save();
        }
    }
}
