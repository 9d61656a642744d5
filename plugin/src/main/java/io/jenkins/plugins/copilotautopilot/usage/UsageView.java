package io.jenkins.plugins.copilotautopilot.usage;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Job;
import io.jenkins.plugins.copilotautopilot.core.quota.Quota;
import io.jenkins.plugins.copilotautopilot.core.quota.UsageExport;
import io.jenkins.plugins.copilotautopilot.core.quota.UsageLedger;
import io.jenkins.plugins.copilotautopilot.core.report.TrendSvg;
import io.jenkins.plugins.copilotautopilot.core.session.AiCredits;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jenkins.model.Jenkins;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;

/**
 * What the usage pages show of the index, for the whole controller or one folder or job: the spend per day, job and
 * model with the sessions and their outcomes (newest day first, then the most AI credits, then the most tokens), AI
 * credits first among the numbers (the unit GitHub bills; "not reported" for sessions that reported none, which is not
 * zero), their totals, a trend chart
 * drawn from {@code trend} (JSON: a value per day of the last 30, days without sessions included), the quotas in
 * effect, and the same rows as CSV or JSON ({@code export?format=csv|json&days=N}). Rows are of jobs the user may read
 * only, except on the administrators' page, which also shows jobs deleted since (as text, without a link).
 */
public final class UsageView {
    /** The usage pages' icon, in the sidebar and under Manage Jenkins. */
    static final String ICON = "symbol-stats-chart-outline plugin-ionicons-api";
    static final int DEFAULT_DAYS = 30;
    static final int MAX_DAYS = 400;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The page's order: newest day first, then the most AI credits (unreported last), the most tokens, by job and model. */
    static final Comparator<UsageLedger.DayUsage> PAGE_ORDER = Comparator.comparing(UsageLedger.DayUsage::day).reversed()
            .thenComparing(Comparator.comparingDouble(UsageView::creditsOrder).reversed())
            .thenComparing(Comparator.comparingLong(UsageLedger.DayUsage::tokens).reversed())
            .thenComparing(UsageLedger.DayUsage::job).thenComparing(UsageLedger.DayUsage::model);

    private final String scope;
    private final boolean everything;
    /** The page's rows, read once per page (a view is made for each request). */
    private List<Row> page;

    /**
     * @param scope      a folder's or job's full name, or null for the controller
     * @param everything whether rows of jobs that no longer exist are shown (the administrators' page)
     */
    UsageView(String scope, boolean everything) {
        this.scope = scope;
        this.everything = everything;
    }

    /** The order of AI credits in sorts: unreported below any amount, a reported 0 included. */
    private static double creditsOrder(UsageLedger.DayUsage r) {
        Double credits = r.knownAiCredits();
        return credits == null ? -1 : credits;
    }

    /**
     * A row of the page: a day's spend of one job with one model.
     *
     * @param url                      the job's URL relative to Jenkins' root ({@code job/a/job/b/}), or null for a job
     *                                 deleted since
     * @param aiCredits                the AI credits the row's sessions reported, or null when none did (unknown, not 0)
     * @param sessionsWithoutAiCredits sessions of the row whose model calls (some or all) reported no AI credits: with
     *                                 an amount, it is a lower bound
     */
    public record Row(LocalDate day, String job, @CheckForNull String url, String model, long tokens, double premiumRequests,
                      int sessions, Map<String, Integer> outcomes, @CheckForNull Double aiCredits, int sessionsWithoutAiCredits) {
        /** {@code 2.5}, {@code at least 2.5} when some sessions reported none, or {@code not reported}. */
        public String aiCreditsText() {
            return UsageView.aiCreditsText(aiCredits, sessionsWithoutAiCredits);
        }

        /** What DataTables sorts and totals: the amount, or -1 for none reported (below any amount, never added). */
        public String aiCreditsOrder() {
            return aiCredits == null ? "-1" : BigDecimal.valueOf(Math.round(aiCredits * 1e9) / 1e9).stripTrailingZeros().toPlainString();
        }

        public boolean isAiCreditsReported() {
            return aiCredits != null;
        }

        public String tokensText() {
            return UsageView.tokensText(tokens);
        }

        public String premiumRequestsText() {
            return UsageView.premiumRequestsText(premiumRequests);
        }

        public String sessionsText() {
            return UsageView.sessionsText(sessions);
        }

        public String outcomesText() {
            return UsageView.outcomesText(outcomes);
        }
    }

