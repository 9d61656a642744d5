package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.testing.RecordedSessions;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Job;
import hudson.model.Run;
import java.util.List;
import jenkins.tasks.SimpleBuildStep;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trend on the job page comes from the last successful build's {@link SimpleBuildStep.LastBuildAction} (core's
 * factory, for Freestyle and Pipeline jobs alike) and stays after builds that ran no Copilot session.
 */
@WithJenkins
class TrendTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(JenkinsRule rule) {
        this.j = rule;
    }

    private static List<CopilotAutopilotProjectAction> trends(Job<?, ?> job) {
        return job.getActions(CopilotAutopilotProjectAction.class);
    }

    private void assertTrendShows(Job<?, ?> job, Run<?, ?> lastWithSession) throws Exception {
        assertEquals(1, trends(job).size(), "one trend");
        assertSame(lastWithSession, trends(job).get(0).getLastSessions().getRun());
        HtmlPage page = j.createWebClient().getPage(job);
        assertNotNull(page.querySelector(".copilot-autopilot-trend img[src$='copilot-autopilot-trend/trend']"));
        DomElement last = (DomElement) page.querySelector(".copilot-autopilot-trend .copilot-session a");
        assertThat(last.getAttribute("href"), containsString(lastWithSession.getUrl() + CopilotAutopilotRunAction.URL_NAME));
    }

    @Test
    void theRunActionIsTheLastBuildAction() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        RecordedSessions.into(b).record("build-step-1");
        assertTrue(b.getAction(CopilotAutopilotRunAction.class) instanceof SimpleBuildStep.LastBuildAction);
        assertEquals(1, b.getAction(CopilotAutopilotRunAction.class).getProjectActions().size());
    }

    @Test
    void aFreestyleJobKeepsItsTrendAfterABuildWithoutASession() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        FreeStyleBuild first = j.buildAndAssertSuccess(p);
        assertTrue(trends(p).isEmpty(), "no Copilot session yet");
        RecordedSessions.into(first).record("build-step-1");
        assertTrendShows(p, first);

        FreeStyleBuild second = j.buildAndAssertSuccess(p);

        assertNull(second.getAction(CopilotAutopilotRunAction.class));
        assertEquals(1, second.getAction(CopilotAutopilotTrendCarrier.class).getBuildsSinceSession());
        assertTrendShows(p, first);
    }

    @Test
    void aPipelineJobGetsTheTrendTheSameWay() throws Exception {
        WorkflowJob p = TestPipelines.create(j, "echo 'no Copilot here'");
        WorkflowRun first = j.buildAndAssertSuccess(p);
        RecordedSessions.into(first).record("node-3");
        assertTrendShows(p, first);

        WorkflowRun second = j.buildAndAssertSuccess(p);

        assertNotNull(second.getAction(CopilotAutopilotTrendCarrier.class));
        assertTrendShows(p, first);
        String svg = j.createWebClient().goTo(p.getUrl() + "copilot-autopilot-trend/trend", "image/svg+xml")
                .getWebResponse().getContentAsString();
        assertEquals(4, svg.split("<g class=\"bar\">", -1).length - 1); // 1 build with a session x 4 charts (turns, duration, premium requests, tokens)
    }

    @Test
    void theTrendGoesAfterTwentyBuildsWithoutASession() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        RecordedSessions.into(j.buildAndAssertSuccess(p)).record("build-step-1");
        for (int i = 1; i <= CopilotAutopilotTrendCarrier.MAX_BUILDS; i++) {
            FreeStyleBuild b = j.buildAndAssertSuccess(p);
            assertEquals(i, b.getAction(CopilotAutopilotTrendCarrier.class).getBuildsSinceSession());
        }
        assertEquals(1, trends(p).size());

        FreeStyleBuild later = j.buildAndAssertSuccess(p);

        assertNull(later.getAction(CopilotAutopilotTrendCarrier.class));
        assertTrue(trends(p).isEmpty());
    }

    @Test
    void jobsThatNeverRanASessionGetNothing() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        j.buildAndAssertSuccess(p);
        FreeStyleBuild second = j.buildAndAssertSuccess(p);
        assertNull(second.getAction(CopilotAutopilotTrendCarrier.class));
        assertTrue(trends(p).isEmpty());
        HtmlPage page = j.createWebClient().getPage(p);
        assertTrue(page.querySelectorAll(".copilot-autopilot-trend").isEmpty());
    }
}
