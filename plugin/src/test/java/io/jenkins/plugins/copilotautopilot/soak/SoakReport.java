package io.jenkins.plugins.copilotautopilot.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the soak writes: {@code soak-report.md} (settings, builds by kind and result, faults by kind, violations, the
 * controller's CPU and heap over time, the fault log) and the same as CSV ({@code soak-builds.csv},
 * {@code soak-faults.csv}, {@code soak-samples.csv}).
 */
final class SoakReport {
    /** The controller and the load at one moment: CPU ms so far, heap used and its limit in bytes, sessions running. */
    record Sample(long atMillis, long controllerCpuMillis, long heapUsed, long heapMax, int sessions, double load) {
    }

    private final SoakSettings settings;
    private final long began;
    private final long ended;
    private final List<Ticket> tickets;
    private final List<FaultEvent> faults;
    private final List<Violation> violations;
    private final List<Sample> samples;
    private final List<String> harnessErrors;

    SoakReport(SoakSettings settings, long began, long ended, List<Ticket> tickets, List<FaultEvent> faults, List<Violation> violations,
               List<Sample> samples, List<String> harnessErrors) {
        this.settings = settings;
        this.began = began;
        this.ended = ended;
        this.tickets = List.copyOf(tickets);
        this.faults = List.copyOf(faults);
        this.violations = List.copyOf(violations);
        this.samples = List.copyOf(samples);
        this.harnessErrors = List.copyOf(harnessErrors);
    }

