package io.jenkins.plugins.copilotautopilot.agent;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import jenkins.MasterToSlaveFileCallable;

/**
 * On the agent: asks the session's watchdog to stop the CLI ({@link ControlFolder#STOP}). It does so from where the
 * CLI runs, containers included, within a second: SIGTERM, a grace period, SIGKILL, and on Linux every process
 * carrying the run's marker. Answers whether the control folder was there.
 */
final class RequestStopCallable extends MasterToSlaveFileCallable<Boolean> {
    private static final long serialVersionUID = 1L;

    @Override
    public Boolean invoke(File folder, VirtualChannel channel) throws IOException {
        if (!folder.isDirectory()) {
            return false;
        }
        Files.write(new File(folder, ControlFolder.STOP).toPath(), new byte[0]);
        return true;
    }
}
