package io.jenkins.plugins.copilotautopilot.agent;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.jenkins.plugins.copilotautopilot.core.files.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * On the agent: a session's deleted folders looked at again a little later, and deleted again if they came back. What
 * writes there as the session ends makes the folders it writes in: the CLI under its home as it is stopped,
 * durable-task's watch its place in the log, its wrapper the script's exit status once the script ends. Each look
 * runs on the agent's own timer: no call to the controller, nothing held up.
 */
final class DeletedFoldersLookedAt {
    private static final Logger LOGGER = Logger.getLogger(DeletedFoldersLookedAt.class.getName());
    /**
     * When to look, after the deletion: past the watchdog's stop (a second to notice, a grace period, the kill) and
     * durable-task's heartbeat (every three seconds); then once more (mutable for tests).
     */
    @SuppressFBWarnings(value = "MS_SHOULD_BE_FINAL", justification = "tunable in tests")
    static long[] LOOK_AFTER_MILLIS = {10_000, 60_000};
    /** How many looks were taken in this JVM (for tests: what the folders hold between two looks). */
    static final java.util.concurrent.atomic.AtomicInteger LOOKS = new java.util.concurrent.atomic.AtomicInteger();

    private DeletedFoldersLookedAt() {
    }

    /** Looks at {@code folders}, deleted just now, at each of {@link #LOOK_AFTER_MILLIS}. */
    static void later(Path... folders) {
        for (long delay : LOOK_AFTER_MILLIS) {
            jenkins.util.Timer.get().schedule(() -> look(folders), delay, TimeUnit.MILLISECONDS);
        }
    }

    private static void look(Path... folders) {
        try {
            deleteAgain(folders);
        } finally {
            LOOKS.incrementAndGet();
        }
    }

    private static void deleteAgain(Path... folders) {
        for (Path folder : folders) {
            if (!Files.exists(folder)) {
                continue;
            }
            LOGGER.fine(() -> "a Copilot session's folder came back after its deletion, deleting it again: " + folder);
            try {
                FileTrees.delete(folder);
            } catch (IOException | RuntimeException e) {
                LOGGER.log(Level.FINE, "could not delete " + folder + " again", e);
            }
        }
    }
}
