package io.jenkins.plugins.copilotautopilot.tools;

import io.jenkins.plugins.copilotautopilot.Messages;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.Extension;
import hudson.FilePath;
import hudson.Util;
import hudson.model.Node;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import hudson.tools.ToolInstallation;
import hudson.tools.ToolInstaller;
import hudson.tools.ToolInstallerDescriptor;
import hudson.util.FormValidation;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.install.CliRelease;
import java.io.IOException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
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
    private static final Logger LOGGER = Logger.getLogger(CopilotCliInstaller.class.getName());

    /**
     * The version as configured; null (not configured) installs the version this plugin pins. Kept apart from
     * the pinned default so that Configuration as Code exports the version whenever one was set: a checksum
     * belongs to one version, and an export without it would switch to another version after a plugin upgrade.
     */
    private String version;
    private String urlTemplate;
    private String sha256;

    @DataBoundConstructor
    public CopilotCliInstaller(String label) {
        super(label);
    }

    /** The configured version, or null for the version this plugin pins ({@link #getEffectiveVersion()}). */
    public String getVersion() {
        return version;
    }

    @DataBoundSetter
    public void setVersion(String version) {
        this.version = Util.fixEmptyAndTrim(version);
    }

    /** The version that gets installed. */
    public String getEffectiveVersion() {
        return version == null ? CliLocator.PINNED_VERSION : version;
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
        return new CliRelease(getEffectiveVersion(), urlTemplate, sha256);
    }

    /**
     * Installs on the node unless that version is there already. A failed install (checksum mismatch, HTTP 404,
     * unreachable server, unsupported platform...) throws an {@link AbortException} whose one line says what to
     * change, so the build log shows that line and no stack trace; the trace goes to the Jenkins log at FINE.
     */
    @Override
    public FilePath performInstallation(ToolInstallation tool, Node node, TaskListener log)
            throws IOException, InterruptedException {
        FilePath home = preferredLocation(tool, node);
        String binary;
        try {
            binary = home.act(new InstallCliCallable(release(), log));
        } catch (AbortException e) {
            LOGGER.log(Level.FINE, "Installing Copilot CLI " + tool.getName() + " on " + node.getDisplayName() + " failed", e);
            throw new AbortException(e.getMessage()); // without the agent's stack, which the build log would print
        } finally {
            // the agent's lines reach the build log asynchronously: let them land before the step's next lines
            VirtualChannel channel = home.getChannel();
            if (channel != null) {
                channel.syncLocalIO();
            }
        }
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
            return check(Util.fixEmptyAndTrim(value) == null ? CliLocator.PINNED_VERSION : value, null, null);
        }

        @POST
        public FormValidation doCheckUrlTemplate(@QueryParameter String value) {
            return check(CliLocator.PINNED_VERSION, value, null);
        }

        @POST
        public FormValidation doCheckSha256(@QueryParameter String value, @QueryParameter String version) {
            FormValidation problems = check(CliLocator.PINNED_VERSION, null, value);
            if (problems.kind == FormValidation.Kind.OK && Util.fixEmptyAndTrim(value) != null && Util.fixEmptyAndTrim(version) == null) {
                return FormValidation.warning(Messages.CopilotCliInstaller_ChecksumWithoutVersion());
            }
            return problems;
        }

        private static FormValidation check(String version, String urlTemplate, String sha256) {
            Jenkins.get().checkPermission(Jenkins.ADMINISTER);
            List<String> problems = new CliRelease(version, urlTemplate, sha256).validate();
            return problems.isEmpty() ? FormValidation.ok() : FormValidation.error(String.join(" ", problems));
        }
    }
}
