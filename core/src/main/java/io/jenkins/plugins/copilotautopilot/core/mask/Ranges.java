package io.jenkins.plugins.copilotautopilot.core.mask;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Character ranges to replace; overlapping and touching ranges merge into one. */
final class Ranges {
    private int[] starts = new int[4];
    private int[] ends = new int[4];
    private int size;

    void add(int start, int end) {
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
        }
        starts[size] = start;
        ends[size] = end;
        size++;
    }

    /** The ranges sorted by start, overlapping and touching ones merged. */
    List<int[]> merged() {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(starts[a], starts[b]));
        List<int[]> out = new ArrayList<>();
        int i = 0;
        while (i < size) {
            int start = starts[order[i]];
            int end = ends[order[i]];
            i++;
            while (i < size && starts[order[i]] <= end) {
                end = Math.max(end, ends[order[i]]);
                i++;
            }
            out.add(new int[] {start, end});
        }
        return out;
    }

    String replaceIn(String text, String replacement) {
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        for (int[] range : merged()) {
            out.append(text, copied, range[0]).append(replacement);
            copied = range[1];
        }
        out.append(text, copied, text.length());
        return out.toString();
    }
}
