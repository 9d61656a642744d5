package io.jenkins.plugins.copilotautopilot;

import io.jenkins.plugins.copilotautopilot.core.process.ProcessTreeKiller;
import java.time.Duration;
import jenkins.security.MasterToSlaveCallable;

/**
 * On the agent: stops every process that carries the run's marker variable, with SIGKILL for those that
 * ignore SIGTERM (Jenkins' own process killing only sends SIGTERM).
 */
final class KillMarkedProcessesCallable extends MasterToSlaveCallable<Void, RuntimeException> {
    private static final long serialVersionUID = 1L;

    private final String runId;

    KillMarkedProcessesCallable(String runId) {
        this.runId = runId;
    }

    @Override
    public Void call() {
        ProcessTreeKiller.kill(null, runId, ProcessTreeKiller.DEFAULT_GRACE);
        return null;
    }
}