    void write(Path dir) throws IOException {
        Files.writeString(dir.resolve("soak-report.md"), markdown(), StandardCharsets.UTF_8);
        StringBuilder builds = new StringBuilder("job,number,kind,result,seconds,agents,sessions\n");
        for (Ticket t : tickets) {
            builds.append(t.ref.job()).append(',').append(t.ref.number()).append(',').append(t.kind).append(',')
                    .append(t.facts == null ? "not ended" : t.facts.result()).append(',')
                    .append(t.facts == null ? "" : t.facts.durationMillis() / 1000).append(',')
                    .append(t.facts == null ? "" : String.join(" ", t.facts.agents())).append(',')
                    .append(t.facts == null ? "" : t.facts.recorded().size()).append('\n');
        }
        Files.writeString(dir.resolve("soak-builds.csv"), builds, StandardCharsets.UTF_8);
        StringBuilder f = new StringBuilder("at,kind,target,seconds,detail\n");
        for (FaultEvent e : faults) {
            f.append(Instant.ofEpochMilli(e.atMillis())).append(',').append(e.kind()).append(',').append(e.target()).append(',')
                    .append((e.endMillis() - e.atMillis()) / 1000).append(',').append(e.detail().replace(',', ';')).append('\n');
        }
        Files.writeString(dir.resolve("soak-faults.csv"), f, StandardCharsets.UTF_8);
        StringBuilder s = new StringBuilder("at,controller_cpu_ms,heap_used_mb,heap_max_mb,sessions,load\n");
        for (Sample x : samples) {
            s.append(Instant.ofEpochMilli(x.atMillis())).append(',').append(x.controllerCpuMillis()).append(',')
                    .append(x.heapUsed() >> 20).append(',').append(x.heapMax() >> 20).append(',').append(x.sessions()).append(',')
                    .append(String.format(Locale.ROOT, "%.2f", x.load())).append('\n');
        }
        Files.writeString(dir.resolve("soak-samples.csv"), s, StandardCharsets.UTF_8);
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        long minutes = Duration.ofMillis(ended - began).toMinutes();
        int sessions = tickets.stream().filter(t -> t.facts != null).mapToInt(t -> t.facts.recorded().size()).sum();
        int peak = samples.stream().mapToInt(Sample::sessions).max().orElse(0);
        double mean = samples.stream().mapToInt(Sample::sessions).average().orElse(0);
        long injected = faults.stream().filter(e -> !e.detail().startsWith("NOT INJECTED")).count();
        md.append("# Soak with faults\n\n");
        md.append("Run ").append(Instant.ofEpochMilli(began)).append(" to ").append(Instant.ofEpochMilli(ended)).append(" (")
                .append(minutes).append(" min) on ").append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                .append(System.getProperty("java.version")).append("; settings: ").append(settings).append(".\n\n");
        md.append("**").append(tickets.size()).append(" builds, ").append(sessions).append(" sessions, ").append(injected)
                .append(" faults injected, ").append(violations.size()).append(" violations.** Sessions running at once: peak ")
                .append(peak).append(", mean ").append(String.format(Locale.ROOT, "%.1f", mean)).append(" (sampled every 10 s).\n\n");

        md.append("## Builds by kind and result\n\n| kind | builds | SUCCESS | FAILURE | ABORTED | other | not ended |\n|---|---|---|---|---|---|---|\n");
        Map<SessionKind, int[]> byKind = new EnumMap<>(SessionKind.class);
        for (Ticket t : tickets) {
            int[] c = byKind.computeIfAbsent(t.kind, k -> new int[6]);
            c[0]++;
            String r = t.facts == null ? null : t.facts.result();
            c[r == null ? 5 : switch (r) {
                case "SUCCESS" -> 1;
                case "FAILURE" -> 2;
                case "ABORTED" -> 3;
                default -> 4;
            }]++;
        }
        byKind.forEach((k, c) -> md.append("| ").append(k).append(" (").append(k.expected).append(") | ").append(c[0]).append(" | ")
                .append(c[1]).append(" | ").append(c[2]).append(" | ").append(c[3]).append(" | ").append(c[4]).append(" | ").append(c[5])
                .append(" |\n"));

        md.append("\n## Faults by kind\n\n| fault | injected | builds it touched |\n|---|---|---|\n");
        Map<FaultKind, Integer> count = new EnumMap<>(FaultKind.class);
        Map<FaultKind, Integer> touched = new EnumMap<>(FaultKind.class);
        for (FaultEvent e : faults) {
            if (e.detail().startsWith("NOT INJECTED")) {
                continue;
            }
            count.merge(e.kind(), 1, Integer::sum);
            for (Ticket t : tickets) {
                if (t.facts != null && e.during(t.facts.startMillis(), t.facts.startMillis() + t.facts.durationMillis())
                        && e.touches(t.ref, t.facts.agents())) {
                    touched.merge(e.kind(), 1, Integer::sum);
                }
            }
        }
        for (FaultKind k : FaultKind.values()) {
            md.append("| ").append(k).append(" | ").append(count.getOrDefault(k, 0)).append(" | ").append(touched.getOrDefault(k, 0))
                    .append(" |\n");
        }

        md.append("\n## Violations\n\n");
        if (violations.isEmpty()) {
            md.append("None.\n");
        }
        Map<String, List<Violation>> byInvariant = new TreeMap<>();
        violations.forEach(v -> byInvariant.computeIfAbsent(v.invariant(), i -> new ArrayList<>()).add(v));
        byInvariant.forEach((invariant, list) -> {
            md.append("### ").append(invariant).append(" (").append(list.size()).append(")\n\n");
            list.forEach(v -> md.append("- ").append(v.build()).append(" — fault before: ").append(v.faultBefore()).append(" — ")
                    .append(v.evidence().length() > 2_000 ? v.evidence().substring(0, 2_000) + "…" : v.evidence()).append('\n'));
            md.append('\n');
        });

        md.append("\n## The controller over time\n\n| minute | CPU (cores) | heap used / max (MB) | sessions | load |\n|---|---|---|---|---|\n");
        Sample previous = null;
        for (Sample x : samples) {
            if (previous == null || x.atMillis() - previous.atMillis() >= 60_000) {
                double cores = previous == null ? 0 : (x.controllerCpuMillis() - previous.controllerCpuMillis()) / (double) (x.atMillis() - previous.atMillis());
                md.append("| ").append((x.atMillis() - began) / 60_000).append(" | ").append(String.format(Locale.ROOT, "%.2f", cores))
                        .append(" | ").append(x.heapUsed() >> 20).append(" / ").append(x.heapMax() >> 20).append(" | ").append(x.sessions())
                        .append(" | ").append(String.format(Locale.ROOT, "%.1f", x.load())).append(" |\n");
                previous = x;
            }
        }

        md.append("\n## Fault log\n\n");
        faults.forEach(e -> md.append("- ").append(e).append('\n'));
        if (!harnessErrors.isEmpty()) {
            md.append("\n## What the harness noted (calls to the controller that failed, builds lost with it, usage counted apart; not violations)\n\n");
            harnessErrors.forEach(e -> md.append("- ").append(e).append('\n'));
        }
        return md.toString();
    }
}
