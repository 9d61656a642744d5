package io.jenkins.plugins.copilotautopilot.agent;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.launch.LaunchFiles;
import java.io.File;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import jenkins.MasterToSlaveFileCallable;

/**
 * On the agent: creates a session's launch folder, readable by the agent's user only, and writes the launch
 * files (the task, the arguments, the variables) in one round trip. The files are data: nothing in them is
 * ever run by a shell.
 */
final class WriteLaunchFilesCallable extends MasterToSlaveFileCallable<Void> {
    private static final long serialVersionUID = 1L;

    private final LinkedHashMap<String, byte[]> files;

    WriteLaunchFilesCallable(Map<String, byte[]> files) {
        this.files = new LinkedHashMap<>(files);
    }

    @Override
    public Void invoke(File folder, VirtualChannel channel) throws IOException {
        LaunchFiles.write(folder.toPath(), files);
        return null;
    }
}
