package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.kept.KeptSessionState;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * A launcher on this machine whose sessions keep their state for a later run ({@code --session NAME}): before the
 * control folder is deleted, the launch script's packed state ({@link ControlFolder#KEPT_SESSION}) is made fit for
 * another run ({@link KeptSessionState#sanitize}: no earlier working directory, secrets masked) and moved to
 * {@code target}, readable by its owner only, replacing what was kept before. A session that packed nothing leaves
 * the earlier state alone.
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
        SecretMasker masker = SecretMasker.of(command.secretValues(next.inheritedEnvironment()));
        return new ForwardingCliSession(session) {
            @Override
            public void cleanup() throws IOException, InterruptedException {
                try {
                    if (Files.isRegularFile(packed)) {
                        keep(KeptSessionState.sanitize(Files.readAllBytes(packed), masker), target);
                    }
                } catch (IOException e) {
                    throw new SessionNotKeptException(target, e);
                } finally {
                    super.cleanup();
                }
            }
        };
    }

    /** The session's state could not be kept: the message says where and why. */
    public static final class SessionNotKeptException extends IOException {
        private static final long serialVersionUID = 1L;

        SessionNotKeptException(Path target, IOException cause) {
            super("the session could not be kept in " + target + ": " + (cause instanceof java.nio.file.FileSystemException fs
                    && fs.getReason() != null ? fs.getReason() + " (" + fs.getFile() + ")" : cause.getMessage()), cause);
        }
    }

    /** Writes {@code state} as {@code target}, in a folder and a file readable by their owner only. */
    static void keep(byte[] state, Path target) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        ownerOnlyFolder(dir);
        Path part = target.resolveSibling(target.getFileName() + ".part");
        Files.deleteIfExists(part);
        try {
            Files.createFile(part, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(part);
        }
        Files.write(part, state, StandardOpenOption.TRUNCATE_EXISTING);
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Creates the folder (and its parents) where it is missing, the folder itself readable by its owner only; a folder
     * that is there is left as it is (its files are the owner's alone all the same).
     */
    public static void ownerOnlyFolder(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (UnsupportedOperationException e) {
            Files.createDirectory(dir);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
        }
    }
}
