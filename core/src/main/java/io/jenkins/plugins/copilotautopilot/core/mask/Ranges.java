package io.jenkins.plugins.copilotautopilot.core.mask;

import java.util.Arrays;

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

    String replaceIn(String text, String replacement) {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(starts[a], starts[b]));
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        int i = 0;
        while (i < size) {
            int start = starts[order[i]];
            int end = ends[order[i]];
            i++;
            while (i < size && starts[order[i]] <= end) {
                end = Math.max(end, ends[order[i]]);
                i++;
            }
            if (start > copied) {
                out.append(text, copied, start);
            }
            if (end > copied) {
                out.append(replacement);
                copied = end;
            }
        }
        out.append(text, copied, text.length());
        return out.toString();
    }
}
