package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.testing.RecordedSessions;
import io.jenkins.plugins.copilotautopilot.testing.RestSessions;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What people see: the badge, the build page summary, the session page, the downloads, the REST API and the job
 * page. The sessions are recorded into finished builds ({@link RecordedSessions}): no step or CLI runs here.
 */
@WithJenkins
class CopilotAutopilotPagesTest {
    static final String HOSTILE = "Done <img src=x onerror=alert(1)> \"quoted\" <script>alert(2)</script>";

    private JenkinsRule j;
    private WorkflowJob job;
    private WorkflowRun build;
    private SessionRecord session;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        job = TestPipelines.create(j, "echo 'no Copilot here'");
        build = j.buildAndAssertSuccess(job);
        session = RecordedSessions.into(build).withSummary(HOSTILE).sayingFirst("the token is " + TestCredentials.TOKEN)
                .record("node-7");
    }

    @Test
    void badgeTooltipIsPlainEscapedText() throws Exception {
        CopilotAutopilotRunAction action = build.getAction(CopilotAutopilotRunAction.class);
        assertEquals("Copilot COMPLETED: " + HOSTILE, action.getBadgeTooltip());

        JenkinsRule.WebClient wc = j.createWebClient();
        HtmlPage page = wc.getPage(job);
        wc.waitForBackgroundJavaScript(5_000);
        DomNode badge = page.querySelector(".copilot-autopilot-badge");
        assertNotNull(badge, "the badge is in the build history");
        assertNotNull(page.querySelector(".copilot-autopilot-badge [tooltip]"), "the tooltip is a plain-text attribute");
        String html = page.getWebResponse().getContentAsString() + badge.asXml();
        assertThat(html, not(containsString("<img src=x onerror")));
        assertTrue(page.querySelectorAll("img[onerror]").isEmpty());
        assertThat(html, not(containsString("<script>alert(2)")));
    }

    @Test
    void buildPageShowsTheSummaryAsPlainText() throws Exception {
        HtmlPage page = j.createWebClient().getPage(build);
        DomNode summary = page.querySelector(".copilot-autopilot-summary");
        assertNotNull(summary);
        assertThat(summary.asNormalizedText(), containsString("COMPLETED: The agent called task_complete after 2 turns."));
        assertThat(summary.asNormalizedText(), containsString(HOSTILE));
        assertThat(summary.asNormalizedText(), containsString("2 turns, 2 tool calls (0 failed, 0 denied)"));
        assertNotNull(page.querySelector(".copilot-autopilot-summary .copilot-summary.copilot-plain"));
        assertTrue(page.querySelectorAll(".copilot-autopilot-summary img").isEmpty());
        assertTrue(page.querySelectorAll(".copilot-autopilot-summary script").isEmpty());
    }

    @Test
    void theSummaryKeepsItsLineBreaks() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        RecordedSessions.into(b).withSummary("Fixed two things:\n- the parser\n- the test").record("build-step-1");

        HtmlPage page = j.createWebClient().getPage(b);
        DomNode summary = page.querySelector(".copilot-autopilot-summary .copilot-plain");
        assertEquals("Fixed two things:\n- the parser\n- the test", summary.getTextContent());
        assertTrue(page.querySelectorAll(".copilot-autopilot-summary br").isEmpty(), "line breaks are text, kept by CSS");
    }

    @Test
    void sessionPageShowsTheReportTheTimelineAndTheConversation() throws Exception {
        HtmlPage page = j.createWebClient().getPage(build, CopilotAutopilotRunAction.URL_NAME + "/");
        String text = page.asNormalizedText();
        assertThat(text, containsString("Turn 1"));
        assertThat(text, containsString("Turn 2"));
        assertThat(text, containsString("1 tool call"));
        assertThat(text, containsString(HOSTILE));
        String collapsed = page.getBody().getTextContent(); // the task and the turns are in closed <details>
        assertThat(collapsed, containsString("Do the task"));
        assertThat(collapsed, containsString("the token is ****"));
        assertThat(collapsed, not(containsString(TestCredentials.TOKEN)));
        assertEquals(2, page.querySelectorAll("details.copilot-turn").size());
        assertNotNull(page.querySelector("img.copilot-timeline[src='timeline?id=node-7']"));
        assertNotNull(page.querySelector("a.copilot-journal[href='journal?id=node-7']"));
        assertTrue(page.querySelectorAll("section img[onerror]").isEmpty());
        assertTrue(page.querySelectorAll("section script").isEmpty());
        assertNull(page.querySelector(".copilot-hidden"), "an administrator sees everything");
        assertThat(page.querySelector("li.copilot-tool-SUCCEEDED").asNormalizedText(), containsString("succeeded in"));
    }

    @Test
    void timelineAndJournalDownloadsWorkAndHoldNoSecret() throws Exception {
        JenkinsRule.WebClient wc = j.createWebClient();
        String base = build.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/";

        String svg = wc.goTo(base + "timeline?id=node-7", "image/svg+xml").getWebResponse().getContentAsString();
        assertThat(svg, startsWith("<svg "));
        assertThat(svg, not(containsString("<script")));
        assertThat(svg, not(containsString("<img")));

        String journal = wc.goTo(base + "journal?id=node-7", "application/x-ndjson").getWebResponse().getContentAsString();
        assertThat(journal, containsString("\"type\":\"autopilot.run_started\""));
        assertThat(journal, containsString("the token is ****"));
        assertThat(journal, not(containsString(TestCredentials.TOKEN)));

        wc.assertFails(base + "journal?id=../../../../secrets/master.key", 404);
        wc.assertFails(base + "timeline?id=nope", 404);
    }

    @Test
    void restApiHasOutcomeSummaryAndCountsButNoSecret() throws Exception {
        String json = j.createWebClient().goTo(build.getUrl() + "api/json?depth=2", "application/json")
                .getWebResponse().getContentAsString();
        assertThat(json, containsString("\"worstOutcome\":\"COMPLETED\""));
        assertThat(json, not(containsString(TestCredentials.TOKEN)));
        // each part of the result nested under its name, as the record keeps it
        var rest = RestSessions.of(j.createWebClient(), build).path(0);
        assertEquals(session.getInvocationId(), rest.path("invocationId").asText(), rest.toString());
        assertEquals("COMPLETED", rest.path("ending").path("outcome").asText());
        assertEquals(HOSTILE, rest.path("ending").path("summary").asText());
        assertEquals(2, rest.path("activity").path("turns").asInt());
        assertEquals(2, rest.path("activity").path("toolCalls").asInt());
    }

    @Test
    void oneTurnOneToolCallAndOneFileAreSingular() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        RecordedSessions.recordNumbers(b, "build-step-1", Outcome.COMPLETED, "Done.", 1, 1, 1);

        JenkinsRule.WebClient wc = j.createWebClient();
        String summary = wc.getPage(b).querySelector(".copilot-autopilot-summary").asNormalizedText();
        assertThat(summary, containsString("1 turn, 1 tool call (0 failed, 0 denied)"));
        assertThat(summary, not(containsString("1 turns")));
        assertThat(summary, not(containsString("1 tool calls")));
        String sessionPage = wc.getPage(b, CopilotAutopilotRunAction.URL_NAME + "/").asNormalizedText();
        assertThat(sessionPage, containsString("+1 -1 lines in 1 file"));
        assertThat(sessionPage, not(containsString("1 files")));

        RecordedSessions.recordNumbers(b, "build-step-2", Outcome.INCOMPLETE, "Not done.", 3, 0, 2);
        assertEquals("Copilot: 2 sessions, worst outcome INCOMPLETE", b.getAction(CopilotAutopilotRunAction.class).getBadgeTooltip());
        String both = wc.getPage(b).querySelector(".copilot-autopilot-summary").asNormalizedText();
        assertThat(both, containsString("3 turns, 0 tool calls"));
    }

    @Test
    void aSessionStoppedBeforeItHadAnIdShowsOnlyItsExitCode() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        SessionResult stopped = new SessionResult(new Ending(Outcome.ABORTED, "The build was aborted.", null, null, null, 143, 900L,
                null, null));
        CopilotAutopilotRunAction.record(b, new SessionRecord("build-step-1", "build-step-1.jsonl", stopped));

        HtmlPage page = j.createWebClient().getPage(b, CopilotAutopilotRunAction.URL_NAME + "/");
        String numbers = page.querySelector(".copilot-numbers").asNormalizedText();
        assertThat(numbers, containsString("Exit code\t143"));
        assertThat(numbers, not(containsString("Session")));
    }

    @Test
    void jobPageShowsTheLastOutcomeAndTheTrend() throws Exception {
        WorkflowRun second = j.buildAndAssertSuccess(job);
        RecordedSessions.into(second).record("node-7");
        JenkinsRule.WebClient wc = j.createWebClient();
        HtmlPage page = wc.getPage(job);
        assertNotNull(page.querySelector(".copilot-autopilot-trend img[src$='copilot-autopilot-trend/trend']"));
        DomElement last = (DomElement) page.querySelector(".copilot-autopilot-trend .copilot-session");
        assertThat(last.asNormalizedText(), containsString("Last build with a Copilot session: #2, COMPLETED: "));
        assertThat(last.asNormalizedText(), not(containsString("Copilot COMPLETED")));
        String svg = wc.goTo(job.getUrl() + "copilot-autopilot-trend/trend", "image/svg+xml").getWebResponse().getContentAsString();
        assertEquals(8, svg.split("<g class=\"bar\">", -1).length - 1); // 2 builds x 4 charts
    }
}
