package io.jenkins.plugins.copilotautopilot.core.report;

import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Draws how a job's Copilot sessions develop over recent builds: turns, duration and premium requests per
 * build, as three small bar charts coloured by outcome (server-side SVG, no scripts, all text escaped).
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
     */
    public record Point(String label, String outcome, int turns, long durationMillis, Double premiumRequests, Long tokens) {
        /** A build without usage records. */
        public Point(String label, String outcome, int turns, long durationMillis, Double premiumRequests) {
            this(label, outcome, turns, durationMillis, premiumRequests, null);
        }
    }

    /** @param points oldest first */
    public static String render(List<Point> points) {
        int height = 4 * (CHART_HEIGHT + 14) + 10;
        StringBuilder svg = new StringBuilder(2048);
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">")
                .append("<title>Copilot sessions in the last ").append(points.size()).append(" builds</title>")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
        chart(svg, points, 4, "Turns", Point::turns, v -> Texts.number(v));
        chart(svg, points, 4 + CHART_HEIGHT + 14, "Duration", p -> p.durationMillis(),
                v -> Durations.describe(Duration.ofMillis((long) v)));
        chart(svg, points, 4 + 2 * (CHART_HEIGHT + 14), "Premium requests",
                p -> p.premiumRequests() == null ? 0 : p.premiumRequests(), v -> Texts.number(v));
        chart(svg, points, 4 + 3 * (CHART_HEIGHT + 14), "Tokens", p -> p.tokens() == null ? 0 : p.tokens(),
                v -> String.format(java.util.Locale.ROOT, "%,d", (long) v));
        svg.append("</svg>");
        return svg.toString();
    }

    private static void chart(StringBuilder svg, List<Point> points, int top, String name, ToDoubleFunction<Point> value,
                              java.util.function.DoubleFunction<String> format) {
        double max = 0;
        for (Point p : points) {
            max = Math.max(max, value.applyAsDouble(p));
        }
        svg.append("<text x=\"4\" y=\"").append(top + CHART_HEIGHT / 2 + 4).append("\" fill=\"#424242\">").append(name).append("</text>");
        svg.append("<text x=\"").append(LEFT - 4).append("\" y=\"").append(top + 10).append("\" text-anchor=\"end\" fill=\"#757575\">")
                .append(TimelineSvg.escape(format.apply(max))).append("</text>");
        int baseline = top + CHART_HEIGHT;
        svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(baseline).append("\" x2=\"").append(WIDTH - RIGHT)
                .append("\" y2=\"").append(baseline).append("\" stroke=\"#bdbdbd\"/>");
        if (points.isEmpty()) {
            return;
        }
        double slot = (double) (WIDTH - LEFT - RIGHT) / points.size();
        double barWidth = Math.max(1, slot * 0.7);
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            double v = value.applyAsDouble(p);
            double h = max <= 0 ? 0 : Math.max(1, (CHART_HEIGHT - 2) * v / max);
            double x = LEFT + i * slot + (slot - barWidth) / 2;
            svg.append("<g class=\"bar\"><title>").append(TimelineSvg.escape(p.label() + " " + p.outcome() + ": " + name.toLowerCase()
                    + " " + format.apply(v))).append("</title><rect x=\"").append(TimelineSvg.num(x)).append("\" y=\"")
                    .append(TimelineSvg.num(baseline - h)).append("\" width=\"").append(TimelineSvg.num(barWidth))
                    .append("\" height=\"").append(TimelineSvg.num(h)).append("\" fill=\"")
                    .append(TimelineSvg.outcomeColor(p.outcome())).append("\"/></g>");
        }
    }
}
