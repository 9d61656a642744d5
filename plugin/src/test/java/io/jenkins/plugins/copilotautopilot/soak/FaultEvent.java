package io.jenkins.plugins.copilotautopilot.soak;

import java.time.Instant;

/**
 * One injected fault: what, on whom ({@code target}: an agent's name, a build, "controller" or "service"), from when to
 * when (milliseconds of the epoch; the end of a fault with a duration, such as a full disk or a restart, else its
 * start), and what happened ({@code detail}).
 */
record FaultEvent(FaultKind kind, String target, long atMillis, long endMillis, String detail) {
    /** The end of a fault that still lasts. */
    static final long UNDER_WAY = Long.MAX_VALUE / 2;

    /** Whether a build that ran from {@code start} to {@code end} (both in epoch milliseconds) met this fault. */
    boolean during(long start, long end) {
        return atMillis <= end && endMillis + 2_000 >= start;
    }

    /** Whether the fault touches a build with these facts (its agents, its reference). */
    boolean touches(ControllerSide.BuildRef ref, java.util.List<String> agents) {
        return switch (kind.target) {
            case AGENT -> agents.contains(target);
            case BUILD -> target.equals(ref.toString());
            case CONTROLLER, SERVICE -> true;
        };
    }

    @Override
    public String toString() {
        return Instant.ofEpochMilli(atMillis) + " " + kind + " " + target + " (" + (endMillis == UNDER_WAY ? "under way"
                : (endMillis - atMillis) / 1000 + " s") + "): " + detail;
    }
}
