package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.testing.CapturedChecks;
import io.jenkins.plugins.copilotautopilot.testing.RestSessions;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import io.jenkins.plugins.checks.api.ChecksAnnotation;
import io.jenkins.plugins.checks.api.ChecksDetails;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.util.List;
import java.util.Optional;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code outputSchema} and {@code reviewFindings} in a Pipeline and a Freestyle job, with the real CLI and a scripted
 * model: the answer as plain values in the map, a schema given as a workspace file, an invalid schema as one line before
 * the CLI starts, findings held to the workspace, as check annotations and in the issues file, and hostile text in the
 * answer and the findings inert on the session page.
 */
@WithJenkins
@Timeout(300)
class OutputSchemaStepTest {
    private static final String SCHEMA = "{\"type\": \"object\", \"required\": [\"verdict\"], \"properties\": {\"verdict\": {\"enum\": [\"pass\", \"fail\"]},"
            + " \"notes\": {\"type\": \"string\"}, \"count\": {\"type\": \"integer\"}}}";
    private static final String HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>";

    private JenkinsRule j;

    @BeforeEach
    void setUp(JenkinsRule rule) {
        j = rule;
        Capturing.published.clear();
    }

    private static String step(ScriptedModelServer model, String more) throws Exception {
        return "copilotAutopilot prompt: 'Answer.', copilotPath: '" + TestCli.executable().path() + "', providerBaseUrl: '"
                + model.baseUrl() + "', model: 'fake-model', offline: true" + more;
    }

