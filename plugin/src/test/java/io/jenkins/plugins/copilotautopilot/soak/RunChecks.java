package io.jenkins.plugins.copilotautopilot.soak;

import io.jenkins.plugins.copilotautopilot.soak.ControllerSide.SessionFacts;

import io.jenkins.plugins.copilotautopilot.core.quota.UsageLedger;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The run's invariants read from the stopped controller's files: the usage index's totals, its log's SEVERE entries. */
final class RunChecks {
    private static final String INDEX = "copilot-autopilot/usage.jsonl";
    /** An entry of the controller's log as {@code logging.properties} writes it: time, level, logger, message. */
    private static final Pattern ENTRY = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}[+-]\\d{4}) (SEVERE|WARNING) (\\S+) (.*)$");

    private RunChecks() {
    }

    /**
     * Per job, the index's tokens and AI credits equal the sums of its builds' session records, once the sessions of
     * builds a killed controller lost are set apart: their spend was real and stays counted (the quotas must see it),
     * but no build is left to hold their records (a Freestyle build does not survive a {@code kill -9}), or no step (a
     * Pipeline whose flow workflow-cps could not load after one). Each such session is named in {@code setApart}; a
     * violation names the index's sessions its builds hold no record of.
     */
    static List<Violation> usage(Path home, List<Ticket> tickets, String lastFault, List<String> setApart) throws IOException {
        Path file = home.resolve(INDEX);
        if (!Files.exists(file)) {
            return List.of(new Violation("the usage index's totals", "the run", lastFault, "no usage index at " + file));
        }
        Path copy = Files.createTempFile("soak-usage", ".jsonl");
        Files.copy(file, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Map<String, double[]> index = new TreeMap<>();
        UsageLedger ledger = UsageLedger.open(copy, Clock.systemDefaultZone(), 30);
        try {
            LocalDate today = LocalDate.now(ledger.zone());
            for (UsageLedger.DayUsage day : ledger.days(today.minusDays(2), today, job -> true)) {
                double[] t = index.computeIfAbsent(day.job(), j -> new double[2]);
                t[0] += day.tokens();
                t[1] += day.aiCredits();
            }
        } finally {
            ledger.close();
        }
        Map<String, double[]> lost = new TreeMap<>();
        Map<String, List<String>> unrecorded = new TreeMap<>();
        try {
            Map<String, List<Map.Entry<String, double[]>>> byBuild = new TreeMap<>();
            for (Map.Entry<String, double[]> session : sessionTotals(copy).entrySet()) {
                byBuild.computeIfAbsent(session.getKey().substring(0, session.getKey().lastIndexOf('/')), b -> new ArrayList<>()).add(session);
            }
            for (Map.Entry<String, List<Map.Entry<String, double[]>>> build : byBuild.entrySet()) {
                Ticket t = tickets.stream().filter(x -> build.getKey().equals(x.ref.job() + "#" + x.ref.number()) && !x.superseded)
                        .findFirst().orElse(null);
                long records = t == null || t.facts == null ? 0 : t.facts.recorded().stream().filter(s -> s.outcome() != null).count();
                if (t == null || records >= build.getValue().size()) {
                    continue;
                }
                // a build that holds fewer records than the index has sessions of it: set apart when no build is left
                // to hold them (a Freestyle build lost with a killed controller) or no step (workflow-cps failed the
                // Pipeline because it could not load its flow after a controller kill, before its step had recorded
                // the session); else named, as the evidence of the violation below
                String why = t.lostWithController ? "its build lost with the controller"
                        : t.facts != null && records == 0 && BuildInvariants.flowLost(t.facts)
                        ? "its Pipeline's flow lost by Jenkins after a controller kill, before its step recorded it" : null;
                for (Map.Entry<String, double[]> session : build.getValue()) {
                    String described = session.getKey() + ": " + (long) session.getValue()[0] + " tokens, " + session.getValue()[1] + " AI credits";
                    if (why != null) {
                        double[] sum = lost.computeIfAbsent(t.ref.job(), j -> new double[2]);
                        sum[0] += session.getValue()[0];
                        sum[1] += session.getValue()[1];
                        setApart.add(described + ", " + why);
                    } else {
                        unrecorded.computeIfAbsent(t.ref.job(), j -> new ArrayList<>()).add(described + " (" + records + " of the build's "
                                + build.getValue().size() + " sessions in the index recorded)");
                    }
                }
            }
        } finally {
            Files.deleteIfExists(copy);
        }
        Map<String, double[]> records = new TreeMap<>();
        for (Ticket t : tickets) {
            if (t.facts == null) {
                continue;
            }
            for (SessionFacts s : t.facts.recorded()) {
                if (s.outcome() != null) {
                    double[] sum = records.computeIfAbsent(t.ref.job(), j -> new double[2]);
                    sum[0] += s.tokens();
                    sum[1] += s.aiCredits();
                }
            }
        }
        List<Violation> found = new ArrayList<>();
        java.util.Set<String> jobs = new java.util.TreeSet<>(index.keySet());
        jobs.addAll(records.keySet());
        for (String job : jobs) {
            double[] i = index.getOrDefault(job, new double[2]);
            double[] r = records.getOrDefault(job, new double[2]);
            double[] l = lost.getOrDefault(job, new double[2]);
            if (i[0] != r[0] + l[0] || Math.abs(i[1] - r[1] - l[1]) > 1e-6) {
                found.add(new Violation("the usage index's totals", job, lastFault, "index: " + (long) i[0] + " tokens, " + i[1]
                        + " AI credits; the builds' session records: " + (long) r[0] + " tokens, " + r[1] + " AI credits"
                        + (l[0] == 0 && l[1] == 0 ? "" : "; set apart (builds lost): " + (long) l[0] + " tokens, " + l[1] + " AI credits")
                        + (unrecorded.containsKey(job) ? "; in the index without a record: " + unrecorded.get(job) : "")));
            }
        }
        return found;
    }

    /** Each session's last totals in the index's file ({@code u}: session, {@code tok}, {@code cr}; totals so far). */
    private static Map<String, double[]> sessionTotals(Path index) throws IOException {
        Map<String, double[]> sessions = new TreeMap<>();
        for (String line : Files.readAllLines(index, StandardCharsets.UTF_8)) {
            com.fasterxml.jackson.databind.JsonNode n;
            try {
                n = io.jenkins.plugins.copilotautopilot.core.events.EventParser.mapper().readTree(line);
            } catch (IOException e) {
                continue; // a damaged line: the ledger leaves it out of its counts too
            }
            if (n != null && n.hasNonNull("u") && n.has("tok")) {
                sessions.put(n.get("u").asText(), new double[] {n.get("tok").asLong(), n.path("cr").asDouble(0)});
            }
        }
        return sessions;
    }

    /**
     * What Jenkins itself logs as SEVERE when the harness cuts an agent's connection or kills its JVM as it connects
     * (its ping cannot be set up on a channel closing already): caused on purpose, not by the plugin.
     */
    private static final List<String> CAUSED_BY_AGENT_FAULTS = List.of("hudson.slaves.ChannelPinger: Failed to set up a ping for ");

    /**
     * Every SEVERE entry of the controller's log (files {@code controller-*.log} in {@code dir}) is a violation, but
     * for those Jenkins logs when a connection the harness cut or killed breaks as the agent connects.
     */
    static List<Violation> severe(Path dir, List<FaultEvent> faults) throws IOException {
        List<Violation> found = new ArrayList<>();
        boolean agentFaults = faults.stream().anyMatch(f -> f.kind() == FaultKind.CHANNEL_CUT || f.kind() == FaultKind.AGENT_KILL_JVM
                || f.kind() == FaultKind.AGENT_KILL_GROUP);
        for (Entry e : entries(dir)) {
            if (agentFaults && CAUSED_BY_AGENT_FAULTS.stream().anyMatch(e.text()::startsWith)) {
                continue;
            }
            if (e.level().equals("SEVERE")) {
                long at = e.atMillis();
                String before = faults.stream().filter(f -> f.atMillis() <= at).reduce((a, b) -> b).map(FaultEvent::toString).orElse("none");
                found.add(new Violation("no SEVERE in the controller's log", "the run", before, e.text()));
            }
        }
        return found;
    }

    /** An entry of the controller's log, with the lines after its first (a stack trace). */
    record Entry(long atMillis, String level, String text) {
    }

    static List<Entry> entries(Path dir) throws IOException {
        List<Entry> entries = new ArrayList<>();
        List<Path> logs;
        try (Stream<Path> files = Files.list(dir)) {
            logs = files.filter(f -> f.getFileName().toString().matches("controller-\\d+\\.log")).sorted().toList();
        }
        DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
        for (Path log : logs) {
            StringBuilder text = null;
            long at = 0;
            String level = null;
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                Matcher m = ENTRY.matcher(line);
                if (m.matches()) {
                    if (text != null) {
                        entries.add(new Entry(at, level, text.toString()));
                    }
                    at = OffsetDateTime.parse(m.group(1), format).toInstant().toEpochMilli();
                    level = m.group(2);
                    text = new StringBuilder(m.group(3)).append(": ").append(m.group(4));
                } else if (text != null && text.length() < 4_000) {
                    text.append(" | ").append(line.strip());
                }
            }
            if (text != null) {
                entries.add(new Entry(at, level, text.toString()));
            }
        }
        return entries;
    }
}