    /**
     * The totals of the rows shown.
     *
     * @param aiCredits                the AI credits of the rows that reported any, or null when none did
     * @param sessionsWithoutAiCredits sessions whose model calls (some or all) reported none
     */
    public record Totals(int rows, long tokens, double premiumRequests, int sessions, @CheckForNull Double aiCredits,
                         int sessionsWithoutAiCredits) {
        public String aiCreditsText() {
            return UsageView.aiCreditsText(aiCredits, sessionsWithoutAiCredits);
        }

        public boolean isAiCreditsReported() {
            return aiCredits != null;
        }

        public String tokensText() {
            return UsageView.tokensText(tokens);
        }

        public String premiumRequestsText() {
            return UsageView.premiumRequestsText(premiumRequests);
        }

        public String sessionsText() {
            return UsageView.sessionsText(sessions);
        }
    }

    /**
     * A quota that counts for the scope, and what it counts now.
     *
     * @param aiCredits whether it counts AI credits, which sessions that report none (an own provider) do not add to
     */
    public record QuotaState(String description, String spentText, boolean reached, boolean aiCredits) {
    }

    /** The rows of the last {@code days} days, oldest first, of the jobs this user may see. */
    public List<UsageLedger.DayUsage> rows(int days) throws IOException {
        UsageLedger ledger = Usage.get().ledger();
        LocalDate today = LocalDate.now(ledger.zone());
        List<UsageLedger.DayUsage> rows = ledger.days(today.minusDays(days - 1L), today, job -> Usage.within(scope, job));
        if (everything) {
            return rows;
        }
        // each job asked once, and outside the index's lock (an authorization strategy may be slow)
        Map<String, Boolean> readable = new HashMap<>();
        return rows.stream().filter(r -> readable.computeIfAbsent(r.job(), j -> jobUrl(j) != null)).toList();
    }

    /** The job's URL relative to the root, or null when it is gone or this user may not read it. */
    @CheckForNull
    private static String jobUrl(String job) {
        Job<?, ?> j = Jenkins.get().getItemByFullName(job, Job.class); // null for items the user may not read
        return j == null ? null : j.getUrl();
    }

    /** The rows of the last 30 days: newest day first, then the most tokens; each with its job's link. */
    public List<Row> getRows() throws IOException {
        if (page == null) {
            List<UsageLedger.DayUsage> rows = new ArrayList<>(rows(DEFAULT_DAYS));
            rows.sort(PAGE_ORDER);
            Map<String, String> urls = new HashMap<>();
            List<Row> out = new ArrayList<>(rows.size());
            for (UsageLedger.DayUsage r : rows) {
                String url = urls.computeIfAbsent(r.job(), j -> {
                    String u = jobUrl(j);
                    return u == null ? "" : u;
                });
                out.add(new Row(r.day(), r.job(), url.isEmpty() ? null : url, r.model(), r.tokens(), r.premiumRequests(), r.sessions(),
                        r.outcomes(), r.knownAiCredits(), r.sessionsWithoutAiCredits()));
            }
            page = List.copyOf(out);
        }
        return page;
    }

    /** The totals of {@link #getRows()}. */
    public Totals getTotals() throws IOException {
        long tokens = 0;
        double premium = 0;
        int sessions = 0;
        Double credits = null;
        int withoutCredits = 0;
        List<Row> rows = getRows();
        for (Row r : rows) {
            tokens += r.tokens();
            premium += r.premiumRequests();
            sessions += r.sessions();
            Double rowCredits = r.aiCredits();
            if (rowCredits != null) {
                credits = (credits == null ? 0 : credits) + rowCredits;
            }
            withoutCredits += r.sessionsWithoutAiCredits();
        }
        return new Totals(rows.size(), tokens, premium, sessions, credits, withoutCredits);
    }

    /** Whether any session shown recorded premium requests (with one's own model provider none does). */
    public boolean isPremiumRequestsRecorded() throws IOException {
        return getRows().stream().anyMatch(r -> r.premiumRequests() > 0);
    }

    /** Whether any row shown has AI credits reported (with one's own model provider none does). */
    public boolean isAiCreditsRecorded() throws IOException {
        return getRows().stream().anyMatch(r -> r.aiCredits() != null);
    }