    @Test
    void theAnswerIsTheMapsOutputAndTheSchemaMayBeAWorkspaceFile() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.answers(
                "{\"verdict\": \"maybe\"}", "{\"verdict\": \"pass\", \"count\": 3, \"notes\": \"" + HOSTILE.replace("\"", "\\\"") + "\"}"))) {
            WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, "node {\n  writeFile file: 'schema.json', text: '''" + SCHEMA
                    + "'''\n  def r = " + step(model, ", outputSchema: '@schema.json', outputFile: 'answer.json'") + "\n"
                    + "  echo \"verdict=${r.output.verdict} count=${r.output.count + 1} rounds=${r.outputRounds}\"\n}"));

            j.assertLogContains("verdict=pass count=4 rounds=2", b);
            j.assertLogContains("[copilot] Answer 1: does not follow the schema: ", b);
            j.assertLogContains("; the agent is asked to fix it", b);
            j.assertLogContains("[copilot] Answer written to ", b);
            String written = j.jenkins.getWorkspaceFor(j.jenkins.getItemByFullName("p0", org.jenkinsci.plugins.workflow.job.WorkflowJob.class))
                    .child("answer.json").readToString();
            assertThat(written, containsString("\"verdict\":\"pass\""));
            assertThat(model.requests().toString(), containsString("does not follow the JSON Schema of the task"));

            SessionRecord s = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0);
            assertEquals(2, s.getAnswer().getRounds());
            HtmlPage page = j.createWebClient().getPage(b, CopilotAutopilotRunAction.URL_NAME);
            assertThat(page.asNormalizedText(), containsString("Answer, following the schema in round 2"));
            assertThat(page.asNormalizedText(), containsString("<script>alert(1)</script>"));
            assertThat(page.getWebResponse().getContentAsString(), not(containsString("<script>alert(1)")));
            assertTrue(page.getElementsByTagName("img").stream().noneMatch(e -> "x".equals(e.getAttribute("src"))));
            // the build's page carries the answer (its summary) as text too; the REST view as JSON data
            String build = j.createWebClient().getPage(b).getWebResponse().getContentAsString();
            assertThat(build, not(containsString("<script>alert(1)")));
            assertThat(build, not(containsString("<img src=x")));
            var rest = RestSessions.of(j.createWebClient(), b).path(0).path("answer");
            assertEquals(2, rest.path("rounds").asInt(), rest.toString());
            assertThat(rest.path("output").asText(), containsString("<script>alert(1)</script>"));
        }
    }

    @Test
    void aSchemaThatIsNotAValidJsonSchemaIsOneLineBeforeTheCliStarts() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.answers("{}"))) {
            WorkflowRun b = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j, "node {\n  "
                    + step(model, ", outputSchema: '{\"type\": \"banana\"}'") + "\n}").scheduleBuild2(0));

            j.assertLogContains("outputSchema is not a valid JSON Schema: ", b);
            j.assertLogNotContains("[copilot] Turn 1", b);
            assertEquals(1, b.getLog(100).stream().filter(l -> l.contains("outputSchema is not a valid JSON Schema")).count(), "one line");

            WorkflowRun alone = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j, "node {\n  "
                    + step(model, ", issuesFile: 'findings.json'") + "\n}").scheduleBuild2(0));
            j.assertLogContains("issuesFile needs an answer to write: set outputSchema or reviewFindings.", alone);

            // a reference to another document below the top: refused here, not found by the validator after paid calls
            WorkflowRun nested = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j, "node {\n  "
                    + step(model, ", outputSchema: '{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"file:///etc/passwd\"}}}'")
                    + "\n}").scheduleBuild2(0));
            j.assertLogContains("outputSchema refers to another document ('file:///etc/passwd' at /properties/a/$ref)", nested);
            j.assertLogNotContains("[copilot] Turn 1", nested);
            assertEquals(List.of(), model.requests(), "the model was never asked");
        }
    }

    @Test
    void findingsAreAnnotationsOfTheCheckAndAFindingOutsideTheWorkspaceIsDropped() throws Exception {
        String answer = "{\"findings\": [{\"path\": \"src/app.js\", \"line\": 12, \"endLine\": 14, \"severity\": \"high\", \"message\": \""
                + HOSTILE.replace("\"", "\\\"") + "\", \"rule\": \"xss\"}, {\"path\": \"../../../etc/passwd\", \"line\": 1, \"severity\": \"low\","
                + " \"message\": \"outside\"}, {\"path\": \"README.md\", \"line\": 2, \"severity\": \"low\", \"message\": \"typo\"}]}";
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.answers(answer))) {
            WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, "node {\n  def r = "
                    + step(model, ", reviewFindings: true, issuesFile: 'findings/copilot.json', workingDirectory: 'module'") + "\n"
                    + "  echo \"findings=${r.findings.size()} first=${r.findings[0].path}:${r.findings[0].line} ${r.findings[0].severity}\"\n}"));

            j.assertLogContains("findings=2 first=module/src/app.js:12 high", b);
            j.assertLogContains("[copilot] WARNING: a finding for '../../../etc/passwd' was dropped: the path is not a file in the workspace.", b);
            j.assertLogContains("[copilot] Findings: 2 written to ", b);
            String issues = j.jenkins.getWorkspaceFor(b.getParent()).child("findings/copilot.json").readToString();
            assertThat(issues, containsString("\"fileName\" : \"module/src/app.js\""));
            assertThat(issues, not(containsString("passwd")));

            ChecksDetails ended = Capturing.published.get(Capturing.published.size() - 1);
            List<ChecksAnnotation> annotations = ended.getOutput().orElseThrow().getChecksAnnotations();
            assertEquals(2, annotations.size());
            ChecksAnnotation first = annotations.get(0);
            assertEquals(Optional.of("module/src/app.js"), first.getPath());
            assertEquals(Optional.of(12), first.getStartLine());
            assertEquals(Optional.of(14), first.getEndLine());
            assertEquals(Optional.of(HOSTILE), first.getMessage()); // GitHub shows an annotation's message as text
            assertEquals(ChecksAnnotation.ChecksAnnotationLevel.FAILURE, first.getAnnotationLevel());
            assertEquals(Optional.of("xss"), first.getTitle());

            HtmlPage page = j.createWebClient().getPage(b, CopilotAutopilotRunAction.URL_NAME);
            assertThat(page.asNormalizedText(), containsString("2 review findings"));
            assertThat(page.asNormalizedText(), containsString("module/src/app.js"));
            assertThat(page.getWebResponse().getContentAsString(), not(containsString("<script>alert(1)")));
            String table = ((org.htmlunit.html.DomNode) page.querySelector(".copilot-findings-table")).asNormalizedText();
            assertThat(table, containsString("module/src/app.js"));
            assertFalse(table.contains("passwd"), "the dropped finding is not listed (the answer above shows what the agent wrote)");
        }
    }

    @Test
    void aFreestyleJobWritesTheAnswerToItsOutputFile() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.answers("{\"verdict\": \"fail\"}"))) {
            CopilotAutopilotStep task = new CopilotAutopilotStep("Answer.");
            task.setCopilotPath(TestCli.executable().path().toString());
            task.setProviderBaseUrl(model.baseUrl());
            task.setModel("fake-model");
            task.setOffline(true);
            task.setOutputSchema(SCHEMA);
            task.setOutputFile("out/answer.json");
            FreeStyleProject p = j.createFreeStyleProject();
            p.getBuildersList().add(new CopilotAutopilotBuilder(task));
            FreeStyleBuild b = j.buildAndAssertSuccess(p);

            assertEquals("{\"verdict\":\"fail\"}", b.getWorkspace().child("out/answer.json").readToString());
            j.assertLogContains("[copilot] Answer 1: follows the schema (", b);
        }
    }

    /** The checks as checks-api hands them to a publisher, caught (as in {@code ChecksTest}). */
    @TestExtension
    public static final class Capturing extends CapturedChecks {
    }
}
