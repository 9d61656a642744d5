package io.jenkins.plugins.copilotautopilot.core.text;

import java.time.Duration;

/** Durations in words. */
public final class Durations {
    private Durations() {
    }

    /** {@code 90s} → {@code 1m 30s}; {@code 2h} → {@code 2h}; sub-second → milliseconds. */
    public static String describe(Duration d) {
        if (d == null) {
            return "an unknown time";
        }
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 60_000) {
            long tenths = ms / 100;
            return (tenths % 10 == 0 ? String.valueOf(tenths / 10) : (tenths / 10) + "." + (tenths % 10)) + "s";
        }
        long s = ms / 1000;
        long h = s / 3600;
        long m = (s % 3600) / 60;
        long sec = s % 60;
        StringBuilder out = new StringBuilder();
        if (h > 0) {
            out.append(h).append('h');
        }
        if (m > 0) {
            out.append(out.length() > 0 ? " " : "").append(m).append('m');
        }
        if (sec > 0) {
            out.append(out.length() > 0 ? " " : "").append(sec).append('s');
        }
        return out.toString();
    }
}
