package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.files.OwnerOnlyFiles;
import io.jenkins.plugins.copilotautopilot.core.kept.KeptSessionState;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A launcher on this machine whose sessions keep their state for a later run ({@code --session NAME}): before the
 * control folder is deleted, the launch script's packed state ({@link ControlFolder#KEPT_SESSION}) is made fit for
 * another run ({@link KeptSessionState#sanitize}: no earlier working directory, secrets masked) and moved to
 * {@code target}, readable by its owner only, replacing what was kept before. A session that packed nothing leaves
 * the earlier state alone.
 */
public final class KeepingLauncher extends ForwardingCliLauncher {
    private final Path target;

    public KeepingLauncher(CliLauncher next, Path target) {
        super(next);
        this.target = target;
    }

    @Override
    public CliSession launch(CliCommand command) throws IOException, InterruptedException {
        CliSession session = super.launch(command);
        Path packed = Path.of(command.launchFolder(), ControlFolder.KEPT_SESSION);
        SecretMasker masker = SecretMasker.of(command.secretValues(inheritedEnvironment()));
        return ForwardingCliSession.beforeCleanup(session, () -> {
            try {
                if (Files.isRegularFile(packed)) {
                    keep(KeptSessionState.sanitize(Files.readAllBytes(packed), masker), target);
                }
            } catch (IOException e) {
                throw new SessionNotKeptException(target, e);
            }
        });
    }

    /** The session's state could not be kept: the message says where and why. */
    public static final class SessionNotKeptException extends IOException {
        private static final long serialVersionUID = 1L;

        SessionNotKeptException(Path target, IOException cause) {
            super("the session could not be kept in " + target + ": " + (cause instanceof java.nio.file.FileSystemException fs
                    && fs.getReason() != null ? fs.getReason() + " (" + fs.getFile() + ")" : cause.getMessage()), cause);
        }
    }

    /**
     * Writes {@code state} as {@code target}, in a folder and a file readable by their owner only; the folder is the
     * user's choice ({@code --state-dir}), so one that is there keeps its permissions.
     */
    private static void keep(byte[] state, Path target) throws IOException {
        OwnerOnlyFiles.folder(target.toAbsolutePath().getParent());
        OwnerOnlyFiles.write(target, state);
    }
}
