package io.jenkins.plugins.copilotautopilot.usage;

import hudson.model.Job;
import io.jenkins.plugins.copilotautopilot.core.quota.Quota;
import io.jenkins.plugins.copilotautopilot.pages.Outcomes;
import io.jenkins.plugins.copilotautopilot.core.quota.UsageExport;
import io.jenkins.plugins.copilotautopilot.core.quota.UsageLedger;
import io.jenkins.plugins.copilotautopilot.core.report.TrendSvg;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jenkins.model.Jenkins;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;

/**
 * What the usage pages show of the index, for the whole controller or one folder or job: the spend per day, job and
 * model with the sessions and their outcomes, a trend chart, the quotas in effect, and the same rows as CSV or JSON
 * ({@code export?format=csv|json&days=N}). Rows are of jobs the user may read only, except on the administrators' page,
 * which also shows jobs deleted since.
 */
public final class UsageView {
    /** The usage pages' icon, in the sidebar and under Manage Jenkins. */
    static final String ICON = "symbol-stats-chart-outline plugin-ionicons-api";
    static final int DEFAULT_DAYS = 30;
    static final int MAX_DAYS = 400;

    private final String scope;
    private final boolean everything;

    /**
     * @param scope      a folder's or job's full name, or null for the controller
     * @param everything whether rows of jobs that no longer exist are shown (the administrators' page)
     */
    UsageView(String scope, boolean everything) {
        this.scope = scope;
        this.everything = everything;
    }

    /** A day's totals over the rows shown. */
    public record Day(LocalDate day, long tokens, double premiumRequests, int sessions, String worstOutcome) {
    }

    /** A quota that counts for the scope, and what it counts now. */
    public record QuotaState(String description, String spentText, boolean reached) {
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
        Map<String, Boolean> readable = new java.util.HashMap<>();
        return rows.stream().filter(r -> readable.computeIfAbsent(r.job(), UsageView::readable)).toList();
    }

    private static boolean readable(String job) {
        return Jenkins.get().getItemByFullName(job, Job.class) != null; // null for items the user may not read
    }

    public List<UsageLedger.DayUsage> getRows() throws IOException {
        List<UsageLedger.DayUsage> rows = new ArrayList<>(rows(DEFAULT_DAYS));
        java.util.Collections.reverse(rows); // newest first on the page
        return rows;
    }

    public List<Day> getDays() throws IOException {
        return days(rows(DEFAULT_DAYS));
    }

    static List<Day> days(List<UsageLedger.DayUsage> rows) {
        Map<LocalDate, long[]> tokens = new TreeMap<>();
        Map<LocalDate, double[]> premium = new TreeMap<>();
        Map<LocalDate, int[]> sessions = new TreeMap<>();
        Map<LocalDate, String> worst = new TreeMap<>();
        for (UsageLedger.DayUsage r : rows) {
            tokens.computeIfAbsent(r.day(), d -> new long[1])[0] += r.tokens();
            premium.computeIfAbsent(r.day(), d -> new double[1])[0] += r.premiumRequests();
            sessions.computeIfAbsent(r.day(), d -> new int[1])[0] += r.sessions();
            for (String outcome : r.outcomes().keySet()) {
                worst.merge(r.day(), outcome, (a, b) -> Outcomes.worst(List.of(a, b)));
            }
        }
        List<Day> out = new ArrayList<>();
        tokens.forEach((day, t) -> out.add(new Day(day, t[0], premium.get(day)[0], sessions.get(day)[0], worst.get(day))));
        return out;
    }

    /** Tokens as the log writes them: with thousands separators. */
    public static String tokensText(long tokens) {
        return TrendSvg.thousands(tokens);
    }

    public static String premiumRequestsText(double premiumRequests) {
        return Texts.number(premiumRequests);
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
                states.add(new QuotaState(q.describe("counted on each job's page"), "", false));
                continue;
            }
            double spent = ledger.spent(q, job == null ? "" : job.getFullName()); // a controller's or folder's counts all it covers
            states.add(new QuotaState(q.describe(job == null ? "" : job.getFullName()), q.metric().format(spent) + " " + q.metric().label(),
                    spent >= q.limit()));
        }
        return states;
    }

    /** {@code trend}: tokens, premium requests and sessions per day over the last 30 days (SVG). */
    public void doTrend(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        List<Day> days = getDays();
        String svg = TrendSvg.render("Copilot usage per day in the last " + DEFAULT_DAYS + " days",
                days.stream().map(d -> d.day().toString()).toList(), days.stream().map(Day::worstOutcome).toList(), List.of(
                        new TrendSvg.Series("Tokens", days.stream().mapToDouble(Day::tokens).toArray(), TrendSvg::thousands),
                        new TrendSvg.Series("Premium requests", days.stream().mapToDouble(Day::premiumRequests).toArray(), v -> Texts.number(v)),
                        new TrendSvg.Series("Sessions", days.stream().mapToDouble(Day::sessions).toArray(), v -> Texts.number(v))));
        send(rsp, "image/svg+xml;charset=UTF-8", svg);
    }

    /** {@code export?format=csv|json&days=N} (30 by default, at most 400): the rows, oldest first. */
    public void doExport(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        int days = DEFAULT_DAYS;
        String given = req.getParameter("days");
        if (given != null) {
            try {
                days = Math.max(1, Math.min(MAX_DAYS, Integer.parseInt(given.trim())));
            } catch (NumberFormatException e) {
                rsp.sendError(400, "days must be a whole number of days, not " + given);
                return;
            }
        }
        List<UsageLedger.DayUsage> rows = rows(days);
        if ("csv".equals(req.getParameter("format"))) {
            rsp.setHeader("Content-Disposition", "attachment; filename=copilot-usage.csv");
            send(rsp, "text/csv;charset=UTF-8", UsageExport.csv(rows));
        } else {
            send(rsp, "application/json;charset=UTF-8", UsageExport.json(rows));
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
