package io.jenkins.plugins.copilotautopilot.core.outcome;

/**
 * What a build step makes of an outcome: COMPLETED succeeds; INCOMPLETE does what the user chose;
 * FAILED, TIMED_OUT, STALLED and OVER_BUDGET fail; ABORTED aborts.
 */
public enum BuildVerdict {
    SUCCESS, UNSTABLE, FAILURE, ABORTED;

    public static BuildVerdict of(Outcome outcome, ResultWhenIncomplete whenIncomplete) {
        return switch (outcome) {
            case COMPLETED -> SUCCESS;
            case INCOMPLETE -> switch (whenIncomplete) {
                case SUCCESS -> SUCCESS;
                case UNSTABLE -> UNSTABLE;
                case FAILURE -> FAILURE;
            };
            case FAILED, TIMED_OUT, STALLED, OVER_BUDGET -> FAILURE;
            case ABORTED -> ABORTED;
        };
    }
}
