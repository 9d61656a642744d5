package io.jenkins.plugins.copilotautopilot.core.report;

import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;
import java.util.List;

/**
 * Draws how a job's Copilot sessions develop over recent builds: turns, duration, AI credits (when some build reported
 * any), premium requests and tokens per build, as small bar charts coloured by outcome (server-side SVG, no scripts, all
 * text escaped). A value that is unknown ({@link Double#NaN} in a {@link Series}) draws no bar and says "not reported".
 */
public final class TrendSvg {
    static final int WIDTH = 480;
    static final int CHART_HEIGHT = 56;
    static final int LEFT = 96;
    static final int RIGHT = 8;

    private TrendSvg() {
    }

    /**
     * One build in the trend.
     *
     * @param label           e.g. {@code #42}
     * @param outcome         the worst outcome of the build's sessions
     * @param turns           turns over all sessions of the build
     * @param durationMillis  time spent in sessions
     * @param premiumRequests premium requests, or null when unknown
     * @param tokens          tokens (input plus output) of the model calls, or null when the CLI recorded no usage
     * @param aiCredits       the AI credits the build's sessions reported, or null when none did (unknown, not 0)
     */
    public record Point(String label, String outcome, int turns, long durationMillis, Double premiumRequests, Long tokens,
                        Double aiCredits) {
        /** A build without usage records. */
        public Point(String label, String outcome, int turns, long durationMillis, Double premiumRequests) {
            this(label, outcome, turns, durationMillis, premiumRequests, null, null);
        }

        /** A build whose sessions reported no AI credits. */
        public Point(String label, String outcome, int turns, long durationMillis, Double premiumRequests, Long tokens) {
            this(label, outcome, turns, durationMillis, premiumRequests, tokens, null);
        }
    }

    /** What a chart writes for a value that is unknown. */
    static final String NOT_REPORTED = "not reported";

    /** @param points oldest first */
    public static String render(List<Point> points) {
        List<String> labels = points.stream().map(Point::label).toList();
        List<String> outcomes = points.stream().map(Point::outcome).toList();
        List<Series> series = new java.util.ArrayList<>();
        series.add(new Series("Turns", points.stream().mapToDouble(Point::turns).toArray(), v -> Texts.number(v)));
        series.add(new Series("Duration", points.stream().mapToDouble(Point::durationMillis).toArray(),
                v -> Durations.describe(Duration.ofMillis((long) v))));
        if (points.stream().anyMatch(p -> p.aiCredits() != null)) {
            // first of what the builds spent: the unit GitHub bills; a build that reported none has no bar, not a 0
            series.add(new Series("AI credits", points.stream().mapToDouble(p -> p.aiCredits() == null ? Double.NaN : p.aiCredits()).toArray(),
                    v -> Double.isNaN(v) ? NOT_REPORTED : Texts.credits(v)));
        }
        series.add(new Series("Premium requests", points.stream().mapToDouble(p -> p.premiumRequests() == null ? 0 : p.premiumRequests()).toArray(),
                v -> Texts.number(v)));
        series.add(new Series("Tokens", points.stream().mapToDouble(p -> p.tokens() == null ? 0 : p.tokens()).toArray(), TrendSvg::thousands));
        return render("Copilot sessions in the last " + points.size() + " builds", labels, outcomes, series);
    }

    /** One bar chart of a trend: its name, a value per bar ({@link Double#NaN}: unknown, no bar), and how a value is written. */
    public record Series(String name, double[] values, java.util.function.DoubleFunction<String> format) {
    }

    /**
     * Small bar charts one above the other, a bar per label (oldest first), coloured by its outcome (null: neutral).
     *
     * @param title what the image is, for readers of the page without it
     */
    public static String render(String title, List<String> labels, List<String> outcomes, List<Series> series) {
        int height = series.size() * (CHART_HEIGHT + 14) + 10;
        StringBuilder svg = new StringBuilder(2048);
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">")
                .append("<title>").append(TimelineSvg.escape(title)).append("</title>")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
        for (int i = 0; i < series.size(); i++) {
            chart(svg, labels, outcomes, 4 + i * (CHART_HEIGHT + 14), series.get(i));
        }
        svg.append("</svg>");
        return svg.toString();
    }

    /** A whole number with thousands separators. */
    public static String thousands(double v) {
        return String.format(java.util.Locale.ROOT, "%,d", (long) v);
    }

    /** A chart's name inside a sentence: {@code premium requests}, but {@code AI credits}. */
    static String inSentence(String name) {
        return name.length() > 1 && Character.isUpperCase(name.charAt(1)) ? name : name.toLowerCase(java.util.Locale.ROOT);
    }

    private static void chart(StringBuilder svg, List<String> labels, List<String> outcomes, int top, Series series) {
        String name = series.name();
        double max = 0;
        for (double v : series.values()) {
            if (!Double.isNaN(v)) {
                max = Math.max(max, v);
            }
        }
        svg.append("<text x=\"4\" y=\"").append(top + CHART_HEIGHT / 2 + 4).append("\" fill=\"#424242\">").append(TimelineSvg.escape(name)).append("</text>");
        svg.append("<text x=\"").append(LEFT - 4).append("\" y=\"").append(top + 10).append("\" text-anchor=\"end\" fill=\"#757575\">")
                .append(TimelineSvg.escape(series.format().apply(max))).append("</text>");
        int baseline = top + CHART_HEIGHT;
        svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(baseline).append("\" x2=\"").append(WIDTH - RIGHT)
                .append("\" y2=\"").append(baseline).append("\" stroke=\"#bdbdbd\"/>");
        if (labels.isEmpty()) {
            return;
        }
        double slot = (double) (WIDTH - LEFT - RIGHT) / labels.size();
        double barWidth = Math.max(1, slot * 0.7);
        for (int i = 0; i < labels.size(); i++) {
            double v = i < series.values().length ? series.values()[i] : 0;
            String outcome = outcomes.get(i);
            double h = max <= 0 || Double.isNaN(v) ? 0 : Math.max(1, (CHART_HEIGHT - 2) * v / max);
            double x = LEFT + i * slot + (slot - barWidth) / 2;
            svg.append("<g class=\"bar\"><title>").append(TimelineSvg.escape(labels.get(i) + (outcome == null ? "" : " " + outcome) + ": "
                    + inSentence(name) + " " + series.format().apply(v))).append("</title><rect x=\"").append(TimelineSvg.num(x)).append("\" y=\"")
                    .append(TimelineSvg.num(baseline - h)).append("\" width=\"").append(TimelineSvg.num(barWidth))
                    .append("\" height=\"").append(TimelineSvg.num(h)).append("\" fill=\"")
                    .append(outcome == null ? "#1976d2" : TimelineSvg.outcomeColor(outcome)).append("\"/></g>");
        }
    }
}
