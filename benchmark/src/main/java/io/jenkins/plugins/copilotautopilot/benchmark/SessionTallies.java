package io.jenkins.plugins.copilotautopilot.benchmark;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a run of {@link ConcurrentSessions} counts while its sessions run, from any thread, and the window it measures
 * in: what falls in the window (a line's write, a session's end) is counted there.
 */
final class SessionTallies {
    final DelayHistogram delays = new DelayHistogram();
    final AtomicLong linesInWindow = new AtomicLong();
    final AtomicLong finishedInWindow = new AtomicLong();
    final AtomicLong finished = new AtomicLong();
    final AtomicLong polls = new AtomicLong();
    final AtomicLong startedSessions = new AtomicLong();
    /**
     * CPU time the controller's threads spent writing checkpoint files (the step's, not the engine's), estimated from
     * one checkpoint in {@value ConcurrentSessions#CHECKPOINT_SAMPLE} chosen at random: each measurement reads the
     * thread's CPU clock twice, a system call on this kind of machine, which would otherwise add itself to the
     * controller's CPU time.
     */
    final AtomicLong checkpointCpu = new AtomicLong();
    final AtomicLong handovers = new AtomicLong();
    /** Calls across the channel: one per hand-over, or one per batch of an agent's hand-overs. */
    final AtomicLong calls = new AtomicLong();
    final AtomicLong mismatches = new AtomicLong();
    final Map<String, String> firstMismatch = new ConcurrentHashMap<>();
    volatile long windowStart = Long.MAX_VALUE;
    volatile long windowEnd = Long.MAX_VALUE;

    /** Whether {@code nanoTime} (a {@link System#nanoTime()}) falls in the measuring window. */
    boolean inWindow(long nanoTime) {
        return nanoTime >= windowStart && nanoTime < windowEnd;
    }

    /** The first session that ended unlike its capture, or null. */
    String mismatch() {
        return firstMismatch.isEmpty() ? null : firstMismatch.values().iterator().next();
    }
}
