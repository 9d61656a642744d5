package io.jenkins.plugins.copilotautopilot.benchmark;

/** Delays in 0.1 ms steps up to 10 s (and the exact maximum), without allocating per value. */
final class DelayHistogram {
    private static final long STEP_NANOS = 100_000;
    private final long[] counts = new long[100_001];
    private long total;
    private long max;

    synchronized void record(long nanos) {
        int bucket = (int) Math.min(counts.length - 1, Math.max(0, nanos) / STEP_NANOS);
        counts[bucket]++;
        total++;
        max = Math.max(max, nanos);
    }

    synchronized long count() {
        return total;
    }

    synchronized long max() {
        return max;
    }

    /** The p-th percentile, as the upper end of its 0.1 ms step (or the maximum, if smaller); -1 when empty. */
    synchronized long percentile(double p) {
        if (total == 0) {
            return -1;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(max, (i + 1) * STEP_NANOS);
            }
        }
        return max;
    }
}
