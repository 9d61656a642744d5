package io.jenkins.plugins.copilotautopilot;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import jenkins.MasterToSlaveFileCallable;

/**
 * On the agent: creates a session's control folder, readable by the agent's user only, and writes the launch
 * files (the task, the arguments, the variables) in one round trip. The files are data: nothing in them is
 * ever run by a shell.
 */
final class WriteControlFolderCallable extends MasterToSlaveFileCallable<Void> {
    private static final long serialVersionUID = 1L;

    private final LinkedHashMap<String, byte[]> files;

    WriteControlFolderCallable(Map<String, byte[]> files) {
        this.files = new LinkedHashMap<>(files);
    }

    @Override
    public Void invoke(File folder, VirtualChannel channel) throws IOException {
        Path root = folder.toPath();
        Files.createDirectories(root);
        makePrivate(root);
        Path environment = root.resolve(ControlFolder.ENVIRONMENT);
        Files.createDirectories(environment);
        makePrivate(environment);
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path target = root.resolve(file.getKey()).normalize();
            if (!target.startsWith(root)) {
                throw new IOException("refusing to write outside the control folder: " + file.getKey());
            }
            Files.write(target, file.getValue());
        }
        return null;
    }

    private static void makePrivate(Path dir) throws IOException {
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system
        }
    }
}
