package io.jenkins.plugins.copilotautopilot;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.FilePath;
import hudson.Util;
import hudson.model.Node;
import hudson.model.TaskListener;
import hudson.tools.ToolInstallation;
import hudson.tools.ToolInstaller;
import hudson.tools.ToolInstallerDescriptor;
import hudson.util.FormValidation;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.install.CliRelease;
import java.io.IOException;
import java.util.List;
import jenkins.model.Jenkins;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.verb.POST;

/**
 * Downloads the Copilot CLI onto an agent the first time a build needs it: the release archive for the agent's
 * OS and CPU, checked against an optional SHA-256, unpacked into the tool folder and marked so that it is not
 * downloaded again. The URL template serves mirrors and air-gapped sites. The work is done on the agent by the
 * engine's {@code CliInstaller}.
 */
public final class CopilotCliInstaller extends ToolInstaller {
    private String version = CliLocator.PINNED_VERSION;
    private String urlTemplate;
    private String sha256;

    @DataBoundConstructor
    public CopilotCliInstaller(String label) {
        super(label);
    }

    public String getVersion() {
        return version;
    }

    @DataBoundSetter
    public void setVersion(String version) {
        this.version = Util.fixEmptyAndTrim(version) == null ? CliLocator.PINNED_VERSION : version.strip();
    }

    /** Null for the GitHub release download. */
    public String getUrlTemplate() {
        return urlTemplate;
    }

    @DataBoundSetter
    public void setUrlTemplate(String urlTemplate) {
        this.urlTemplate = Util.fixEmptyAndTrim(urlTemplate);
    }

    public String getSha256() {
        return sha256;
    }

    @DataBoundSetter
    public void setSha256(String sha256) {
        this.sha256 = Util.fixEmptyAndTrim(sha256);
    }

    CliRelease release() {
        return new CliRelease(version, urlTemplate, sha256);
    }

    @Override
    public FilePath performInstallation(ToolInstallation tool, Node node, TaskListener log)
            throws IOException, InterruptedException {
        FilePath home = preferredLocation(tool, node);
        String binary = home.act(new InstallCliCallable(release(), log));
        log.getLogger().println(Messages.CopilotCliInstaller_Ready(tool.getName(), binary, node.getDisplayName()));
        return home;
    }

    @Extension
    @Symbol("copilotCliRelease")
    public static final class DescriptorImpl extends ToolInstallerDescriptor<CopilotCliInstaller> {
        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.CopilotCliInstaller_DisplayName();
        }

        @Override
        public boolean isApplicable(Class<? extends ToolInstallation> toolType) {
            return toolType == CopilotCliInstallation.class;
        }

        public String getDefaultVersion() {
            return CliLocator.PINNED_VERSION;
        }

        public String getDefaultUrlTemplate() {
            return CliRelease.DEFAULT_URL_TEMPLATE;
        }

        @POST
        public FormValidation doCheckVersion(@QueryParameter String value) {
            return check(value, null, null);
        }

        @POST
        public FormValidation doCheckUrlTemplate(@QueryParameter String value) {
            return check(CliLocator.PINNED_VERSION, value, null);
        }

        @POST
        public FormValidation doCheckSha256(@QueryParameter String value) {
            return check(CliLocator.PINNED_VERSION, null, value);
        }

        private static FormValidation check(String version, String urlTemplate, String sha256) {
            Jenkins.get().checkPermission(Jenkins.ADMINISTER);
            List<String> problems = new CliRelease(version, urlTemplate, sha256).validate();
            return problems.isEmpty() ? FormValidation.ok() : FormValidation.error(String.join(" ", problems));
        }
    }
}