    /** AI credits as the log writes them ({@code 1,250.5}, {@code <0.01}); {@code at least} a lower bound; or {@code not reported}. */
    public static String aiCreditsText(@CheckForNull Double credits, int sessionsWithout) {
        if (credits == null) {
            return io.jenkins.plugins.copilotautopilot.Messages.SessionRecord_CreditsNotReported();
        }
        String amount = AiCredits.format(credits);
        return sessionsWithout > 0 ? io.jenkins.plugins.copilotautopilot.Messages.SessionRecord_CreditsAtLeast(amount) : amount;
    }

    /** Tokens as the log writes them: with thousands separators. */
    public static String tokensText(long tokens) {
        return TrendSvg.thousands(tokens);
    }

    /** Premium requests with thousands separators and their fraction as the CLI counts it ({@code 1,234}, {@code 1.5}). */
    public static String premiumRequestsText(double premiumRequests) {
        java.text.DecimalFormat format = new java.text.DecimalFormat("#,##0.####", java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT));
        return format.format(premiumRequests);
    }

    /** Sessions with thousands separators. */
    public static String sessionsText(long sessions) {
        return TrendSvg.thousands(sessions);
    }

    public static String outcomesText(Map<String, Integer> outcomes) {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(outcomes).forEach((o, n) -> text.append(text.length() == 0 ? "" : ", ").append(n).append(' ').append(o));
        return text.toString();
    }

    /** The quotas that count for the scope (a job's, a folder's own and its parents', or the controller's), and their state. */
    public List<QuotaState> getQuotas() throws IOException {
        UsageLedger ledger = Usage.get().ledger();
        hudson.model.Item item = scope == null ? null : Jenkins.get().getItemByFullName(scope);
        Job<?, ?> job = item instanceof Job<?, ?> j ? j : null;
        List<Quota> quotas = job != null ? Usage.quotas(job)
                : item instanceof hudson.model.ItemGroup<?> group ? Usage.quotasOf(group) : QuotaConfiguration.get().controllerQuotas();
        List<QuotaState> states = new ArrayList<>();
        for (Quota q : quotas) {
            if (job == null && q.target() == Quota.Target.EACH_JOB) {
                states.add(new QuotaState(q.describe("counted on each job's page"), "", false, q.metric() == Quota.Metric.AI_CREDITS));
                continue;
            }
            double spent = ledger.spent(q, job == null ? "" : job.getFullName()); // a controller's or folder's counts all it covers
            states.add(new QuotaState(q.describe(job == null ? "" : job.getFullName()), q.metric().format(spent) + " " + q.metric().label(),
                    spent >= q.limit(), q.metric() == Quota.Metric.AI_CREDITS));
        }
        return states;
    }

    /** Whether this is a job's page: every row is of that job (the table has no column naming it). */
    public boolean isJobPage() {
        return scope != null && Jenkins.get().getItemByFullName(scope) instanceof Job<?, ?>;
    }

    /** Whether this user may change the controller's quotas (the System page). */
    public boolean isAdministrator() {
        return Jenkins.get().hasPermission(Jenkins.ADMINISTER);
    }

    /**
     * {@code trend?days=N} (30 by default, at most 400): what the chart draws, as JSON: {@code days} (every day of the
     * period, oldest first, {@code yyyy-MM-dd}, days without sessions included), and per day {@code aiCredits} (null
     * for a day whose spend reported none: unknown, not 0), {@code sessionsWithoutAiCredits} (with an amount, it is a
     * lower bound), {@code tokens}, {@code premiumRequests}, {@code sessions} and {@code outcomes} (outcome: sessions);
     * {@code aiCreditsRecorded} is false when no day has an amount, {@code premiumRequestsRecorded} when every day's
     * premium requests are 0.
     */
    public void doTrend(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        Integer days = days(req, rsp);
        if (days == null) {
            return;
        }
        LocalDate today = LocalDate.now(Usage.get().ledger().zone());
        send(rsp, "application/json;charset=UTF-8", trend(rows(days), today.minusDays(days - 1L), today));
    }

    /** The chart's data: a value per day from {@code from} to {@code to}, both included. */
    static String trend(List<UsageLedger.DayUsage> rows, LocalDate from, LocalDate to) {
        Map<LocalDate, long[]> tokens = new TreeMap<>();
        Map<LocalDate, double[]> premium = new TreeMap<>();
        Map<LocalDate, int[]> sessions = new TreeMap<>();
        Map<LocalDate, Map<String, Integer>> outcomes = new TreeMap<>();
        Map<LocalDate, Double> credits = new TreeMap<>(); // a day without an amount reported is absent
        Map<LocalDate, int[]> withoutCredits = new TreeMap<>();
        for (UsageLedger.DayUsage r : rows) {
            Double known = r.knownAiCredits();
            if (known != null) {
                credits.merge(r.day(), known, Double::sum);
            }
            withoutCredits.computeIfAbsent(r.day(), d -> new int[1])[0] += r.sessionsWithoutAiCredits();
            tokens.computeIfAbsent(r.day(), d -> new long[1])[0] += r.tokens();
            premium.computeIfAbsent(r.day(), d -> new double[1])[0] += r.premiumRequests();
            sessions.computeIfAbsent(r.day(), d -> new int[1])[0] += r.sessions();
            r.outcomes().forEach((o, n) -> outcomes.computeIfAbsent(r.day(), d -> new TreeMap<>()).merge(o, n, Integer::sum));
        }
        ObjectNode json = JSON.createObjectNode();
        ArrayNode dayList = json.putArray("days");
        ArrayNode creditList = json.putArray("aiCredits");
        ArrayNode withoutCreditList = json.putArray("sessionsWithoutAiCredits");
        ArrayNode tokenList = json.putArray("tokens");
        ArrayNode premiumList = json.putArray("premiumRequests");
        ArrayNode sessionList = json.putArray("sessions");
        ArrayNode outcomeList = json.putArray("outcomes");
        boolean anyPremium = false;
        boolean anyCredits = false;
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            dayList.add(d.toString());
            Double c = credits.get(d);
            if (c != null) {
                anyCredits = true;
                creditList.add(Math.round(c * 1e9) / 1e9); // to the nano AI unit: no binary sums' tails
            } else if (tokens.containsKey(d)) {
                creditList.addNull(); // spend, but no amount reported: unknown
            } else {
                creditList.add(0); // nothing spent that day
            }
            withoutCreditList.add(withoutCredits.getOrDefault(d, new int[1])[0]);
            tokenList.add(tokens.getOrDefault(d, new long[1])[0]);
            double p = premium.getOrDefault(d, new double[1])[0];
            anyPremium |= p > 0;
            premiumList.add(p);
            sessionList.add(sessions.getOrDefault(d, new int[1])[0]);
            ObjectNode o = outcomeList.addObject();
            outcomes.getOrDefault(d, Map.of()).forEach(o::put);
        }
        json.put("aiCreditsRecorded", anyCredits);
        json.put("premiumRequestsRecorded", anyPremium);
        return json.toString();
    }

    /** {@code export?format=csv|json&days=N} (30 by default, at most 400): the rows, oldest first. */
    public void doExport(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        Integer days = days(req, rsp);
        if (days == null) {
            return;
        }
        List<UsageLedger.DayUsage> rows = rows(days);
        if ("csv".equals(req.getParameter("format"))) {
            rsp.setHeader("Content-Disposition", "attachment; filename=copilot-usage.csv");
            send(rsp, "text/csv;charset=UTF-8", UsageExport.csv(rows));
        } else {
            send(rsp, "application/json;charset=UTF-8", UsageExport.json(rows));
        }
    }

    /** The request's {@code days} (30 by default, at most 400), or null when it is no number (400 sent). */
    @CheckForNull
    private static Integer days(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        String given = req.getParameter("days");
        if (given == null) {
            return DEFAULT_DAYS;
        }
        try {
            return Math.max(1, Math.min(MAX_DAYS, Integer.parseInt(given.trim())));
        } catch (NumberFormatException e) {
            rsp.sendError(400, "days must be a whole number of days, not " + given);
            return null;
        }
    }

    private static void send(StaplerResponse2 rsp, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        rsp.setContentType(type);
        rsp.setHeader("X-Content-Type-Options", "nosniff");
        rsp.setContentLength(bytes.length);
        rsp.getOutputStream().write(bytes);
    }
}
