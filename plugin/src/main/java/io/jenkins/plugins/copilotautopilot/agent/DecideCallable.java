package io.jenkins.plugins.copilotautopilot.agent;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.launch.LaunchFiles;
import java.io.File;
import java.io.IOException;
import jenkins.MasterToSlaveFileCallable;

/** On the agent: hands the approval hook waiting in the control folder its answer ({@link LaunchFiles#writeDecision}). Written once. */
final class DecideCallable extends MasterToSlaveFileCallable<Void> {
    private static final long serialVersionUID = 1L;

    private final String id;
    private final String hookOutput;

    DecideCallable(String id, String hookOutput) {
        this.id = id;
        this.hookOutput = hookOutput;
    }

    @Override
    public Void invoke(File folder, VirtualChannel channel) throws IOException {
        if (folder.isDirectory()) {
            LaunchFiles.writeDecision(folder.toPath(), id, hookOutput);
        }
        return null;
    }
}
