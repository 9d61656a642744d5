package io.jenkins.plugins.copilotautopilot.testing;

import hudson.model.Run;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Waits for a condition, looking every 100 ms, and fails when it does not hold within the time given. */
public final class Waits {
    private Waits() {
    }

    public static void waitFor(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        assertTrue(held(condition, timeout), "not within " + timeout);
    }

    /** As {@link #waitFor(BooleanSupplier, Duration)}, saying what the build's console holds when it fails. */
    public static void waitFor(BooleanSupplier condition, Duration timeout, Run<?, ?> b) throws Exception {
        assertTrue(held(condition, timeout), () -> "not within " + timeout + "; the console:\n" + String.join("\n", log(b)));
    }

    /**
     * Whether the condition held at one of the looks within the time given. Not asked again once it held: a condition
     * that may stop holding (no process left with a session's marker, while a script that spawns some is ending) would
     * otherwise fail the wait with a false "not within".
     */
    private static boolean held(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(100);
        }
    }

    private static List<String> log(Run<?, ?> b) {
        try {
            return b.getLog(Integer.MAX_VALUE);
        } catch (IOException e) {
            return List.of(e.toString());
        }
    }
}
