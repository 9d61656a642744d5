package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * A launcher on this machine whose sessions keep their state for a later run ({@code --session NAME}): before the
 * control folder is deleted, the launch script's packed state ({@link ControlFolder#KEPT_SESSION}) is moved to
 * {@code target}, replacing what was kept before. A session that packed nothing leaves the earlier state alone.
 */
public final class KeepingLauncher implements CliLauncher {
    private final CliLauncher next;
    private final Path target;

    public KeepingLauncher(CliLauncher next, Path target) {
        this.next = next;
        this.target = target;
    }

    @Override
    public Map<String, String> inheritedEnvironment() {
        return next.inheritedEnvironment();
    }

    @Override
    public CliSession launch(CliCommand command) throws IOException, InterruptedException {
        CliSession session = next.launch(command);
        Path packed = Path.of(command.launchFolder(), ControlFolder.KEPT_SESSION);
        return new ForwardingCliSession(session) {
            @Override
            public void cleanup() throws IOException, InterruptedException {
                try {
                    if (Files.isRegularFile(packed)) {
                        Files.createDirectories(target.toAbsolutePath().getParent());
                        Path part = target.resolveSibling(target.getFileName() + ".part");
                        Files.copy(packed, part, StandardCopyOption.REPLACE_EXISTING);
                        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    }
                } finally {
                    super.cleanup();
                }
            }
        };
    }
}
