package io.jenkins.plugins.copilotautopilot;

import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.EnvVars;
import hudson.Extension;
import hudson.Util;
import hudson.model.EnvironmentSpecific;
import hudson.model.Node;
import hudson.model.TaskListener;
import hudson.slaves.NodeSpecific;
import hudson.tools.ToolDescriptor;
import hudson.tools.ToolInstallation;
import hudson.tools.ToolInstaller;
import hudson.tools.ToolProperty;
import java.io.IOException;
import java.util.List;
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

    /** Set by {@link #buildEnvVars}: the step and the standalone runner read the CLI location from it. */
    public static final String CLI_VARIABLE = "COPILOT_CLI";

    @DataBoundConstructor
    public CopilotCliInstallation(String name, String home, List<? extends ToolProperty<?>> properties) {
        super(Util.fixEmptyAndTrim(name), Util.fixEmptyAndTrim(home), properties);
    }

    @Override
    public CopilotCliInstallation forNode(@NonNull Node node, TaskListener log) throws IOException, InterruptedException {
        return new CopilotCliInstallation(getName(), translateFor(node, log), getProperties().toList());
    }

    @Override
    public CopilotCliInstallation forEnvironment(EnvVars environment) {
        return new CopilotCliInstallation(getName(), environment.expand(getHome()), getProperties().toList());
    }

    @Override
    public void buildEnvVars(EnvVars env) {
        String home = getHome();
        if (home != null) {
            env.put(CLI_VARIABLE, home);
            env.put("PATH+COPILOT", home);
        }
    }

    /** The installation with this name, or null. */
    @CheckForNull
    static CopilotCliInstallation named(String name) {
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
