package io.jenkins.plugins.copilotautopilot.core.outcome;

/**
 * What a build step makes of an outcome: COMPLETED succeeds; INCOMPLETE and BLOCKED do what the user chose (BLOCKED
 * like INCOMPLETE unless said otherwise); FAILED, TIMED_OUT, STALLED and OVER_BUDGET fail; ABORTED aborts.
 */
public enum BuildVerdict {
    SUCCESS, UNSTABLE, FAILURE, ABORTED;

    public static BuildVerdict of(Outcome outcome, ResultWhenIncomplete whenIncomplete) {
        return of(outcome, whenIncomplete, whenIncomplete);
    }

    public static BuildVerdict of(Outcome outcome, ResultWhenIncomplete whenIncomplete, ResultWhenIncomplete whenBlocked) {
        return switch (outcome) {
            case COMPLETED -> SUCCESS;
            case INCOMPLETE, NOT_VERIFIED, OUTPUT_INVALID -> of(whenIncomplete);
            case BLOCKED -> of(whenBlocked == null ? whenIncomplete : whenBlocked);
            case FAILED, TIMED_OUT, STALLED, OVER_BUDGET -> FAILURE;
            case ABORTED -> ABORTED;
        };
    }

    private static BuildVerdict of(ResultWhenIncomplete chosen) {
        return switch (chosen) {
            case SUCCESS -> SUCCESS;
            case UNSTABLE -> UNSTABLE;
            case FAILURE -> FAILURE;
        };
    }
}
