package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.outcome.ServiceFailures;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.session.SessionError;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * Rides out a refusal of GitHub's service that passes (a rate limit, a server error): when a run of the CLI ended
 * with one after the CLI's own retries, the session waits as long as the service asked the CLI to wait between them
 * (the gap of its last two retries, bounded), then goes on as the same session ({@code --resume}, through the launch
 * script's wait), at most {@code serviceRetries} times and never past the wall-clock limit.
 *
 * <p>Decided as the run's end is read, from the stream alone, so that a follower reading the session again after a
 * restart decides the same; the wait ends at a time the stream gives (the run's end plus the wait).
 */
final class ServiceRetries implements SessionListener {
    /** The least and the most the session waits before it goes on. */
    static final Duration LEAST_WAIT = Duration.ofSeconds(1);
    static final Duration MOST_WAIT = Duration.ofMinutes(5);
    /** When the CLI did not retry (nothing says how long the service wants): a minute. */
    static final Duration UNKNOWN_WAIT = Duration.ofMinutes(1);

    /** Going on after the run of the CLI that ended at {@code step}, at {@code at}, telling the agent {@code prompt}. */
    record Retry(int step, Instant at, String prompt) {
    }

    private final int max;
    private final Duration wallClock;
    private final Instant startedAt;
    private final Consumer<String> note;
    private SessionTracker tracker;
    private SessionError lastError;
    private Instant previousRetry;
    private Instant lastRetry;
    private int used;
    private Retry decided;

    ServiceRetries(int max, Duration wallClock, Instant startedAt, Consumer<String> note) {
        this.max = max;
        this.wallClock = wallClock;
        this.startedAt = startedAt;
        this.note = note;
    }

    ServiceRetries follow(SessionTracker sessionTracker) {
        this.tracker = sessionTracker;
        sessionTracker.addListener(this);
        return this;
    }

    @Override
    public synchronized void onSessionError(SessionError error) {
        lastError = error;
    }

    @Override
    public synchronized void onTurnRetry(String reason, Instant at) {
        previousRetry = lastRetry;
        lastRetry = at;
    }

    @Override
    public void onAwaiting(SessionTracker.Awaiting awaiting, Instant at) {
        String line;
        synchronized (this) {
            if (awaiting.afterCheck()) {
                return;
            }
            line = decide(awaiting, at == null ? Instant.now() : at);
            lastError = null;
            previousRetry = null;
            lastRetry = null;
        }
        if (line != null) {
            note.accept(line);
        }
    }

    /** The decision for the launch script's wait {@code step}, or null when it is not to go on after a refusal. */
    synchronized Retry retryAt(int step) {
        return decided != null && decided.step() == step ? decided : null;
    }

    /** How long the service asked the CLI to wait, as the gap of its last two retries shows it. */
    Duration serviceWait() {
        if (previousRetry == null || lastRetry == null || !lastRetry.isAfter(previousRetry)) {
            return UNKNOWN_WAIT;
        }
        Duration gap = Duration.between(previousRetry, lastRetry);
        return gap.compareTo(LEAST_WAIT) < 0 ? LEAST_WAIT : gap.compareTo(MOST_WAIT) > 0 ? MOST_WAIT : gap;
    }

    private String decide(SessionTracker.Awaiting awaiting, Instant at) {
        if (awaiting.exitCode() == 0 || lastError == null || max <= 0) {
            return null;
        }
        ServiceFailure failure = ServiceFailures.of(lastError, null);
        if (!failure.retryable()) {
            return null;
        }
        String what = what(failure);
        if (used >= max) {
            return what + "; not continuing: the session went on " + times(used) + " already (serviceRetries " + max + ").";
        }
        Duration wait = serviceWait();
        if (wallClock != null && at.plus(wait).isAfter(startedAt.plus(wallClock))) {
            return what + "; not continuing: waiting " + Durations.describe(wait) + " would pass the wall-clock limit ("
                    + Durations.describe(wallClock) + ").";
        }
        used++;
        decided = new Retry(awaiting.step(), at.plus(wait), prompt(failure));
        tracker.rideOut();
        return what + "; waiting " + Durations.describe(wait) + ", then continuing the same session (service retry " + used + " of "
                + max + ").";
    }

    private static String what(ServiceFailure failure) {
        return failure.kind() == ServiceFailure.Kind.RATE_LIMITED
                ? "GitHub rate-limited the session" + status(failure) + " after the Copilot CLI's own retries"
                : "GitHub's service failed" + status(failure) + " after the Copilot CLI's own retries";
    }

    private static String status(ServiceFailure failure) {
        return failure.statusCode() == null ? "" : " (HTTP " + failure.statusCode() + ")";
    }

    private static String times(int n) {
        return n == 1 ? "once" : n + " times";
    }

    private static String prompt(ServiceFailure failure) {
        return (failure.kind() == ServiceFailure.Kind.RATE_LIMITED
                ? "GitHub's service rate-limited your last model call; the limit has passed."
                : "GitHub's service failed on your last model call; it answers again.")
                + " Continue the task where you left off, and call task_complete when it is done.\n";
    }
}
