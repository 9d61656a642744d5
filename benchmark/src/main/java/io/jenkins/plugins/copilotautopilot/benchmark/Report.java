package io.jenkins.plugins.copilotautopilot.benchmark;

import java.util.Locale;

/** The benchmark's Markdown table as it is made: each row also printed on the error stream as it comes, and how numbers are written in it. */
final class Report {
    private final StringBuilder text = new StringBuilder();

    void row(String what, String result, String target) {
        line("| " + what + " | " + result + " | " + target + " |");
        System.err.println(what + ": " + result);
    }

    void line(String line) {
        text.append(line).append('\n');
    }

    @Override
    public String toString() {
        return text.toString();
    }

    static double ms(double nanos) {
        return nanos / 1e6;
    }

    static String fmt(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }

    static String pct(long part, long whole) {
        return String.format(Locale.ROOT, "%.1f %%", part * 100.0 / whole);
    }
}
