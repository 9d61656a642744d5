package io.jenkins.plugins.copilotautopilot.agent;

import hudson.remoting.VirtualChannel;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import jenkins.MasterToSlaveFileCallable;

/**
 * On the agent, before durable-task's watch of a session is started (again): the watch's place in the task's log,
 * durable-task's {@value #LAST_LOCATION} in the control folder, set to where the controller has the log up to.
 * durable-task rewrites that file in place as it watches, so an agent JVM that dies in the middle of a write (or
 * restarts itself when its connection is lost) can leave it empty, and every watch started after that gives up at once,
 * unable to read a number from it: the session would not be followed any more. {@link EventsHandler} reads the log from
 * the controller's positions, so the file only decides when the watch calls it; written here whole (a new file moved
 * over the old one), from the same position.
 */
final class WatchFromCallable extends MasterToSlaveFileCallable<Void> {
    private static final long serialVersionUID = 1L;
    /** durable-task's {@code FileMonitoringController.getLastLocationFile}, in its control folder. */
    static final String LAST_LOCATION = "last-location.txt";

    private final long position;

    WatchFromCallable(long position) {
        this.position = position;
    }

    @Override
    public Void invoke(File folder, VirtualChannel channel) throws IOException {
        if (!folder.isDirectory()) {
            return null; // gone: the check that follows says so
        }
        Path written = Files.createTempFile(folder.toPath(), LAST_LOCATION, ".tmp");
        try {
            Files.writeString(written, Long.toString(position), StandardCharsets.US_ASCII);
            Files.move(written, folder.toPath().resolve(LAST_LOCATION), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(written);
        }
        return null;
    }
}
