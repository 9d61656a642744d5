package io.jenkins.plugins.copilotautopilot.core.report;

import io.jenkins.plugins.copilotautopilot.core.session.ToolStatus;
import io.jenkins.plugins.copilotautopilot.core.text.ConsoleText;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws a session as an SVG timeline (server-side; no scripts, no external references): the turns as
 * segments on a time axis, the tool calls below them coloured by status, nudges and errors as markers.
 * Every piece of text is escaped; hover titles carry the details. Reads at a glance from 1 to hundreds of
 * turns: the width is fixed and labels only appear where they fit.
 */
public final class TimelineSvg {
    static final int WIDTH = 960;
    static final int LEFT = 64;
    static final int RIGHT = 16;
    static final int TOOL_LANES = 4;
    static final String OK = "#2e7d32";
    static final String FAILED = "#c62828";
    static final String DENIED = "#ef6c00";
    static final String RUNNING = "#757575";
    /** The part of a call spent waiting for a person's approval. */
    static final String WAITING = "#f9a825";
    static final String NUDGE = "#6a1b9a";
    static final String TOKENS = "#78909c";
    private static final String[] TURN_FILLS = {"#90caf9", "#64b5f6"};
    private static final long[] TICK_STEPS_MS = {100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000,
        120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000};

    private TimelineSvg() {
    }

    public static String render(SessionReport report) {
        return render(report, null);
    }

    /**
     * A session that still runs, drawn up to {@code now}: its running calls and its open turn reach the right edge,
     * not the last event's time (null: the session has ended, drawn up to its last event).
     */
    public static String render(SessionReport report, Instant now) {
        Scale scale = Scale.of(report, now);
        int turnsTop = 44;
        int turnsHeight = 26;
        int toolsTop = turnsTop + turnsHeight + 10;
        int laneHeight = 12;
        int markersTop = toolsTop + TOOL_LANES * (laneHeight + 2) + 6;
        long mostTokens = report.turns().stream().mapToLong(TurnReport::tokens).max().orElse(0);
        int tokensTop = markersTop + 18;
        int tokensHeight = mostTokens > 0 ? 24 : 0; // a row only when the CLI recorded usage
        int axisTop = tokensTop + tokensHeight + (mostTokens > 0 ? 6 : 0);
        int legendTop = axisTop + 26;
        int height = legendTop + 20;

        StringBuilder svg = new StringBuilder(4096);
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">");
        svg.append("<title>").append(escape(headline(report))).append("</title>");
        svg.append("<desc>").append(escape(Texts.truncate(report.summary() == null ? "" : report.summary(), 2_000))).append("</desc>");
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
        svg.append(text(LEFT, 18, escape(Texts.truncate(headline(report), 140)), "font-size=\"13\" font-weight=\"bold\" fill=\""
                + outcomeColor(report.outcome()) + "\""));
        svg.append(text(8, turnsTop + 17, "Turns", "fill=\"#424242\""));
        svg.append(text(8, toolsTop + 10, "Tools", "fill=\"#424242\""));
        svg.append(text(8, markersTop + 10, "Events", "fill=\"#424242\""));
        if (mostTokens > 0) {
            svg.append(text(8, tokensTop + 16, "Tokens", "fill=\"#424242\""));
        }

        List<TurnReport> turns = report.turns();
        for (int i = 0; i < turns.size(); i++) {
            TurnReport turn = turns.get(i);
            double x0 = scale.turnStart(i, turn);
            double x1 = Math.max(x0 + 1, scale.turnEnd(i, turn));
            svg.append("<g class=\"turn\"><title>").append(escape(turnTitle(turn))).append("</title>")
                    .append(rect(x0, turnsTop, x1 - x0, turnsHeight, TURN_FILLS[i % 2], "#1565c0"));
            if (x1 - x0 >= 8 + 7 * String.valueOf(turn.number()).length()) {
                svg.append(text((x0 + x1) / 2, turnsTop + 17, String.valueOf(turn.number()), "text-anchor=\"middle\" fill=\"#0d47a1\""));
            }
            svg.append("</g>");
            if (turn.afterNudge()) {
                svg.append(marker(x0, markersTop, NUDGE, "Autopilot continuation before turn " + turn.number(), true));
            }
            for (String error : turn.errors()) {
                svg.append(marker(x1, markersTop, FAILED, "Error in turn " + turn.number() + ": " + error, false));
            }
            if (mostTokens > 0 && turn.tokens() > 0) {
                // the turn's tokens as a bar under the turn, its height against the busiest turn's
                double h = Math.max(1, tokensHeight * (double) turn.tokens() / mostTokens);
                svg.append("<g class=\"tokens\"><title>").append(escape(String.format(Locale.ROOT,
                                "Turn %d: %,d tokens in, %,d out", turn.number(), turn.inputTokens(), turn.outputTokens())))
                        .append("</title>").append(rect(x0, tokensTop + tokensHeight - h, Math.max(1, x1 - x0), h, TOKENS, null))
                        .append("</g>");
            }
        }

