package io.jenkins.plugins.copilotautopilot.benchmark;

import java.util.Arrays;
import java.util.List;

/** Medians and percentiles. */
final class Stats {
    private Stats() {
    }

    static double percentile(long[] values, int count, double p) {
        if (count == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
        int index = (int) Math.min(count - 1, Math.max(0, Math.ceil(p / 100.0 * count) - 1));
        return sorted[index];
    }

    /** The median (the nearest rank, as {@link #percentile}) of {@code values}. */
    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.max(0, Math.ceil(0.5 * sorted.length) - 1)];
    }

    static double median(List<Long> values) {
        long[] array = values.stream().mapToLong(Long::longValue).toArray();
        return percentile(array, array.length, 50);
    }
}
