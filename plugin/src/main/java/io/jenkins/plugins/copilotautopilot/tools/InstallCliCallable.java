package io.jenkins.plugins.copilotautopilot.tools;

import hudson.AbortException;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.install.CliInstallException;
import io.jenkins.plugins.copilotautopilot.core.install.CliInstaller;
import io.jenkins.plugins.copilotautopilot.core.install.CliRelease;
import io.jenkins.plugins.copilotautopilot.core.command.Platform;
import java.io.File;
import java.io.IOException;
import jenkins.MasterToSlaveFileCallable;

/**
 * Installs the CLI into a folder on the agent, for the agent's own OS and CPU. Only JDK and core types cross
 * the channel: the release as three strings, the binary's path as the answer, and an {@link AbortException} with
 * the installer's one-line message (what to change) when the install fails.
 */
final class InstallCliCallable extends MasterToSlaveFileCallable<String> {
    private static final long serialVersionUID = 1L;

    private final String version;
    private final String urlTemplate;
    private final String sha256;
    private final TaskListener log;

    InstallCliCallable(CliRelease release, TaskListener log) {
        this.version = release.version();
        this.urlTemplate = release.urlTemplate();
        this.sha256 = release.sha256();
        this.log = log;
    }

    @Override
    public String invoke(File home, VirtualChannel channel) throws IOException, InterruptedException {
        Platform platform;
        try {
            platform = Platform.current();
        } catch (Platform.UnsupportedPlatformException e) {
            throw new AbortException(e.getMessage());
        }
        CliInstaller installer = new CliInstaller(line -> log.getLogger().println("[copilot] " + line));
        try {
            return installer.install(home.toPath(), platform, new CliRelease(version, urlTemplate, sha256)).path();
        } catch (CliInstallException e) {
            throw new AbortException(e.getMessage()); // an engine class would not pass the controller's class filter
        } finally {
            log.getLogger().flush(); // a Pipeline's listener on an agent buffers its lines for a while
        }
    }
}