        double[] laneEnds = new double[TOOL_LANES];
        boolean waited = false;
        for (int i = 0; i < turns.size(); i++) {
            TurnReport turn = turns.get(i);
            List<ToolCallReport> calls = turn.toolCalls();
            for (int c = 0; c < calls.size(); c++) {
                ToolCallReport call = calls.get(c);
                double x0 = scale.callStart(i, turn, c, call);
                double x1 = Math.max(x0 + 2, scale.callEnd(i, turn, c, call));
                int lane = 0;
                while (lane < TOOL_LANES - 1 && laneEnds[lane] > x0) {
                    lane++;
                }
                laneEnds[lane] = Math.max(laneEnds[lane], x1);
                double y = toolsTop + lane * (laneHeight + 2);
                svg.append("<g class=\"tool\"><title>").append(escape(callTitle(turn, call))).append("</title>")
                        .append(rect(x0, y, x1 - x0, laneHeight, statusColor(call.status()), null));
                double waitEnd = waitEnd(call, x0, x1);
                if (waitEnd > x0) {
                    svg.append(rect(x0, y, waitEnd - x0, laneHeight, WAITING, null)); // the part spent waiting for a person
                    waited = true;
                }
                svg.append("</g>");
            }
        }

        int axisY = axisTop;
        svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(axisY).append("\" x2=\"").append(WIDTH - RIGHT)
                .append("\" y2=\"").append(axisY).append("\" stroke=\"#9e9e9e\"/>");
        for (Scale.Tick tick : scale.ticks()) {
            svg.append("<line x1=\"").append(num(tick.x())).append("\" y1=\"").append(axisY).append("\" x2=\"").append(num(tick.x()))
                    .append("\" y2=\"").append(axisY + 4).append("\" stroke=\"#9e9e9e\"/>");
            svg.append(text(tick.x(), axisY + 15, escape(tick.label()), "text-anchor=\"middle\" fill=\"#616161\""));
        }

