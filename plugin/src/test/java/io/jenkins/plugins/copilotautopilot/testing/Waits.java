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
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(condition.getAsBoolean(), "not within " + timeout);
    }

    /** As {@link #waitFor(BooleanSupplier, Duration)}, saying what the build's console holds when it fails. */
    public static void waitFor(BooleanSupplier condition, Duration timeout, Run<?, ?> b) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(condition.getAsBoolean(), () -> "not within " + timeout + "; the console:\n" + String.join("\n", log(b)));
    }

    private static List<String> log(Run<?, ?> b) {
        try {
            return b.getLog(Integer.MAX_VALUE);
        } catch (IOException e) {
            return List.of(e.toString());
        }
    }
}
