package io.jenkins.plugins.copilotautopilot;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/** What people see: the badge, the build page summary, the session page, the downloads and the REST API. */
@WithJenkins
class CopilotAutopilotPagesTest {
    static final String HOSTILE = "Done <img src=x onerror=alert(1)> \"quoted\" <script>alert(2)</script>";

    private JenkinsRule j;
    @TempDir
    Path tmp;
    private WorkflowJob job;
    private WorkflowRun build;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").withSummary(HOSTILE)
                .sayingFirst("the token is $COPILOT_GITHUB_TOKEN").write();
        job = j.createProject(WorkflowJob.class, "p");
        job.setDefinition(new CpsFlowDefinition("node { copilotAutopilot prompt: 'Create hello.txt',"
                + " credentialsId: 'copilot-token', copilotPath: '" + cli + "' }", true));
        build = j.buildAndAssertSuccess(job);
    }

    private String sessionId() {
        return build.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getInvocationId();
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
        String html = page.getWebResponse().getContentAsString() + badge.asXml();
        assertThat(html, not(containsString("<img src=x onerror")));
        assertTrue(page.querySelectorAll("img[onerror]").isEmpty());
        assertThat(html, not(containsString("<script>alert(2)")));
    }

    @Test
    void buildPageShowsTheSummaryThroughTheMarkupFormatter() throws Exception {
        HtmlPage page = j.createWebClient().getPage(build);
        DomNode summary = page.querySelector(".copilot-autopilot-summary");
        assertNotNull(summary);
        assertThat(summary.asNormalizedText(), containsString("COMPLETED: The agent called task_complete after 2 turns."));
        assertThat(summary.asNormalizedText(), containsString(HOSTILE));
        assertThat(summary.asNormalizedText(), containsString("2 turns, 2 tool calls (0 failed, 0 denied)"));
        assertTrue(page.querySelectorAll(".copilot-autopilot-summary img").isEmpty());
        assertTrue(page.querySelectorAll(".copilot-autopilot-summary script").isEmpty());
    }

    @Test
    void sessionPageShowsTheReportTheTimelineAndTheConversation() throws Exception {
        HtmlPage page = j.createWebClient().getPage(build, CopilotAutopilotRunAction.URL_NAME + "/");
        String text = page.asNormalizedText();
        assertThat(text, containsString("Turn 1"));
        assertThat(text, containsString("Turn 2"));
        assertThat(text, containsString("Create hello.txt"));
        assertThat(text, containsString("the token is ****"));
        assertThat(text, not(containsString(TestCredentials.TOKEN)));
        assertEquals(2, page.querySelectorAll("details.copilot-turn").size());
        assertNotNull(page.querySelector("img.copilot-timeline[src='timeline?id=" + sessionId() + "']"));
        assertTrue(page.querySelectorAll("section img[onerror]").isEmpty());
    }

    @Test
    void timelineAndJournalDownloadsWorkAndHoldNoSecret() throws Exception {
        JenkinsRule.WebClient wc = j.createWebClient();
        String base = build.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/";

        String svg = wc.goTo(base + "timeline?id=" + sessionId(), "image/svg+xml").getWebResponse().getContentAsString();
        assertThat(svg, startsWith("<svg "));
        assertThat(svg, not(containsString("<script")));
        assertThat(svg, not(containsString("<img")));

        String journal = wc.goTo(base + "journal?id=" + sessionId(), "application/x-ndjson").getWebResponse().getContentAsString();
        assertThat(journal, containsString("\"type\":\"autopilot.run_started\""));
        assertThat(journal, containsString("the token is ****"));
        assertThat(journal, not(containsString(TestCredentials.TOKEN)));

        wc.assertFails(base + "journal?id=../../../../secrets/master.key", 404);
    }

    @Test
    void restApiHasOutcomeSummaryAndCountsButNoSecret() throws Exception {
        String json = j.createWebClient().goTo(build.getUrl() + "api/json?depth=2", "application/json")
                .getWebResponse().getContentAsString();
        assertThat(json, containsString("\"outcome\":\"COMPLETED\""));
        assertThat(json, containsString("\"turns\":2"));
        assertThat(json, containsString("\"worstOutcome\":\"COMPLETED\""));
        assertThat(json, not(containsString(TestCredentials.TOKEN)));
    }

    @Test
    void jobPageShowsTheLastOutcomeAndTheTrend() throws Exception {
        j.buildAndAssertSuccess(job);
        JenkinsRule.WebClient wc = j.createWebClient();
        HtmlPage page = wc.getPage(job);
        assertNotNull(page.querySelector(".copilot-autopilot-trend img[src$='copilot-autopilot-trend/trend']"));
        String svg = wc.goTo(job.getUrl() + "copilot-autopilot-trend/trend", "image/svg+xml").getWebResponse().getContentAsString();
        assertEquals(6, svg.split("<g class=\"bar\">", -1).length - 1); // 2 builds x 3 charts
    }
}
