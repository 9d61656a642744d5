package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotBuilder;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotConfiguration;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.htmlunit.Page;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the model calls used and what the agent changed in the git work tree, through a real build: the usage
 * comes from the CLI's session state and the changes from the launch script's git snapshots, as with the real CLI.
 * Budgets stop the CLI and fail the build OVER_BUDGET.
 */
@WithJenkins
class UsageAndChangesTest {
    static final String HOSTILE_NAME = "<img src=x onerror=alert(1)>.txt";
    static final String HOSTILE_CONTENT = "<script>alert(2)</script>\n";

    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
    }

    private static String step(Path cli, String more) {
        return "copilotAutopilot prompt: 'Create hello.txt', credentialsId: 'copilot-token', copilotPath: '" + cli + "'" + more;
    }

    @Test
    void tokensAndChangedFilesReachTheLogTheMapThePagesAndTheTrend() throws Exception {
        Path cli = FakeCopilot.in(tmp).usingTokens(1200, 30).writingFile("hello.txt", "hello\n")
                .writingFile(HOSTILE_NAME, HOSTILE_CONTENT).write();
        WorkflowJob p = TestPipelines.create(j, "node {\n" + TestPipelines.GIT_WORK_TREE
                + "  def r = " + step(cli, "") + "\n"
                + "  echo \"tokens=${r.inputTokens}/${r.outputTokens} files=${r.changedFiles.collect { it.path + ':' + it.status + ':' + it.linesAdded }.sort()}"
                + " added=${r.linesAdded} modified=${r.filesModified}\"\n"
                + "}");
        WorkflowRun b = j.buildAndAssertSuccess(p);

        // read in turn 1, or later (then the line names turn 1): when is up to the poll
        assertTrue(JenkinsRule.getLog(b).lines().anyMatch(l -> l.matches("\\[copilot]   tokens( \\(turn 1\\))?: 1,200 in, 30 out")),
                "a tokens line for turn 1");
        j.assertLogContains("Changed: 2 files (+2 -0)", b);
        j.assertLogContains("tokens=1200/30 files=[" + HOSTILE_NAME + ":added:1, hello.txt:added:1] added=2 modified=2", b);

        SessionRecord session = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0);
        assertEquals(1200L, session.getUsage().getInputTokens());
        assertEquals(List.of("<img src=x onerror=alert(1)>.txt", "hello.txt"),
                session.getChanges().getFiles().stream().map(ChangedFileRecord::getPath).sorted().toList());

        JenkinsRule.WebClient wc = j.createWebClient();
        HtmlPage buildPage = wc.getPage(b);
        String summary = buildPage.querySelector(".copilot-autopilot-summary").asNormalizedText();
        assertThat(summary, containsString("Tokens: 1,200 in / 30 out"));
        assertThat(summary, containsString("Changes: +2 -0 lines in 2 files"));

        HtmlPage page = wc.getPage(b, CopilotAutopilotRunAction.URL_NAME + "/");
        DomNode changes = page.querySelector("details.copilot-changes");
        assertNotNull(changes, "the session page lists the changes");
        assertThat(changes.getTextContent(), containsString(HOSTILE_NAME));
        assertThat(changes.getTextContent(), containsString("hello.txt"));
        assertEquals(2, page.querySelectorAll("pre.copilot-diff-text").size(), "an administrator sees each file's diff");
        assertThat(page.getBody().getTextContent(), containsString("+" + HOSTILE_CONTENT.strip()));
        assertTrue(page.querySelectorAll("img[onerror]").isEmpty(), "a file name is text");
        assertTrue(page.querySelectorAll(".copilot-changes script").isEmpty(), "a diff is text");
        assertThat(page.querySelector(".copilot-numbers").asNormalizedText(), containsString("1,200 in / 30 out"));

        Page timeline = wc.goTo(b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/timeline?id=" + session.getInvocationId(),
                "image/svg+xml");
        assertThat(timeline.getWebResponse().getContentAsString(StandardCharsets.UTF_8), containsString(">Tokens<"));
        Page trend = wc.goTo(p.getUrl() + "copilot-autopilot-trend/trend", "image/svg+xml");
        assertThat(trend.getWebResponse().getContentAsString(StandardCharsets.UTF_8), containsString("Tokens"));
    }

    @Test
    void withoutAGitWorkTreeNothingIsReportedAsChanged() throws Exception {
        Path cli = FakeCopilot.in(tmp).writingFile("hello.txt", "hello\n").write();
        Path outsideAnyGitRepository = tmp.resolve("plain"); // the test's own workspace is inside this project's clone
        WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, "node { ws('" + outsideAnyGitRepository + "') {\n"
                + "  def r = " + step(cli, "") + "\n"
                + "  echo \"files=${r.changedFiles.size()}\"\n"
                + "} }"));

        j.assertLogContains("files=0", b);
        j.assertLogNotContains("Changed:", b);
        HtmlPage page = j.createWebClient().getPage(b, CopilotAutopilotRunAction.URL_NAME + "/");
        assertEquals(null, page.querySelector("details.copilot-changes"));
    }

    @Test
    void theTokenBudgetStopsThePipelineStepOverBudget() throws Exception {
        Path cli = FakeCopilot.in(tmp).usingTokens(50_000, 100).pausingAfterTheFirstTurnUntil(tmp.resolve("never-created")).write();
        WorkflowRun b = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j,
                "node { " + step(cli, ", maxTokens: 10000") + "\n echo 'not reached' }").scheduleBuild2(0));

        j.assertLogContains("OVER_BUDGET: Stopped", b);
        j.assertLogContains("50,100 tokens used, limit 10,000; the Copilot CLI was stopped.", b);
        j.assertLogNotContains("not reached", b);
        j.assertLogNotContains("[copilot] Turn 2", b);
        SessionRecord session = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0);
        assertEquals("OVER_BUDGET", session.getEnding().getOutcome());
    }

    @Test
    void theAdministratorsCeilingAppliesToAFreestyleStepThatAsksForMore() throws Exception {
        CopilotAutopilotConfiguration.get().getDefaults().setMaxTokens(10_000L);
        Path cli = FakeCopilot.in(tmp).usingTokens(50_000, 100).pausingAfterTheFirstTurnUntil(tmp.resolve("never-created")).write();
        CopilotAutopilotBuilder builder = new CopilotAutopilotBuilder(new CopilotAutopilotStep("Create hello.txt"));
        builder.getTask().setCredentialsId("copilot-token");
        builder.getTask().setCopilotPath(cli.toString());
        builder.getTask().setMaxTokens(1_000_000L);
        FreeStyleProject p = j.createFreeStyleProject();
        p.getBuildersList().add(builder);
        FreeStyleBuild b = j.assertBuildStatus(Result.FAILURE, p.scheduleBuild2(0));

        j.assertLogContains("limit 10,000", b);
        assertEquals("OVER_BUDGET", b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getEnding().getOutcome());
        assertThat(JenkinsRule.getLog(b), not(containsString("[copilot] Turn 2")));
    }
}
