package io.jenkins.plugins.copilotautopilot.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What every session spent, across runs: the small index that quotas are checked against and the usage page reads,
 * kept as sessions record their usage and end, never by opening builds. One file of JSON lines, appended under one
 * lock, so that concurrent sessions are counted exactly and a restart reads the same counts back:
 * <ul>
 *   <li>{@code {"u":session,"j":job,"m":model,"at":millis,"tok":tokens,"pr":premium,"cr":aiCredits,"cm":true}}: the
 *       session's totals so far (the CLI's usage records; {@code cm} when some call reported no AI credits); what grew
 *       since its previous line is spent at {@code at}. A line without {@code cr} has no amount known: one written
 *       before AI credits were recorded reads as a session that reported none, never as a cost of 0;</li>
 *   <li>{@code {"e":session,"at":millis,"o":outcome}}: the session ended;</li>
 *   <li>written by a compaction: {@code {"d":day,"j","m","tok","pr","cr","n","nc","o":{outcome:count}}} a day's totals
 *       ({@code nc}: sessions with calls that reported no AI credits; a day line without {@code cr} and {@code nc}, of
 *       a version before AI credits, counts all its sessions so),
 *       {@code {"s":session,...}} a session's totals already counted, {@code {"p":millis,"j","m","tok","pr"}} a
 *       recent spend (what the windows count).</li>
 * </ul>
 * Spends older than {@link #RECENT} are only in the days' totals: no window reaches that far back.
 */
public final class UsageLedger {
    /** The longest a window reaches back (a calendar day is at most 25 hours), with room for a late clock. */
    static final Duration RECENT = Duration.ofHours(26);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final Clock clock;
    private final ZoneId zone;
    private final int retentionDays;
    private final boolean wasMissing;
    private int skippedLines;
    private long linesInFile;
    private FileChannel out;

    private final Map<String, SessionState> sessions = new HashMap<>();
    private final Deque<Point> recent = new ArrayDeque<>();
    private final TreeMap<DayKey, DayTotals> days = new TreeMap<>();

    private UsageLedger(Path file, Clock clock, int retentionDays) {
        this.file = file;
        this.clock = clock;
        this.zone = clock.getZone();
        this.retentionDays = retentionDays;
        this.wasMissing = !Files.exists(file);
    }

    /**
     * Opens the ledger in {@code file} (made when missing: then {@link #wasMissing()}, and the caller may
     * {@link #rebuild} it), days in {@code clock}'s zone, days older than {@code retentionDays} dropped when the file
     * is compacted.
     */
    public static UsageLedger open(Path file, Clock clock, int retentionDays) throws IOException {
        UsageLedger ledger = new UsageLedger(file, clock, retentionDays);
        if (!ledger.wasMissing) {
            ledger.load();
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        if (ledger.linesInFile > 10_000 && ledger.linesInFile > 2L * ledger.compactedLines()) {
            ledger.compact();
        }
        ledger.out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        return ledger;
    }

    /** True when there was no file: nothing is known of earlier sessions until {@link #rebuild} is given them. */
    public boolean wasMissing() {
        return wasMissing;
    }

    /** Lines of the file that could not be read (a line cut by a crash, a hand edit): left out of every count. */
    public synchronized int skippedLines() {
        return skippedLines;
    }

    public ZoneId zone() {
        return zone;
    }

    /**
     * The session's totals so far, as its usage records add up: what grew since the last call is spent now. Totals
     * that did not grow change nothing (a session followed again after a restart gives the same totals again).
     */
    public synchronized void record(String session, String job, String model, Spend totals) throws IOException {
        long at = clock.millis();
        if (apply(session, job, model, at, totals)) {
            append(updateLine(session, job, model, at, totals));
        }
    }

    /** The session ended with {@code outcome} (once; later calls for it change nothing). */
    public synchronized void end(String session, String outcome) throws IOException {
        long at = clock.millis();
        if (applyEnd(session, outcome)) {
            append(endLine(session, at, outcome));
        }
    }

    /** The first of {@code quotas} that covers {@code job} and is reached now (spent ≥ limit), or null. */
    public synchronized QuotaReached reached(Collection<Quota> quotas, String job) {
        long now = clock.millis();
        for (Quota quota : quotas) {
            if (!quota.covers(job)) {
                continue;
            }
            double spent = spent(quota, job, now);
            if (spent >= quota.limit()) {
                return new QuotaReached(quota, job, spent, Instant.ofEpochMilli(freesAt(quota, job, now, spent)));
            }
        }
        return null;
    }

    /** What sessions of {@code job} (or with it, as the quota counts) spent in the quota's window up to now. */
    public synchronized double spent(Quota quota, String job) {
        return spent(quota, job, clock.millis());
    }

    private double spent(Quota quota, String job, long now) {
        long from = windowStart(quota.window(), now);
        double sum = 0;
        for (Point p : recent) {
            if (p.at >= from && p.at <= now && quota.countsTogether(job, p.job)) {
                sum += p.spend.of(quota.metric());
            }
        }
        return sum;
    }

    private long windowStart(Quota.Window window, long now) {
        return window == Quota.Window.DAY
                ? Instant.ofEpochMilli(now).atZone(zone).toLocalDate().atStartOfDay(zone).toInstant().toEpochMilli()
                : now - Duration.ofHours(24).toMillis() + 1;
    }

    /** A day's window frees at midnight; 24 hours free when enough of the oldest spend has fallen out. */
    private long freesAt(Quota quota, String job, long now, double spent) {
        if (quota.window() == Quota.Window.DAY) {
            LocalDate today = Instant.ofEpochMilli(now).atZone(zone).toLocalDate();
            return today.plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli();
        }
        long from = windowStart(quota.window(), now);
        double left = spent;
        for (Point p : recent) {
            if (p.at >= from && p.at <= now && quota.countsTogether(job, p.job)) {
                left -= p.spend.of(quota.metric());
                if (left < quota.limit()) {
                    return p.at + Duration.ofHours(24).toMillis();
                }
            }
        }
        return now; // a limit of 0 with nothing spent: reached whatever falls out
    }

    /** A day's totals for one job and model. */
    public record DayUsage(LocalDate day, String job, String model, long tokens, double premiumRequests, int sessions,
                           Map<String, Integer> outcomes, double aiCredits, int sessionsWithoutAiCredits) {
        /** The AI credits, or null when no session of the row reported any (unknown, not zero). */
        public Double knownAiCredits() {
            return sessionsWithoutAiCredits >= sessions && aiCredits == 0 ? null : Double.valueOf(aiCredits);
        }
    }

    /** The days from {@code from} to {@code to} (both included) of the jobs {@code jobs} accepts, oldest first. */
    public synchronized List<DayUsage> days(LocalDate from, LocalDate to, Predicate<String> jobs) {
        List<DayUsage> rows = new ArrayList<>();
        for (Map.Entry<DayKey, DayTotals> e : days.subMap(new DayKey(from, "", ""), true, new DayKey(to.plusDays(1), "", ""), false).entrySet()) {
            DayKey k = e.getKey();
            if (jobs.test(k.job)) {
                DayTotals t = e.getValue();
                rows.add(new DayUsage(k.day, k.job, k.model, t.spend.tokens(), t.spend.premiumRequests(), t.sessions,
                        Map.copyOf(t.outcomes), t.spend.aiCredits(), t.sessionsWithoutCredits));
            }
        }
        return rows;
    }

    /** What a finished session spent, for {@link #rebuild}: from its build's record. */
    public record SessionSummary(String session, String job, String model, Instant ended, Spend totals, String outcome) {
    }

    /**
     * Fills a ledger that was missing from the sessions' own records (each counted at its end; sessions already
     * known are left as they are).
     */
    public synchronized void rebuild(Collection<SessionSummary> finished) throws IOException {
        for (SessionSummary s : finished) {
            if (sessions.containsKey(s.session())) {
                continue;
            }
            long at = s.ended().toEpochMilli();
            if (apply(s.session(), s.job(), s.model(), at, s.totals())) {
                append(updateLine(s.session(), s.job(), s.model(), at, s.totals()));
            }
            if (s.outcome() != null && applyEnd(s.session(), s.outcome())) {
                append(endLine(s.session(), at, s.outcome()));
            }
        }
    }

    public synchronized void close() throws IOException {
        if (out != null) {
            out.close();
            out = null;
        }
    }

    // ---- the counts ----

    private boolean apply(String session, String job, String model, long at, Spend totals) {
        SessionState s = sessions.get(session);
        boolean started = s == null;
        if (started) {
            s = new SessionState(job, model, dayOf(at));
            sessions.put(session, s);
        }
        Spend grown = totals.minus(s.totals);
        boolean newlyMissing = totals.creditsMissing() && !s.totals.creditsMissing();
        if (!started && grown.tokens() <= 0 && grown.premiumRequests() <= 0 && grown.aiCredits() <= 0 && !newlyMissing) {
            return false;
        }
        // totals only grow; a smaller one (a record read twice differently) never takes spend back
        grown = new Spend(Math.max(0, grown.tokens()), Math.max(0, grown.premiumRequests()), Math.max(0, grown.aiCredits()), false);
        s.totals = new Spend(Math.max(s.totals.tokens(), totals.tokens()), Math.max(s.totals.premiumRequests(), totals.premiumRequests()),
                Math.max(s.totals.aiCredits(), totals.aiCredits()), s.totals.creditsMissing() || totals.creditsMissing());
        s.last = at;
        DayTotals day = days.computeIfAbsent(new DayKey(dayOf(at), s.job, s.model), k -> new DayTotals());
        day.spend = day.spend.plus(grown);
        DayTotals startDay = days.computeIfAbsent(new DayKey(s.startDay, s.job, s.model), k -> new DayTotals());
        if (started) {
            startDay.sessions++;
        }
        if (newlyMissing) {
            startDay.sessionsWithoutCredits++;
        }
        if (grown.grew()) {
            addRecent(new Point(at, s.job, grown));
        }
        return true;
    }

    private boolean applyEnd(String session, String outcome) {
        SessionState s = sessions.get(session);
        if (s == null || s.outcome != null) {
            return false;
        }
        s.outcome = outcome;
        days.computeIfAbsent(new DayKey(s.startDay, s.job, s.model), k -> new DayTotals()).outcomes.merge(outcome, 1, Integer::sum);
        return true;
    }

    private void addRecent(Point p) {
        Point last = recent.peekLast();
        if (last != null && last.job.equals(p.job) && last.at <= p.at && p.at - last.at < 1000) {
            // spends of a job within a second are one: a window's edge to the second
            recent.removeLast();
            recent.addLast(new Point(p.at, p.job, last.spend.plus(p.spend)));
        } else if (last == null || last.at <= p.at) {
            recent.addLast(p);
        } else {
            // a rebuilt or replayed spend older than the newest: kept in time order, which freesAt relies on
            List<Point> all = new ArrayList<>(recent);
            all.add(p);
            all.sort(java.util.Comparator.comparingLong(Point::at));
            recent.clear();
            recent.addAll(all);
        }
        long cut = clock.millis() - RECENT.toMillis();
        while (!recent.isEmpty() && recent.peekFirst().at < cut) {
            recent.removeFirst();
        }
    }

    private LocalDate dayOf(long at) {
        return Instant.ofEpochMilli(at).atZone(zone).toLocalDate();
    }

    // ---- the file ----

    private static ObjectNode updateLine(String session, String job, String model, long at, Spend totals) {
        return credits(JSON.createObjectNode().put("u", session).put("j", job).put("m", model).put("at", at)
                .put("tok", totals.tokens()).put("pr", totals.premiumRequests()), totals);
    }

    /**
     * The spend's AI credits on a line: {@code cr} whenever an amount is known (a reported 0 included: a line without
     * it reads as unknown, as lines of versions before AI credits), {@code cm} when some call reported none.
     */
    private static ObjectNode credits(ObjectNode line, Spend spend) {
        if (spend.aiCredits() != 0 || !spend.creditsMissing()) {
            line.put("cr", spend.aiCredits());
        }
        if (spend.creditsMissing()) {
            line.put("cm", true);
        }
        return line;
    }

    private static Spend spend(JsonNode n) {
        // no amount on the line: reported none, or written before AI credits were recorded; unknown either way
        return new Spend(n.get("tok").asLong(), n.get("pr").asDouble(), n.path("cr").asDouble(0),
                n.path("cm").asBoolean(false) || !n.has("cr"));
    }

    private static ObjectNode endLine(String session, long at, String outcome) {
        return JSON.createObjectNode().put("e", session).put("at", at).put("o", outcome);
    }

    private void append(ObjectNode line) throws IOException {
        byte[] bytes = (JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
        linesInFile++;
    }

    private void load() throws IOException {
        // bytes that are not UTF-8 (a damaged file) become replacement characters: that line is skipped, not the file
        try (BufferedReader reader = new BufferedReader(new java.io.InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
            String text;
            while ((text = reader.readLine()) != null) {
                linesInFile++;
                if (text.isBlank()) {
                    continue;
                }
                try {
                    replay(JSON.readTree(text));
                } catch (IOException | RuntimeException e) {
                    skippedLines++;
                }
            }
        }
    }

    private void replay(JsonNode n) {
        if (n.hasNonNull("u")) {
            apply(n.get("u").asText(), text(n, "j"), text(n, "m"), n.get("at").asLong(), spend(n));
        } else if (n.hasNonNull("e")) {
            applyEnd(n.get("e").asText(), text(n, "o"));
        } else if (n.hasNonNull("d")) {
            DayTotals t = days.computeIfAbsent(new DayKey(LocalDate.parse(n.get("d").asText()), text(n, "j"), text(n, "m")), k -> new DayTotals());
            t.spend = t.spend.plus(spend(n));
            t.sessions += n.path("n").asInt();
            t.sessionsWithoutCredits += n.has("nc") || n.has("cr") ? n.path("nc").asInt() : n.path("n").asInt();
            n.path("o").fields().forEachRemaining(o -> t.outcomes.merge(o.getKey(), o.getValue().asInt(), Integer::sum));
        } else if (n.hasNonNull("s")) {
            SessionState s = new SessionState(text(n, "j"), text(n, "m"), LocalDate.parse(n.get("day").asText()));
            s.totals = spend(n);
            s.last = n.get("at").asLong();
            s.outcome = n.hasNonNull("o") ? n.get("o").asText() : null;
            sessions.put(n.get("s").asText(), s);
        } else if (n.hasNonNull("p")) {
            addRecent(new Point(n.get("p").asLong(), text(n, "j"), spend(n)));
        } else {
            throw new IllegalArgumentException("not a ledger line");
        }
    }

    private static String text(JsonNode n, String field) {
        if (!n.hasNonNull(field)) {
            throw new IllegalArgumentException("no " + field);
        }
        return n.get(field).asText();
    }

    private long compactedLines() {
        return days.size() + sessions.size() + recent.size();
    }

    /**
     * Rewrites the file as the days' totals, the sessions still of interest (running, or ended within {@link #RECENT})
     * and the recent spends; days older than the retention are dropped. Written beside and moved over the file.
     */
    private void compact() throws IOException {
        long now = clock.millis();
        LocalDate oldest = dayOf(now).minusDays(retentionDays);
        days.headMap(new DayKey(oldest, "", ""), false).clear();
        for (Iterator<SessionState> i = sessions.values().iterator(); i.hasNext(); ) {
            SessionState s = i.next();
            if (s.outcome != null && s.last < now - RECENT.toMillis()) {
                i.remove();
            }
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        long lines = 0;
        try (var writer = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            for (Map.Entry<DayKey, DayTotals> e : days.entrySet()) {
                ObjectNode line = JSON.createObjectNode().put("d", e.getKey().day.toString()).put("j", e.getKey().job).put("m", e.getKey().model)
                        .put("tok", e.getValue().spend.tokens()).put("pr", e.getValue().spend.premiumRequests()).put("n", e.getValue().sessions);
                credits(line, e.getValue().spend);
                if (e.getValue().sessionsWithoutCredits > 0) {
                    line.put("nc", e.getValue().sessionsWithoutCredits);
                }
                ObjectNode outcomes = line.putObject("o");
                e.getValue().outcomes.forEach(outcomes::put);
                writer.write(JSON.writeValueAsString(line));
                writer.write('\n');
                lines++;
            }
            for (Map.Entry<String, SessionState> e : sessions.entrySet()) {
                SessionState s = e.getValue();
                ObjectNode line = JSON.createObjectNode().put("s", e.getKey()).put("j", s.job).put("m", s.model).put("day", s.startDay.toString())
                        .put("at", s.last).put("tok", s.totals.tokens()).put("pr", s.totals.premiumRequests());
                credits(line, s.totals);
                if (s.outcome != null) {
                    line.put("o", s.outcome);
                }
                writer.write(JSON.writeValueAsString(line));
                writer.write('\n');
                lines++;
            }
            for (Point p : recent) {
                writer.write(JSON.writeValueAsString(credits(JSON.createObjectNode().put("p", p.at).put("j", p.job)
                        .put("tok", p.spend.tokens()).put("pr", p.spend.premiumRequests()), p.spend)));
                writer.write('\n');
                lines++;
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        linesInFile = lines;
    }

    private static final class SessionState {
        final String job;
        final String model;
        final LocalDate startDay;
        Spend totals = Spend.NONE;
        long last;
        String outcome;

        SessionState(String job, String model, LocalDate startDay) {
            this.job = job;
            this.model = model;
            this.startDay = startDay;
        }
    }

    private record Point(long at, String job, Spend spend) {
    }

    private record DayKey(LocalDate day, String job, String model) implements Comparable<DayKey> {
        @Override
        public int compareTo(DayKey o) {
            int c = day.compareTo(o.day);
            if (c == 0) {
                c = job.compareTo(o.job);
            }
            return c != 0 ? c : model.compareTo(o.model);
        }
    }

    private static final class DayTotals {
        Spend spend = Spend.NONE;
        int sessions;
        int sessionsWithoutCredits;
        final Map<String, Integer> outcomes = new TreeMap<>();
    }
}