        int lx = LEFT;
        List<String[]> legend = new java.util.ArrayList<>(List.of(new String[][] {{OK, "tool ok"},
            {FAILED, "failed / interrupted / error"}, {DENIED, "denied"}, {RUNNING, "running"}}));
        if (waited) {
            legend.add(new String[] {WAITING, "waiting for approval"});
        }
        legend.add(new String[] {NUDGE, "continuation"});
        if (mostTokens > 0) {
            legend.add(new String[] {TOKENS, "tokens per turn"});
        }
        for (String[] item : legend) {
            svg.append(rect(lx, legendTop, 10, 10, item[0], null));
            svg.append(text(lx + 14, legendTop + 9, item[1], "fill=\"#424242\""));
            lx += 30 + item[1].length() * 6;
        }
        if (report.omittedTurns() > 0) {
            svg.append(text(lx, legendTop + 9, escape("(" + report.omittedTurns() + " later turns not drawn)"), "fill=\"#616161\""));
        }
        svg.append("</svg>");
        return svg.toString();
    }

    static String headline(SessionReport report) {
        String outcome = report.outcome() == null ? "UNFINISHED" : report.outcome();
        StringBuilder out = new StringBuilder(outcome);
        if (report.durationMillis() >= 0) {
            out.append(" in ").append(Durations.describe(Duration.ofMillis(report.durationMillis())));
        }
        SessionReport.Totals t = report.totals();
        out.append(" | ").append(t.turns()).append(t.turns() == 1 ? " turn" : " turns")
                .append(" | ").append(t.toolCalls()).append(t.toolCalls() == 1 ? " tool call" : " tool calls");
        if (t.failedToolCalls() + t.deniedToolCalls() > 0) {
            out.append(" (").append(t.failedToolCalls()).append(" failed, ").append(t.deniedToolCalls()).append(" denied)");
        }
        return out.toString();
    }

    private static String turnTitle(TurnReport turn) {
        StringBuilder out = new StringBuilder("Turn ").append(turn.number());
        if (turn.durationMillis() >= 0) {
            out.append(" (").append(Durations.describe(Duration.ofMillis(turn.durationMillis()))).append(')');
        }
        out.append(": ").append(turn.agentToolCalls()).append(turn.agentToolCalls() == 1 ? " tool call" : " tool calls");
        for (ToolCallReport round : turn.verifyRounds()) {
            out.append(", acceptance check ").append(round.arguments());
        }
        if (!turn.messages().isEmpty()) {
            out.append("\n").append(Texts.truncate(turn.messages().get(0), 300));
        }
        return out.toString();
    }

    /** Where a call's wait for approval ends in its bar: all of it while it waits, its part of the call once decided. */
    private static double waitEnd(ToolCallReport call, double x0, double x1) {
        if (call.awaitingApproval()) {
            return x1;
        }
        if (call.approvalWaitMillis() < 0) {
            return x0;
        }
        if (call.durationMillis() <= 0) {
            return x1;
        }
        return x0 + (x1 - x0) * Math.min(1.0, (double) call.approvalWaitMillis() / call.durationMillis());
    }

    private static String callTitle(TurnReport turn, ToolCallReport call) {
        StringBuilder out = new StringBuilder(call.name());
        if (!call.arguments().isEmpty()) {
            out.append(": ").append(Texts.truncate(call.arguments(), 200));
        }
        if (call.awaitingApproval()) {
            out.append("\nwaiting for approval");
        } else if (call.approval() != null) {
            out.append("\nwaited ").append(call.approvalWaitMillis() < 0 ? "" : Durations.describe(Duration.ofMillis(call.approvalWaitMillis())) + " ")
                    .append("for approval: ").append(call.approval().toLowerCase(Locale.ROOT).replace('_', ' '));
        }
        out.append("\n").append(call.status().name().toLowerCase(Locale.ROOT));
        if (call.durationMillis() >= 0) {
            out.append(" in ").append(Durations.describe(Duration.ofMillis(call.durationMillis())));
        }
        out.append(", turn ").append(turn.number());
        if (call.error() != null) {
            out.append("\n").append(Texts.truncate(call.error(), 300));
        }
        return out.toString();
    }

    static String statusColor(ToolStatus status) {
        return switch (status) {
            case SUCCEEDED -> OK;
            case FAILED -> FAILED;
            case DENIED -> DENIED;
            case RUNNING -> RUNNING;
            case INTERRUPTED -> FAILED;
        };
    }

    static String outcomeColor(String outcome) {
        if ("COMPLETED".equals(outcome)) {
            return OK;
        }
        if ("INCOMPLETE".equals(outcome) || "ABORTED".equals(outcome)) {
            return DENIED;
        }
        return outcome == null ? RUNNING : FAILED;
    }

    private static String marker(double x, int top, String color, String title, boolean triangle) {
        String shape = triangle
                ? "<path d=\"M" + num(x - 5) + " " + (top + 11) + " L" + num(x + 5) + " " + (top + 11) + " L" + num(x) + " " + (top + 1) + " Z\" fill=\"" + color + "\"/>"
                : "<path d=\"M" + num(x - 4) + " " + (top + 2) + " L" + num(x + 4) + " " + (top + 10) + " M" + num(x + 4) + " " + (top + 2)
                        + " L" + num(x - 4) + " " + (top + 10) + "\" stroke=\"" + color + "\" stroke-width=\"2\"/>";
        return "<g class=\"marker\"><title>" + escape(title) + "</title>" + shape + "</g>";
    }

    private static String rect(double x, double y, double w, double h, String fill, String stroke) {
        return "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" fill=\"" + fill + "\""
                + (stroke == null ? "" : " stroke=\"" + stroke + "\" stroke-width=\"0.5\"") + "/>";
    }

    private static String text(double x, double y, String escapedText, String attributes) {
        return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" " + attributes + ">" + escapedText + "</text>";
    }

    static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /**
     * Untrusted text made safe for SVG text and attribute values: terminal control sequences are removed whole
     * and bidirectional overrides neutralised ({@link ConsoleText}), then XML-escaped; characters XML cannot
     * carry are dropped.
     */
    public static String escape(String raw) {
        if (raw == null) {
            return "";
        }
        String text = ConsoleText.clean(raw);
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> {
                    boolean allowed = c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c != 0xFFFE && c != 0xFFFF);
                    if (allowed && !Character.isSurrogate(c)) {
                        out.append(c);
                    } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                        out.append(c).append(text.charAt(++i));
                    }
                }
            }
        }
        return out.toString();
    }

    /** Maps session time to x; falls back to equal slots per turn when the journal has no timestamps. */
    static final class Scale {
        private final Instant origin;
        private final long spanMillis;
        private final int turnCount;
        private final double plotWidth = WIDTH - LEFT - RIGHT;
        /** The time a running session is drawn up to, or null. */
        private final Instant now;

        private Scale(Instant origin, long spanMillis, int turnCount, Instant now) {
            this.origin = origin;
            this.spanMillis = spanMillis;
            this.turnCount = Math.max(turnCount, 1);
            this.now = now;
        }

        static Scale of(SessionReport report) {
            return of(report, null);
        }

        static Scale of(SessionReport report, Instant now) {
            Instant first = null;
            Instant last = null;
            for (TurnReport turn : report.turns()) {
                first = min(first, turn.startedAt());
                last = max(last, turn.startedAt());
                if (turn.startedAt() != null && turn.durationMillis() >= 0) {
                    last = max(last, turn.startedAt().plusMillis(turn.durationMillis()));
                }
                for (ToolCallReport call : turn.toolCalls()) {
                    first = min(first, call.startedAt());
                    if (call.startedAt() != null) {
                        last = max(last, call.startedAt().plusMillis(Math.max(call.durationMillis(), 0)));
                    }
                }
            }
            if (first == null) {
                return new Scale(null, 0, report.turns().size(), null);
            }
            last = max(last, now);
            long span = Math.max(Duration.between(first, last).toMillis(), 1);
            return new Scale(first, span, report.turns().size(), now);
        }

        boolean timed() {
            return origin != null;
        }

        double x(Instant at) {
            long ms = Duration.between(origin, at).toMillis();
            return LEFT + plotWidth * Math.min(Math.max(ms, 0), spanMillis) / spanMillis;
        }

        double slot(int index) {
            return LEFT + plotWidth * index / turnCount;
        }

        double turnStart(int index, TurnReport turn) {
            return timed() && turn.startedAt() != null ? x(turn.startedAt()) : slot(index);
        }

        double turnEnd(int index, TurnReport turn) {
            if (timed() && turn.startedAt() != null && turn.durationMillis() >= 0) {
                return x(turn.startedAt().plusMillis(turn.durationMillis()));
            }
            if (timed() && turn.startedAt() != null && now != null && index == turnCount - 1) {
                return x(now); // the turn still open
            }
            return slot(index + 1) - 1;
        }

        double callStart(int index, TurnReport turn, int call, ToolCallReport report) {
            if (timed() && report.startedAt() != null) {
                return x(report.startedAt());
            }
            double from = slot(index);
            double width = (slot(index + 1) - from) / Math.max(turn.toolCalls().size(), 1);
            return from + call * width;
        }

        double callEnd(int index, TurnReport turn, int call, ToolCallReport report) {
            if (timed() && report.startedAt() != null && report.durationMillis() < 0 && now != null) {
                return x(now); // still running
            }
            if (timed() && report.startedAt() != null) {
                return x(report.startedAt().plusMillis(Math.max(report.durationMillis(), 0)));
            }
            double from = slot(index);
            double width = (slot(index + 1) - from) / Math.max(turn.toolCalls().size(), 1);
            return from + (call + 1) * width - 1;
        }

        record Tick(double x, String label) {
        }

        List<Tick> ticks() {
            List<Tick> ticks = new ArrayList<>();
            if (!timed()) {
                int every = Math.max(1, (int) Math.ceil(turnCount / 12.0));
                for (int i = 0; i < turnCount; i += every) {
                    ticks.add(new Tick(slot(i), "turn " + (i + 1)));
                }
                return ticks;
            }
            long step = TICK_STEPS_MS[TICK_STEPS_MS.length - 1];
            for (long candidate : TICK_STEPS_MS) {
                if (spanMillis / candidate <= 10) {
                    step = candidate;
                    break;
                }
            }
            for (long t = 0; t <= spanMillis; t += step) {
                ticks.add(new Tick(LEFT + plotWidth * t / spanMillis, t == 0 ? "0" : Durations.describe(Duration.ofMillis(t))));
            }
            return ticks;
        }

        private static Instant min(Instant a, Instant b) {
            return a == null ? b : b == null || a.isBefore(b) ? a : b;
        }

        private static Instant max(Instant a, Instant b) {
            return a == null ? b : b == null || a.isAfter(b) ? a : b;
        }
    }
}
