package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.Result;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code verify} in a Pipeline, durable like the CLI: a check that fails once is fixed in the same session and passes;
 * one that never passes is NOT_VERIFIED with the result chosen for INCOMPLETE. The real CLI and a scripted model.
 */
@WithJenkins
@Timeout(240)
class VerifyStepTest {
    private static final String CHECK = "if [ -f fixed.txt ]; then echo all-tests-pass; else echo 'FAIL: fixed.txt is missing'; exit 3; fi";

    private static String pipeline(ScriptedModelServer model, String more) throws Exception {
        return "node {\n  def r = copilotAutopilot prompt: 'Fix it.', copilotPath: '" + TestCli.executable().path() + "', providerBaseUrl: '"
                + model.baseUrl() + "', model: 'fake-model', offline: true, allowAllTools: true" + more + "\n"
                + "  echo \"outcome=${r.outcome} verified=${r.verified} verifyRounds=${r.verifyRounds} verifyExitCode=${r.verifyExitCode}\"\n}";
    }

    @Test
    void aCheckGivenEmptyIsRefusedBeforeAnythingStarts(JenkinsRule j) throws Exception {
        // `verify: env.CHECK` with CHECK unset or empty: no session without its check, and the model is never asked
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.completeThenFixWhenTold("touch fixed.txt"))) {
            for (String given : new String[] {"env.NO_SUCH_CHECK", "''", "'  '"}) {
                WorkflowRun b = j.buildAndAssertStatus(Result.FAILURE, TestPipelines.create(j, pipeline(model, ", verify: " + given)));
                j.assertLogContains("copilotAutopilot: verify is empty (is the variable it comes from unset?): give it a value,"
                        + " or leave verify out for none", b);
                j.assertLogNotContains("[copilot] Turn 1", b);
                j.assertLogNotContains("\tat ", b); // one line, no stack trace
            }
            WorkflowRun schema = j.buildAndAssertStatus(Result.FAILURE, TestPipelines.create(j, pipeline(model, ", outputSchema: ''")));
            j.assertLogContains("copilotAutopilot: outputSchema is empty", schema);
            assertEquals(0, model.requests().size(), "the model was never asked");
        }
    }

    @Test
    void aFailedCheckSendsTheAgentBackAndASecondPassingRoundCompletes(JenkinsRule j) throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.completeThenFixWhenTold("touch fixed.txt"))) {
            WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, pipeline(model, ", verify: '''" + CHECK + "'''")));

            j.assertLogContains("[copilot] Verify: " + CHECK + " (after task_complete; at most 2 rounds)", b);
            j.assertLogContains("[copilot] verify | FAIL: fixed.txt is missing", b);
            j.assertLogContains("[copilot] Verify, round 1: FAILED with exit code 3; the agent is asked to fix it", b);
            j.assertLogContains("[copilot] Verify, round 2: passed", b);
            j.assertLogContains("outcome=COMPLETED verified=true verifyRounds=2 verifyExitCode=0", b);
            assertThat(model.requests().toString(), containsString("FAIL: fixed.txt is missing"));
            SessionRecord s = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0);
            assertEquals(Boolean.TRUE, s.getVerification().getVerified());
            HtmlPage page = j.createWebClient().getPage(b, CopilotAutopilotRunAction.URL_NAME);
            assertThat(page.asNormalizedText(), containsString("passed in round 2"));
            // a turn's heading counts the agent's calls; the check's rounds drawn in it are named apart
            String headings = page.querySelectorAll("details.copilot-turn > summary").stream().map(h -> h.getTextContent())
                    .reduce("", (a, h) -> a + h + "\n");
            assertThat(headings, containsString("acceptance check, round 1"));
            assertThat(headings, containsString("acceptance check, round 2"));
            int counted = 0;
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) tool calls?").matcher(headings);
            while (m.find()) {
                counted += Integer.parseInt(m.group(1));
            }
            assertEquals(s.getActivity().getToolCalls(), counted, headings);
        }
    }

    @Test
    void aCheckThatNeverPassesIsNotVerifiedAndTakesTheResultForIncomplete(JenkinsRule j) throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.completeThenFixWhenTold("true"))) {
            WorkflowRun b = j.assertBuildStatus(Result.UNSTABLE, TestPipelines.create(j,
                    pipeline(model, ", verify: 'echo still-broken; exit 1', maxVerifyRounds: 1, resultWhenIncomplete: 'UNSTABLE'"))
                    .scheduleBuild2(0));

            j.assertLogContains("[copilot] Verify, round 1: FAILED with exit code 1; no rounds left", b);
            j.assertLogContains("NOT_VERIFIED: The acceptance check `echo still-broken; exit 1` still failed (exit code 1) after 1 round"
                    + " (the maxVerifyRounds limit).", b);
            j.assertLogContains("outcome=NOT_VERIFIED verified=false verifyRounds=1 verifyExitCode=1", b);
            HtmlPage page = j.createWebClient().getPage(b, CopilotAutopilotRunAction.URL_NAME);
            assertThat(page.asNormalizedText(), containsString("not passed after 1 round (last exit code: 1)"));
        }
    }
}
