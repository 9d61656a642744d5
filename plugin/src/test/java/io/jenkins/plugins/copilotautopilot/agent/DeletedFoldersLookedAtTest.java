package io.jenkins.plugins.copilotautopilot.agent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's folders, deleted, come back when something still writes there as the session ends (the CLI under its
 * home as it is stopped, durable-task's watch its place in the log, its wrapper the exit status): the agent looks
 * again and deletes them again.
 */
class DeletedFoldersLookedAtTest {
    @TempDir
    Path dir;

    private long[] looks;

    @BeforeEach
    void quickLooks() {
        looks = DeletedFoldersLookedAt.LOOK_AFTER_MILLIS;
        DeletedFoldersLookedAt.LOOK_AFTER_MILLIS = new long[] {300, 5_000};
    }

    @AfterEach
    void usualLooks() {
        DeletedFoldersLookedAt.LOOK_AFTER_MILLIS = looks;
    }

    @Test
    void aControlFolderMadeAgainAfterTheDeletionIsDeletedAgain() throws Exception {
        Path launch = Files.createDirectories(dir.resolve("ws@tmp/copilot-autopilot-1"));
        Files.writeString(launch.resolve("arguments"), "copilot\n");
        Path controlParent = Files.createDirectories(dir.resolve("ws@tmp/copilot-autopilot-1@tmp"));
        Path control = Files.createDirectories(controlParent.resolve("durable-1/copilot-home/logs"));
        Files.writeString(control.resolve("process.log"), "started\n");

        assertNull(DeleteSessionFoldersCallable.delete(launch, controlParent), "why not deleted");
        assertFalse(Files.exists(controlParent));
        // what the CLI writes as it is stopped, and durable-task's wrapper as the script ends
        Files.createDirectories(control);
        Files.writeString(control.resolve("process.log"), "stopping\n");
        Files.writeString(controlParent.resolve("durable-1/jenkins-result.txt"), "143\n");

        waitFor(() -> !Files.exists(controlParent), Duration.ofSeconds(20));
        assertFalse(Files.exists(controlParent), "the control folder, made again, then deleted again");
        assertFalse(Files.exists(launch));
        assertTrue(Files.isDirectory(dir.resolve("ws@tmp")), "the folder the session's folders were in");
    }

    @Test
    void theSecondLookDeletesWhatCameBackAfterTheFirst() throws Exception {
        DeletedFoldersLookedAt.LOOK_AFTER_MILLIS = new long[] {300, 8_000};
        Path launch = Files.createDirectories(dir.resolve("ws@tmp/copilot-autopilot-2"));
        Path control = Files.createDirectories(dir.resolve("ws@tmp/copilot-autopilot-2@tmp/durable-2"));
        int before = DeletedFoldersLookedAt.LOOKS.get();
        assertNull(DeleteSessionFoldersCallable.delete(launch, control.getParent()));
        waitFor(() -> DeletedFoldersLookedAt.LOOKS.get() > before, Duration.ofSeconds(20));
        assertTrue(DeletedFoldersLookedAt.LOOKS.get() > before, "the first look, taken");
        // durable-task's watch, still going, writes its place in the log after the first look
        Files.createDirectories(control);
        Files.writeString(control.resolve("last-location.txt"), "42");

        waitFor(() -> !Files.exists(control.getParent()), Duration.ofSeconds(20));
        assertFalse(Files.exists(control.getParent()), "deleted again at the second look");
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }
}
