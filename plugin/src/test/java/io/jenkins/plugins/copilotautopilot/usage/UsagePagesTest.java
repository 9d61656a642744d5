package io.jenkins.plugins.copilotautopilot.usage;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.cloudbees.hudson.plugins.folder.Folder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import hudson.model.FreeStyleProject;
import io.jenkins.plugins.copilotautopilot.core.quota.Spend;
import io.jenkins.plugins.copilotautopilot.core.quota.UsageLedger;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.htmlunit.html.DomAttr;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlAnchor;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.html.HtmlTableRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * The usage pages (Manage Jenkins » Copilot usage, a folder's or job's Copilot usage) as an administrator reads them:
 * rows newest day first then by tokens, their totals, each job a link (a job deleted since as text), the trend's JSON
 * with every day of the period, what the page says when no quota applies, and no inline script or style (CSP).
 */
@WithJenkins
@Timeout(300)
class UsagePagesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static int sessions;

    /** A finished session of {@code job} on {@code day} (today: now) without AI credits known, as the index counts it. */
    private static void session(String job, String model, LocalDate day, long tokens, double premiumRequests, String outcome) throws Exception {
        session(job, model, day, new Spend(tokens, premiumRequests), outcome);
    }

    private static void session(String job, String model, LocalDate day, Spend spend, String outcome) throws Exception {
        UsageLedger ledger = Usage.get().ledger();
        LocalDate today = LocalDate.now(ledger.zone());
        java.time.Instant at = day.equals(today) ? java.time.Instant.now() : day.atTime(LocalTime.NOON).atZone(ledger.zone()).toInstant();
        ledger.rebuild(List.of(new UsageLedger.SessionSummary("s" + (++sessions), job, model, at, spend, outcome)));
    }

    private static LocalDate today() throws Exception {
        return LocalDate.now(Usage.get().ledger().zone());
    }

    private static List<HtmlTableRow> bodyRows(HtmlPage page) {
        List<HtmlTableRow> rows = new ArrayList<>();
        for (DomNode n : page.querySelectorAll("table.copilot-usage-rows > tbody > tr")) {
            rows.add((HtmlTableRow) n);
        }
        return rows;
    }

    private static String cell(HtmlTableRow row, int column) {
        return row.getCell(column).asNormalizedText().trim();
    }

    private static String footer(HtmlPage page, String cssClass) {
        return page.querySelector("table.copilot-usage-rows > tfoot ." + cssClass).asNormalizedText().trim();
    }

    @Test
    void rowsNewestFirstWithTotalsAndLinksAndNoInlineScriptOrStyle(JenkinsRule j) throws Exception {
        Folder team = j.jenkins.createProject(Folder.class, "team");
        team.createProject(FreeStyleProject.class, "app");
        team.createProject(FreeStyleProject.class, "web");
        LocalDate today = today();
        session("team/app", "gpt-5", today.minusDays(1), 9_000, 1.5, "COMPLETED");
        session("gone", "gpt-5", today.minusDays(3), 100, 0, "FAILED"); // a job deleted since
        session("team/app", "gpt-5", today, 500, 0, "COMPLETED");
        session("team/app", "gpt-5", today, 700, 0, "OVER_BUDGET");
        session("team/web", "claude-sonnet-4.5", today, 2_000, 2, "COMPLETED");

        JenkinsRule.WebClient wc = j.createWebClient().withJavaScriptEnabled(false);
        HtmlPage page = wc.goTo("manage/copilot-usage/");
        List<HtmlTableRow> rows = bodyRows(page);
        List<String> order = rows.stream().map(r -> cell(r, 0) + " " + cell(r, 1) + " " + cell(r, 4)).toList();
        assertThat("newest day first, then the most tokens", order, contains(
                today + " team/web 2,000",
                today + " team/app 1,200",
                today.minusDays(1) + " team/app 9,000",
                today.minusDays(3) + " gone (deleted since) 100"));
        assertEquals("1 COMPLETED", cell(rows.get(0), 7));
        assertEquals("1 COMPLETED, 1 OVER_BUDGET", cell(rows.get(1), 7));
        assertEquals("2", cell(rows.get(1), 6));
        assertEquals("1200", rows.get(1).getCell(4).getAttribute("data-order"), "DataTables sorts the number, not the text");
        // sessions that reported no AI credits (here: as recorded before there were any): not reported, never 0
        assertEquals("not reported", cell(rows.get(1), 3));
        assertEquals("-1", rows.get(1).getCell(3).getAttribute("data-order"), "below any amount, and never added up");
        assertEquals("not reported", footer(page, "copilot-usage-total-credits"));

        // the totals of the rows: 2,000 + 1,200 + 9,000 + 100 tokens, 2 + 1.5 premium requests, 5 sessions
        assertEquals("Total", footer(page, "copilot-usage-total-label"));
        assertEquals("4 rows", footer(page, "copilot-usage-total-rows"));
        assertEquals("12,300", footer(page, "copilot-usage-total-tokens"));
        assertEquals("3.5", footer(page, "copilot-usage-total-premium"));
        assertEquals("5", footer(page, "copilot-usage-total-sessions"));
        assertEquals("{0} rows", ((DomElement) page.querySelector("table.copilot-usage-rows")).getAttribute("data-many-rows"), "what usage.js fills in");

        // each job a link to the job; a job deleted since as text
        HtmlAnchor web = (HtmlAnchor) rows.get(0).getCell(1).querySelector("a");
        assertEquals(j.contextPath + "/job/team/job/web/", web.getHrefAttribute());
        assertEquals(j.contextPath + "/job/team/job/app/", ((HtmlAnchor) rows.get(2).getCell(1).querySelector("a")).getHrefAttribute());
        assertThat(rows.get(3).getCell(1).querySelector("a"), nullValue());
        assertEquals("gone (deleted since)", cell(rows.get(3), 1));
        assertEquals(200, wc.getPage(web.getHrefAttribute().replace(j.contextPath + "/", j.getURL().toString())).getWebResponse().getStatusCode());

        // no quota: what that means and where to set one, in one well-formed paragraph
        DomElement noQuota = page.querySelector("p.copilot-usage-no-quota");
        assertThat(noQuota.asNormalizedText(), containsString("No quota applies here"));
        assertThat(noQuota.asNormalizedText(), containsString("a single session). Administrators set quotas on the System page (Copilot Autopilot quotas)"));
        assertThat(noQuota.asNormalizedText(), containsString("a folder's configuration can add its own"));
        assertEquals(j.contextPath + "/manage/configure", ((HtmlAnchor) noQuota.querySelector("a")).getHrefAttribute());
        String html = page.getWebResponse().getContentAsString();
        assertThat(html, not(containsString("No quota counts here")));
        assertThat(html, not(containsString("&lt;a href")));
        assertThat(page.querySelector("p.copilot-usage-export").asNormalizedText(),
                containsString("Export: CSV · JSON (the last 30 days; add days=N for up to 400)"));
        // premium requests recorded: the chart shows them, no note says there are none
        assertThat(page.querySelector("p.copilot-usage-no-premium"), nullValue());
        DomElement trend = page.querySelector("div.copilot-usage-trend");
        assertEquals(j.contextPath + "/manage/copilot-usage/trend", trend.getAttribute("data-url"));

        // Content-Security-Policy: no inline script, no event handler attribute, no style attribute on the page
        List<String> inline = new ArrayList<>();
        for (DomNode n : page.querySelectorAll("*")) {
            DomElement e = (DomElement) n;
            if (e.getTagName().equals("script") && !e.hasAttribute("src") && !e.getTextContent().isBlank()) {
                inline.add("<script>" + e.getTextContent().strip().lines().findFirst().orElse(""));
            }
            for (DomAttr a : e.getAttributesMap().values()) {
                String name = a.getName().toLowerCase(java.util.Locale.ROOT);
                if (name.startsWith("on") || name.equals("style") && isInMainPanel(e)) {
                    inline.add("<" + e.getTagName() + " " + name + "=\"" + a.getValue() + "\">");
                }
                if (a.getValue().trim().toLowerCase(java.util.Locale.ROOT).startsWith("javascript:")) {
                    inline.add("<" + e.getTagName() + " " + name + "=\"" + a.getValue() + "\">");
                }
            }
        }
        assertThat(inline, empty());

        // the folder's page: its jobs only, linked
        HtmlPage folder = wc.goTo("job/team/copilot-usage/");
        assertThat(bodyRows(folder).stream().map(r -> cell(r, 1)).toList(), contains("team/web", "team/app", "team/app"));
        assertEquals("12,200", footer(folder, "copilot-usage-total-tokens"));
        assertEquals("3 rows", footer(folder, "copilot-usage-total-rows"));
        // the job's page
        // the job's page: its rows, without a column naming the job on each
        HtmlPage app = wc.goTo("job/team/job/app/copilot-usage/");
        assertThat(bodyRows(app).stream().map(r -> cell(r, 0) + " " + cell(r, 1) + " " + cell(r, 3)).toList(),
                contains(today + " gpt-5 1,200", today.minusDays(1) + " gpt-5 9,000"));
        assertThat(app.querySelectorAll("table.copilot-usage-rows .copilot-usage-col-job"), empty());
        assertEquals("10,200", footer(app, "copilot-usage-total-tokens"));
        assertEquals("1.5", footer(app, "copilot-usage-total-premium"));
        assertEquals("3", footer(app, "copilot-usage-total-sessions"));
    }

    /** A style attribute the page's layout sets itself is Jenkins' business; the usage page's own content has none. */
    private static boolean isInMainPanel(DomElement e) {
        for (DomNode n = e; n != null; n = n.getParentNode()) {
            if (n instanceof DomElement d && "main-panel".equals(d.getId())) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aOneDayLedgerHasATrendOfEveryDayOfTheMonthAndSaysThatNoPremiumRequestsWereRecorded(JenkinsRule j) throws Exception {
        j.jenkins.createProject(FreeStyleProject.class, "solo");
        LocalDate today = today();
        session("solo", "my-model", today, 4_200, 0, "COMPLETED");
        session("solo", "my-model", today, 800, 0, "FAILED");

        JenkinsRule.WebClient wc = j.createWebClient().withJavaScriptEnabled(false);
        for (String base : List.of("manage/copilot-usage/", "job/solo/copilot-usage/")) {
            JsonNode trend = JSON.readTree(wc.goTo(base + "trend", "application/json").getWebResponse().getContentAsString());
            JsonNode days = trend.get("days");
            assertEquals(30, days.size(), "every day of the last 30, days without sessions included: " + trend);
            assertEquals(today.minusDays(29).toString(), days.get(0).asText());
            assertEquals(today.toString(), days.get(29).asText());
            for (int i = 1; i < days.size(); i++) {
                assertEquals(LocalDate.parse(days.get(i - 1).asText()).plusDays(1).toString(), days.get(i).asText(), "a day per point");
            }
            assertEquals(5_000, trend.get("tokens").get(29).asLong());
            assertEquals(0, trend.get("tokens").get(28).asLong());
            assertEquals(2, trend.get("sessions").get(29).asInt());
            assertEquals(0, trend.get("premiumRequests").get(29).asDouble());
            assertEquals(false, trend.get("premiumRequestsRecorded").asBoolean());
            assertEquals(false, trend.get("aiCreditsRecorded").asBoolean());
            assertThat("a day with sessions that reported no AI credits: unknown", trend.get("aiCredits").get(29).isNull(), org.hamcrest.Matchers.is(true));
            assertEquals(0, trend.get("aiCredits").get(28).asDouble(), "a day without sessions spent nothing");
            assertThat(trend.get("aiCredits").get(28).isNull(), org.hamcrest.Matchers.is(false));
            assertEquals(2, trend.get("sessionsWithoutAiCredits").get(29).asInt());
            assertEquals(1, trend.get("outcomes").get(29).get("FAILED").asInt());
            assertEquals(0, trend.get("outcomes").get(0).size());
        }
        assertEquals(7, JSON.readTree(wc.goTo("manage/copilot-usage/trend?days=7", "application/json").getWebResponse().getContentAsString())
                .get("days").size());

        HtmlPage page = wc.goTo("manage/copilot-usage/");
        assertThat(page.querySelector("p.copilot-usage-no-premium").asNormalizedText(),
                containsString("No premium requests and no AI credits were recorded in these 30 days (sessions with your own model provider report neither)"));
        assertThat(page.querySelector("p.copilot-usage-credits-not-reported"), nullValue());
        assertThat("the chart is drawn from the JSON, not an image", page.querySelectorAll("img[src$='/trend']"), empty());
        assertEquals("1 row", footer(page, "copilot-usage-total-rows"));
        assertEquals("5,000", footer(page, "copilot-usage-total-tokens"));
    }

    @Test
    void aiCreditsLeadTheNumbersAndWhatWasNotReportedIsNoZero(JenkinsRule j) throws Exception {
        j.jenkins.createProject(FreeStyleProject.class, "paid");
        j.jenkins.createProject(FreeStyleProject.class, "byok");
        j.jenkins.createProject(FreeStyleProject.class, "mixed");
        QuotaConfiguration.get().setQuotas(List.of(new QuotaLimit("AI_CREDITS", "50"), new QuotaLimit("TOKENS", "1000000")));
        LocalDate today = today();
        session("paid", "gpt-5", today, new Spend(1_000, 1, 12.5, false), "COMPLETED");
        session("paid", "gpt-5", today, new Spend(500, 0.5, 0.75, false), "COMPLETED");
        session("byok", "my-model", today, new Spend(90_000, 0, 0, true), "COMPLETED"); // an own provider
        session("mixed", "gpt-5", today, new Spend(300, 0, 3, false), "COMPLETED");
        session("mixed", "gpt-5", today, new Spend(200, 0, 1, true), "FAILED"); // some calls reported none
        session("byok", "my-model", today.minusDays(1), new Spend(5_000, 0, 0, true), "COMPLETED");

        JenkinsRule.WebClient wc = j.createWebClient().withJavaScriptEnabled(false);
        HtmlPage page = wc.goTo("manage/copilot-usage/");
        List<String> headers = new ArrayList<>();
        for (DomNode th : page.querySelectorAll("table.copilot-usage-rows > thead th")) {
            headers.add(th.asNormalizedText().trim());
        }
        assertThat("AI credits first among the numbers", headers,
                contains("Day", "Job", "Model", "AI credits", "Tokens", "Premium requests", "Sessions", "Outcomes"));
        List<HtmlTableRow> rows = bodyRows(page);
        assertThat("newest day first, then the most AI credits (none reported last), then the most tokens",
                rows.stream().map(r -> cell(r, 0) + " " + cell(r, 1) + " " + cell(r, 3) + " " + cell(r, 4)).toList(), contains(
                        today + " paid 13.25 1,500",
                        today + " mixed at least 4 500",
                        today + " byok not reported 90,000",
                        today.minusDays(1) + " byok not reported 5,000"));
        assertEquals("13.25", rows.get(0).getCell(3).getAttribute("data-order"));
        assertEquals("0", rows.get(0).getCell(3).getAttribute("data-without"));
        assertEquals("4", rows.get(1).getCell(3).getAttribute("data-order"));
        assertEquals("1", rows.get(1).getCell(3).getAttribute("data-without"));
        assertEquals("-1", rows.get(2).getCell(3).getAttribute("data-order"));
        assertThat(rows.get(2).getCell(3).querySelector("span.copilot-usage-note"), not(nullValue()));
        // the totals: what was reported, a lower bound as some sessions reported none
        assertEquals("at least 17.25", footer(page, "copilot-usage-total-credits"));
        assertEquals("97,000", footer(page, "copilot-usage-total-tokens"));
        assertEquals("6", footer(page, "copilot-usage-total-sessions"));
        // premium requests and AI credits recorded: no note says there are none; one says what "not reported" means
        assertThat(page.querySelector("p.copilot-usage-no-premium"), nullValue());
        assertThat(page.querySelector("p.copilot-usage-no-credits"), nullValue());
        assertThat(page.querySelector("p.copilot-usage-credits-not-reported").asNormalizedText(),
                containsString("3 sessions reported no AI credits for some or all model calls (an own model provider"));
        assertEquals("AI credits", ((DomElement) page.querySelector("div.copilot-usage-trend")).getAttribute("data-ai-credits-label"));

        // the quotas: the one in AI credits shows what was spent against it like the others, and what it cannot count
        List<String> quotas = new ArrayList<>();
        for (DomNode tr : page.querySelectorAll("table.copilot-usage-quotas > tbody > tr")) {
            quotas.add(((HtmlTableRow) tr).getCell(0).asNormalizedText().trim().replaceAll("\\s+", " ") + " | " + cell((HtmlTableRow) tr, 1));
        }
        assertThat(quotas, contains(
                "the quota of 50 AI credits a day for the controller Sessions whose model calls report no AI credits (an own model provider) "
                        + "are not counted by it. | 17.25 AI credits",
                "the quota of 1,000,000 tokens a day for the controller | 92,000 tokens"));

        // the trend: AI credits per day, null for a day whose sessions reported none, 0 for a day without sessions
        JsonNode trend = JSON.readTree(wc.goTo("manage/copilot-usage/trend", "application/json").getWebResponse().getContentAsString());
        assertEquals(true, trend.get("aiCreditsRecorded").asBoolean());
        assertEquals(17.25, trend.get("aiCredits").get(29).asDouble());
        assertEquals(2, trend.get("sessionsWithoutAiCredits").get(29).asInt());
        assertThat(trend.get("aiCredits").get(28).isNull(), org.hamcrest.Matchers.is(true));
        assertEquals(0, trend.get("aiCredits").get(27).asDouble());
        assertThat(trend.get("aiCredits").get(27).isNull(), org.hamcrest.Matchers.is(false));

        // a job's page: the job that reported none says so in its rows and its totals, and no amount is made up
        HtmlPage byok = wc.goTo("job/byok/copilot-usage/");
        assertThat(bodyRows(byok).stream().map(r -> cell(r, 2)).toList(), contains("not reported", "not reported"));
        assertEquals("not reported", footer(byok, "copilot-usage-total-credits"));
        assertThat(byok.querySelector("p.copilot-usage-no-credits").asNormalizedText(),
                containsString("No premium requests and no AI credits were recorded in these 30 days"));
        JsonNode byokTrend = JSON.readTree(wc.goTo("job/byok/copilot-usage/trend", "application/json").getWebResponse().getContentAsString());
        assertEquals(false, byokTrend.get("aiCreditsRecorded").asBoolean());
        HtmlPage paid = wc.goTo("job/paid/copilot-usage/");
        assertEquals("13.25", cell(bodyRows(paid).get(0), 2));
        assertEquals("13.25", footer(paid, "copilot-usage-total-credits"));
        assertThat(paid.querySelector("p.copilot-usage-credits-not-reported"), nullValue());
    }

    @Test
    void manyRowsArePagedSortedAndTotalledInTheBrowser(JenkinsRule j) throws Exception {
        LocalDate today = today();
        for (int i = 0; i < 40; i++) {
            j.jenkins.createProject(FreeStyleProject.class, "job-" + i);
            session("job-" + i, "gpt-5", today.minusDays(i % 3), 1_000L + i, 0, "COMPLETED");
        }
        JenkinsRule.WebClient wc = j.createWebClient();
        wc.getOptions().setThrowExceptionOnScriptError(false); // HtmlUnit's Rhino cannot read bootstrap5-api's ES2015 classes
        HtmlPage page = wc.goTo("manage/copilot-usage/");
        wc.waitForBackgroundJavaScript(10_000);
        List<HtmlTableRow> rows = bodyRows(page);
        assertEquals(25, rows.size(), "DataTables shows a page of 25 rows");
        assertEquals(today + " job-39", cell(rows.get(0), 0) + " " + cell(rows.get(0), 1), "newest day first, then the most tokens");
        assertThat(page.querySelector(".dt-search input"), not(nullValue()));
        // the footer totals all 40 rows, not the page
        assertEquals("40 rows", footer(page, "copilot-usage-total-rows"));
        assertEquals(String.format(java.util.Locale.ROOT, "%,d", 40 * 1_000 + 39 * 40 / 2), footer(page, "copilot-usage-total-tokens"));

        // a search: the rows found, and the footer totals them (job-3 and job-30 to job-39)
        ((org.htmlunit.html.HtmlInput) page.querySelector(".dt-search input")).type("job-3");
        wc.waitForBackgroundJavaScript(10_000);
        assertEquals(11, bodyRows(page).size());
        assertEquals("Total of the rows found", footer(page, "copilot-usage-total-label"));
        assertEquals("11 rows", footer(page, "copilot-usage-total-rows"));
        assertEquals(String.format(java.util.Locale.ROOT, "%,d", 1_003 + 10 * 1_030 + 45), footer(page, "copilot-usage-total-tokens"));
        assertEquals("11", footer(page, "copilot-usage-total-sessions"));
    }
}
