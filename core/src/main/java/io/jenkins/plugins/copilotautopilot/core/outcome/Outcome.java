package io.jenkins.plugins.copilotautopilot.core.outcome;

/** How an autopilot task ended. Exactly one per run. */
public enum Outcome {
    /** The agent called {@code task_complete} with a summary and did not report failure. */
    COMPLETED(0),
    /** The session ended normally but without a completed task (e.g. the continuation cap was reached). */
    INCOMPLETE(2),
    /**
     * The agent ended the task saying it is blocked ({@code session.task_complete} with {@code outcome: blocked}): it
     * needs something it cannot get (access, a decision, a missing input), named in the blocker.
     */
    BLOCKED(4),
    /**
     * The agent completed, but the acceptance check ({@code verify}) still failed after the rounds it was given:
     * mapped like INCOMPLETE.
     */
    NOT_VERIFIED(5),
    /**
     * The agent completed, but its answer ({@code outputSchema}, {@code reviewFindings}) was missing or did not follow
     * the schema after the rounds it was given: mapped like INCOMPLETE.
     */
    OUTPUT_INVALID(6),
    /** A model error, a non-zero exit, a crash, a missing CLI, or output that ended without a result. */
    FAILED(1),
    /** The wall-clock limit was reached; the CLI was stopped. */
    TIMED_OUT(124),
    /** No event arrived for the inactivity limit; the CLI was stopped. */
    STALLED(124),
    /** The model calls used up the budget (premium requests or tokens); the CLI was stopped. */
    OVER_BUDGET(3),
    /** Interrupted by the user (Ctrl-C, a build abort); the CLI was stopped. */
    ABORTED(130);

    private final int exitCode;

    Outcome(int exitCode) {
        this.exitCode = exitCode;
    }

    /**
     * The outcome that says most about several sessions: FAILED over TIMED_OUT over OVER_BUDGET over STALLED over
     * ABORTED over BLOCKED over OUTPUT_INVALID over NOT_VERIFIED over INCOMPLETE over COMPLETED.
     */
    public static Outcome worst(java.util.Collection<Outcome> outcomes) {
        Outcome worst = null;
        for (Outcome o : outcomes) {
            if (worst == null || o.severity() > worst.severity()) {
                worst = o;
            }
        }
        return worst;
    }

    private int severity() {
        return switch (this) {
            case COMPLETED -> 0;
            case INCOMPLETE -> 1;
            case NOT_VERIFIED -> 2;
            case OUTPUT_INVALID -> 3;
            case BLOCKED -> 4;
            case ABORTED -> 5;
            case STALLED -> 6;
            case OVER_BUDGET -> 7;
            case TIMED_OUT -> 8;
            case FAILED -> 9;
        };
    }

    /** The standalone runner's exit code for this outcome. */
    public int exitCode() {
        return exitCode;
    }
}
