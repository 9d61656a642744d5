package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.testing.RecordedSessions;

import hudson.markup.RawHtmlMarkupFormatter;
import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Agent text is untrusted (prompt injection can put anything in a summary): even with the "Safe HTML" markup
 * formatter, which lets links through in descriptions, a summary's link and Markdown link stay inert text on the
 * build page, the session page and the badge tooltip.
 */
@WithJenkins
class AgentTextTest {
    static final String INJECTED = "Done. See <a href=\"https://evil.example\">x</a> and [y](javascript:alert(1))\nsecond line";

    private JenkinsRule j;
    private FreeStyleProject project;
    private FreeStyleBuild build;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        j.jenkins.setMarkupFormatter(new RawHtmlMarkupFormatter(false));
        project = j.createFreeStyleProject();
        build = j.buildAndAssertSuccess(project);
        RecordedSessions.into(build).withSummary(INJECTED).record("build-step-1");
    }

    private static void assertInert(HtmlPage page, String where) {
        assertTrue(page.querySelectorAll("a[href='https://evil.example']").isEmpty(), "no link from the summary on " + where);
        assertTrue(page.querySelectorAll("a[href^='javascript']").isEmpty(), "no javascript: link on " + where);
        assertThat(page.getWebResponse().getContentAsString(), not(containsString("<a href=\"https://evil.example\">")));
    }

    @Test
    void theSummaryIsTextOnTheBuildPage() throws Exception {
        HtmlPage page = j.createWebClient().getPage(build);
        assertInert(page, "the build page");
        DomElement summary = (DomElement) page.querySelector(".copilot-autopilot-summary .copilot-plain");
        assertThat(summary.getTextContent(), containsString("<a href=\"https://evil.example\">x</a>"));
        assertThat(summary.getTextContent(), containsString("[y](javascript:alert(1))\nsecond line"));
    }

    @Test
    void theSummaryIsTextOnTheSessionPage() throws Exception {
        HtmlPage page = j.createWebClient().getPage(build, CopilotAutopilotRunAction.URL_NAME + "/");
        assertInert(page, "the session page");
        assertThat(page.querySelector(".copilot-session .copilot-plain").getTextContent(),
                containsString("<a href=\"https://evil.example\">x</a>"));
    }

    @Test
    void theBadgeTooltipIsText() throws Exception {
        JenkinsRule.WebClient wc = j.createWebClient();
        HtmlPage page = wc.getPage(project);
        wc.waitForBackgroundJavaScript(5_000);
        assertInert(page, "the job page");
        DomElement icon = (DomElement) page.querySelector(".copilot-autopilot-badge [tooltip]");
        assertNotNull(icon, "the badge has a plain-text tooltip");
        assertThat(icon.getAttribute("tooltip"), containsString("<a href=\"https://evil.example\">x</a>"));
        assertTrue(icon.getAttribute("data-html-tooltip").isEmpty(), "no HTML tooltip");
    }
}
