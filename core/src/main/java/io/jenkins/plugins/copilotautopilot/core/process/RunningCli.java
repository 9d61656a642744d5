package io.jenkins.plugins.copilotautopilot.core.process;

import java.time.Duration;

/** A started CLI process, as the engine needs it. */
public interface RunningCli {
    /**
     * Waits up to {@code timeout} for the process to exit.
     *
     * @return its exit code, or null if it is still running
     */
    Integer waitFor(Duration timeout) throws InterruptedException;

    /**
     * Stops the process and every process it started (also those that left its process tree), and
     * returns once they are gone or after a bounded wait. Safe to call more than once and after exit.
     */
    void killTree();
}
