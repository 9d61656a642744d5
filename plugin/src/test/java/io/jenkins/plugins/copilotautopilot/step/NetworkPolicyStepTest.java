package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.Result;
import io.jenkins.plugins.copilotautopilot.core.testing.FileServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code allowUrls}/{@code denyUrls}: the administrator's deny list applies to every step, a denied fetch never
 * reaches its server and is shown in the console, the result map and the session page. The real CLI and curl.
 */
@WithJenkins
@Timeout(240)
class NetworkPolicyStepTest {

    private static String pipeline(ScriptedModelServer model, String more) throws Exception {
        return "node {\n  def r = copilotAutopilot prompt: 'Fetch.', copilotPath: '" + TestCli.executable().path() + "', providerBaseUrl: '"
                + model.baseUrl() + "', model: 'fake-model', offline: true" + more + "\n"
                + "  echo \"deniedFetches=${r.deniedFetches} deniedUrls=${r.deniedUrls}\"\n}";
    }

    @Test
    void theAdministratorsDeniedUrlIsNeverFetchedAndIsShownWhereTheDenialsAre(JenkinsRule j) throws Exception {
        try (FileServer web = FileServer.start().serve("/internal", "internal-data".getBytes(StandardCharsets.UTF_8))
                .serve("/public", "public-data".getBytes(StandardCharsets.UTF_8))) {
            String origin = web.baseUrl();
            CopilotAutopilotConfiguration.get().getDefaults().setDenyUrls(List.of(origin));
            ScriptedModelServer.Script fetch = ScriptedModelServer.Scripts.bashThenComplete("curl -s " + origin + "/internal", "Tried.");
            try (ScriptedModelServer model = ScriptedModelServer.start(fetch)) {
                WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, pipeline(model, ", allowAllTools: true")));

                assertEquals(0, web.hits("/internal"));
                j.assertLogContains("[copilot] Network: any URL (every tool is allowed), never " + origin, b);
                j.assertLogContains("(network: " + origin + "): Permission to run this tool was denied due to the following rules", b);
                j.assertLogContains("[copilot] Network: 1 tool call denied for a URL: " + origin, b);
                j.assertLogContains("deniedFetches=1 deniedUrls=[" + origin + "]", b);
                SessionRecord s = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0);
                assertEquals(1, s.getActivity().getDeniedFetches());
                assertThat(s.getActivity().getDeniedUrls(), contains(origin));
                HtmlPage page = j.createWebClient().getPage(b, CopilotAutopilotRunAction.URL_NAME);
                assertThat(page.asNormalizedText(), containsString("1 tool call denied for a URL: " + origin));
            }
        }
    }

    @Test
    void aStepMayOnlyNarrowTheAdministratorsAllowList(JenkinsRule j) throws Exception {
        CopilotAutopilotConfiguration.get().getDefaults().setAllowUrls(List.of("https://registry.example.com"));
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.always(ScriptedModelServer.Reply.taskComplete("Done.")))) {
            WorkflowRun refused = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j,
                    pipeline(model, ", allowUrls: ['https://elsewhere.example']")).scheduleBuild2(0));
            j.assertLogContains("allowUrls may only narrow the administrator's allow list (Manage Jenkins » System), which does not"
                    + " hold https://elsewhere.example.", refused);
            j.assertLogNotContains("Exception", refused);
        }
    }

    @Test
    void aSandboxTheAgentCannotRunIsOneLine(JenkinsRule j) throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.always(ScriptedModelServer.Reply.taskComplete("Done.")))) {
            // the node's PATH has every program of this machine but slirp4netns: the launch script refuses before the CLI starts
            String path = io.jenkins.plugins.copilotautopilot.core.testing.ProgramsPath.without("slirp4netns").toString();
            WorkflowRun refused = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j,
                    "node { withEnv(['PATH=" + path + "']) {\n" + pipeline(model, ", sandbox: true").replace("node {\n", "") + " }"
                    ).scheduleBuild2(0));
            j.assertLogContains("sandbox is on, but this machine cannot run the Copilot CLI's sandbox: it needs slirp4netns on the PATH", refused);
            assertEquals(0, model.requests().size(), "the CLI never started");
            j.assertLogNotContains("Exception", refused);
            assertThat(JenkinsRule.getLog(refused), not(containsString("deniedFetches=")));
        }
    }
}
