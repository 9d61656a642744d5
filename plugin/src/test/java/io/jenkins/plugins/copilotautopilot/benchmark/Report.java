package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.benchmark.Round.Side;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** The rounds as Markdown tables (per round, then medians) and as CSV. */
final class Report {
    private final List<String> header = new ArrayList<>();
    private final List<Round> rounds = new ArrayList<>();
    private final Map<Workload, Map<String, long[]>> requestKinds = new LinkedHashMap<>();
    private final Map<Workload, List<Long>> delays = new LinkedHashMap<>();
    private final List<String> mismatches = new ArrayList<>();

    void header(String line) {
        header.add(line);
    }

    synchronized void add(Round round) {
        rounds.add(round);
    }

    /** The step's console delays of a workload's measured rounds (ms, any order), and the builds whose lines did not match. */
    synchronized void consoleDelays(Workload workload, List<Long> delays, List<String> mismatches) {
        this.delays.computeIfAbsent(workload, w -> new ArrayList<>()).addAll(delays);
        this.mismatches.addAll(mismatches);
    }

    void requestKinds(Workload workload, Side side, Map<String, long[]> kinds) {
        Map<String, long[]> all = requestKinds.computeIfAbsent(workload, w -> new java.util.TreeMap<>());
        kinds.forEach((k, v) -> all.merge(side.label + ", " + k, v, (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]}));
    }

    /** The builds that did not end as they should, in every round so far. */
    synchronized List<String> failures() {
        List<String> all = new ArrayList<>();
        rounds.forEach(r -> all.addAll(r.failures()));
        all.addAll(mismatches);
        return all;
    }

    static double median(Collection<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.removeIf(v -> v == null || v.isNaN());
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private Round find(Workload w, int number, Side side) {
        return rounds.stream().filter(r -> r.workload() == w && r.number() == number && r.side() == side).findFirst().orElse(null);
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        header.forEach(line -> md.append(line).append('\n'));
        for (Workload w : rounds.stream().map(Round::workload).distinct().toList()) {
            List<Side> sides = rounds.stream().filter(r -> r.workload() == w).map(Round::side).distinct().sorted().toList();
            List<Side> others = sides.stream().filter(s -> s != Side.STEP).toList();
            boolean ratios = sides.contains(Side.STEP) && !others.isEmpty();
            List<Integer> numbers = rounds.stream().filter(r -> r.workload() == w).map(Round::number).distinct().sorted().toList();
            String names = String.join(" / ", sides.stream().map(s -> s.markdown).toList());
            String ratioNames = String.join(", ", others.stream().map(s -> "step ÷ " + s.markdown).toList());
            md.append("\n### ").append(w.id()).append(": ").append(w.describe()).append("\n\n");
            md.append("| Round (order) | Load, 1 min: ").append(String.join("; ", sides.stream().map(s -> s.markdown).toList()))
                    .append(" | Controller CPU ms per session-minute, ").append(names)
                    .append(ratios ? " | " + ratioNames : "")
                    .append(" | Agent JVM CPU ms per session-minute, ").append(names)
                    .append(ratios ? " | " + ratioNames : "")
                    .append(" | Remoting requests per session-minute, ").append(names)
                    .append(" | Channel commands per session-minute, ").append(names)
                    .append(" | Channel KB per session-minute, ").append(names)
                    .append(" | Console per build, ").append(names)
                    .append(" | Build length (median), ").append(names)
                    .append(" | Builds |\n");
            md.append("|---|---|---|").append(ratios ? "---|" : "").append("---|").append(ratios ? "---|" : "")
                    .append("---|---|---|---|---|---|\n");
            Map<Side, List<Double>> ctrlRatios = new LinkedHashMap<>();
            Map<Side, List<Double>> agentRatios = new LinkedHashMap<>();
            for (int n : numbers) {
                List<Round> row = new ArrayList<>();
                for (Side side : sides) {
                    row.add(find(w, n, side));
                }
                if (row.contains(null)) {
                    continue;
                }
                Round step = ratios ? find(w, n, Side.STEP) : null;
                List<Round> order = row.stream().sorted(java.util.Comparator.comparingInt(Round::position)).toList();
                md.append("| ").append(n).append(" (").append(String.join(", ", order.stream().map(r -> r.side().label).toList()))
                        .append(") | ").append(String.join("; ", row.stream().map(Report::load).toList())).append(" | ")
                        .append(joined(row, Round::controllerMsPerSessionMinute, Report::ms));
                if (ratios) {
                    md.append(" | ").append(ratios(step, row, Round::controllerMsPerSessionMinute, ctrlRatios));
                }
                md.append(" | ").append(joined(row, Round::agentMsPerSessionMinute, Report::ms));
                if (ratios) {
                    md.append(" | ").append(ratios(step, row, Round::agentMsPerSessionMinute, agentRatios));
                }
                md.append(" | ").append(joined(row, Round::requestsPerSessionMinute, Report::requests))
                        .append(" | ").append(joined(row, Round::commandsPerSessionMinute, Report::ms))
                        .append(" | ").append(joined(row, Round::channelKbPerSessionMinute, Report::ms))
                        .append(" | ").append(String.join(" / ", row.stream().map(r -> bytes(r.consoleBytes())).toList()))
                        .append(" | ").append(joined(row, Round::medianSessionSeconds, Report::seconds))
                        .append(" | ").append(results(row)).append(" |\n");
            }
            Map<Side, List<Round>> bySide = new LinkedHashMap<>();
            for (Side side : sides) {
                bySide.put(side, rounds.stream().filter(r -> r.workload() == w && r.side() == side).toList());
            }
            md.append("| **median** | | **").append(medians(bySide, Round::controllerMsPerSessionMinute, Report::ms)).append("**");
            if (ratios) {
                md.append(" | **").append(medianRatios(others, ctrlRatios)).append("**");
            }
            md.append(" | **").append(medians(bySide, Round::agentMsPerSessionMinute, Report::ms)).append("**");
            if (ratios) {
                md.append(" | **").append(medianRatios(others, agentRatios)).append("**");
            }
            md.append(" | **").append(medians(bySide, Round::requestsPerSessionMinute, Report::requests)).append("**")
                    .append(" | ").append(medians(bySide, Round::commandsPerSessionMinute, Report::ms))
                    .append(" | ").append(medians(bySide, Round::channelKbPerSessionMinute, Report::ms))
                    .append(" | | ").append(medians(bySide, Round::medianSessionSeconds, Report::seconds)).append(" | |\n");
            md.append("\nRatios are per round; the median row's ratios are the medians of the rounds' ratios, its other"
                    + " figures the medians of each side's rounds.\n");
            List<Long> delay = delays.get(w);
            if (delay != null && !delay.isEmpty()) {
                List<Long> sorted = new ArrayList<>(delay);
                sorted.sort(null);
                md.append(String.format(Locale.ROOT, "%nThe step's console: a turn's or a tool's line in the build's log file after the CLI wrote"
                        + " its event (the event's timestamp in the journal), %d lines of the measured rounds: p50 %d ms, p99 %d ms, max %d ms.%n",
                        sorted.size(), percentile(sorted, 50), percentile(sorted, 99), sorted.get(sorted.size() - 1)));
            }
            Map<String, long[]> kinds = requestKinds.get(w);
            if (kinds != null && !kinds.isEmpty()) {
                md.append("\nCommands on the channel by kind, all measured rounds together (how many, their bytes):\n\n");
                kinds.entrySet().stream().sorted(java.util.Comparator.comparingLong((Map.Entry<String, long[]> e) -> e.getValue()[0]).reversed())
                        .forEach(e -> md.append("- ").append(e.getValue()[0]).append(" × ").append(e.getKey())
                                .append(String.format(Locale.ROOT, " (%.1f KB)", e.getValue()[1] / 1024.0)).append('\n'));
            }
            for (Round r : rounds) {
                if (r.workload() == w && !r.failures().isEmpty()) {
                    md.append("\nRound ").append(r.number()).append(", ").append(r.side().label).append(": ")
                            .append(String.join("; ", r.failures())).append('\n');
                }
            }
        }
        return md.toString();
    }

    /** The nearest-rank percentile of sorted values. */
    static long percentile(List<Long> sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    private static String joined(List<Round> row, ToDoubleFunction<Round> value, java.util.function.DoubleFunction<String> format) {
        return String.join(" / ", row.stream().map(r -> format.apply(value.applyAsDouble(r))).toList());
    }

    private static String ratios(Round step, List<Round> row, ToDoubleFunction<Round> value, Map<Side, List<Double>> collected) {
        List<String> texts = new ArrayList<>();
        for (Round r : row) {
            if (r.side() != Side.STEP) {
                double ratio = value.applyAsDouble(step) / value.applyAsDouble(r);
                collected.computeIfAbsent(r.side(), s -> new ArrayList<>()).add(ratio);
                texts.add(ratio(ratio));
            }
        }
        return String.join(", ", texts);
    }

    private static String medianRatios(List<Side> others, Map<Side, List<Double>> collected) {
        return String.join(", ", others.stream().map(s -> ratio(median(collected.getOrDefault(s, List.of())))).toList());
    }

    private static String medians(Map<Side, List<Round>> bySide, ToDoubleFunction<Round> value, java.util.function.DoubleFunction<String> format) {
        return String.join(" / ", bySide.values().stream().map(list -> format.apply(med(list, value))).toList());
    }

    String csv() {
        StringBuilder csv = new StringBuilder("workload,round,side,position,builds,succeeded,session_minutes,wall_ms,"
                + "controller_ms,agent_ms,requests_out,requests_in,commands_out,commands_in,bytes_out,bytes_in,machine_cores,"
                + "idle_wall_ms,idle_controller_ms,idle_agent_ms,idle_requests,idle_bytes,idle_machine_cores,load_min,load_max,"
                + "controller_ms_per_session_minute,agent_ms_per_session_minute,requests_per_session_minute,"
                + "channel_kb_per_session_minute,console_bytes_min,console_bytes_max,build_seconds_median\n");
        for (Round r : rounds) {
            Round.Window run = r.run();
            Round.Window idle = r.idle();
            csv.append(String.join(",", r.workload().id(), String.valueOf(r.number()), r.side().label, String.valueOf(r.position()),
                    String.valueOf(r.durationsMs().size()), String.valueOf(r.succeeded()), f(r.sessionMinutes()),
                    String.valueOf(run.wallMs()), String.valueOf(run.controllerMs()), String.valueOf(run.agentMs()),
                    String.valueOf(run.traffic().requestsOut()), String.valueOf(run.traffic().requestsIn()),
                    String.valueOf(run.traffic().commandsOut()), String.valueOf(run.traffic().commandsIn()),
                    String.valueOf(run.traffic().bytesOut()), String.valueOf(run.traffic().bytesIn()), f(run.machineCores()),
                    idle == null ? "" : String.valueOf(idle.wallMs()), idle == null ? "" : String.valueOf(idle.controllerMs()),
                    idle == null ? "" : String.valueOf(idle.agentMs()), idle == null ? "" : String.valueOf(idle.traffic().requests()),
                    idle == null ? "" : String.valueOf(idle.traffic().bytes()), idle == null ? "" : f(idle.machineCores()),
                    f(r.loadMin()), f(r.loadMax()), f(r.controllerMsPerSessionMinute()), f(r.agentMsPerSessionMinute()),
                    f(r.requestsPerSessionMinute()), f(r.channelKbPerSessionMinute()),
                    String.valueOf(r.consoleBytes().stream().mapToLong(Long::longValue).min().orElse(0)),
                    String.valueOf(r.consoleBytes().stream().mapToLong(Long::longValue).max().orElse(0)),
                    f(r.medianSessionSeconds()))).append('\n');
        }
        return csv.toString();
    }

    void write(Path markdown, Path csv) throws IOException {
        Files.createDirectories(markdown.getParent());
        Files.writeString(markdown, markdown(), StandardCharsets.UTF_8);
        Files.writeString(csv, csv(), StandardCharsets.UTF_8);
    }

    private static double med(List<Round> rounds, ToDoubleFunction<Round> value) {
        List<Double> values = new ArrayList<>();
        rounds.forEach(r -> values.add(value.applyAsDouble(r)));
        return median(values);
    }

    private static String load(Round r) {
        return String.format(Locale.ROOT, "%.1f–%.1f", r.loadMin(), r.loadMax());
    }

    private static String ms(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static String requests(double perSessionMinute) {
        return String.format(Locale.ROOT, "%,.0f (%.2f/s)", perSessionMinute, perSessionMinute / 60);
    }

    private static String seconds(double value) {
        return String.format(Locale.ROOT, "%.1f s", value);
    }

    private static String f(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    private static String bytes(List<Long> sizes) {
        long min = sizes.stream().mapToLong(Long::longValue).min().orElse(0);
        long max = sizes.stream().mapToLong(Long::longValue).max().orElse(0);
        String lo = kb(min);
        String hi = kb(max);
        return lo.equals(hi) ? lo + " KB" : lo + "–" + hi + " KB";
    }

    private static String kb(long bytes) {
        double kb = bytes / 1024.0;
        return kb < 10 ? String.format(Locale.ROOT, "%.2f", kb) : String.format(Locale.ROOT, "%,.0f", kb);
    }

    private static String results(List<Round> row) {
        int ok = row.stream().mapToInt(Round::succeeded).sum();
        int all = row.stream().mapToInt(r -> r.durationsMs().size()).sum();
        return ok + "/" + all + " ok";
    }
}
