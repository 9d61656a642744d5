package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The session page while the session runs: the real CLI, a scripted model whose tool waits for a file the test
 * writes, and the pages looked at in between.
 */
@WithJenkins
@Timeout(240)
class LiveSessionPageTest {
    @TempDir
    Path tmp;

    @Test
    void theSessionPageAnswersFromTheStartShowsTheRunningCallAndThenTheEnd(JenkinsRule j) throws Exception {
        Path go = tmp.resolve("go");
        ScriptedModelServer.Script waitForTheTest = request -> switch (request.turn()) {
            case 1 -> Reply.bash("while [ ! -f '" + go + "' ]; do sleep 0.2; done; echo released", 120)
                    .withText("Waiting for the signal.");
            default -> Reply.taskComplete("Released.");
        };
        try (ScriptedModelServer model = ScriptedModelServer.start(waitForTheTest)) {
            WorkflowRun b = TestPipelines.create(j, "node { copilotAutopilot prompt: 'Wait for the signal.', copilotPath: '"
                    + TestCli.executable().path() + "', providerBaseUrl: '" + model.baseUrl() + "', model: 'fake-model',"
                    + " offline: true, allowAllTools: true, label: 'Live one' }").scheduleBuild2(0).waitForStart();
            j.waitForMessage("[copilot]   > bash: ", b);

            JenkinsRule.WebClient wc = j.createWebClient();
            HtmlPage live = wc.getPage(b, CopilotAutopilotRunAction.URL_NAME + "/");
            assertEquals(200, live.getWebResponse().getStatusCode());
            String text = live.getBody().getTextContent();
            assertThat(text, containsString("RUNNING: running for "));
            assertThat(text.replace('\u00a0', ' '), containsString("Live one · RUNNING"));
            assertThat(text, containsString("wall clock 1h"));
            assertThat(live.querySelector("details.copilot-task").getTextContent(), containsString("Wait for the signal."));
            assertNotNull(live.querySelector("img.copilot-timeline"), "the timeline so far");
            DomNode journalLink = live.querySelector("a.copilot-journal");
            assertNotNull(journalLink, "the journal so far");
            String journalSoFar = wc.goTo(b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/"
                    + journalLink.getAttributes().getNamedItem("href").getNodeValue(), "application/x-ndjson").getWebResponse()
                    .getContentAsString();
            assertThat(journalSoFar, containsString("autopilot.run_started"));
            String timelineSoFar = wc.goTo(b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/"
                    + live.querySelector("img.copilot-timeline").getAttributes().getNamedItem("src").getNodeValue(), "image/svg+xml")
                    .getWebResponse().getContentAsString();
            assertThat(timelineSoFar, containsString("<svg"));
            assertThat(text, containsString("Waiting for the signal."));
            assertNotNull(live.querySelector("li.copilot-tool-RUNNING"), "the call that runs shows as running");
            assertThat(live.querySelector("li.copilot-tool-RUNNING").getTextContent(), containsString("running"));
            assertNotNull(live.querySelector("meta[http-equiv=refresh]"), "the page reloads itself while the session runs");
            assertThat(live.getWebResponse().getContentAsString(), not(containsString("<script>")));

            HtmlPage build = wc.getPage(b);
            assertThat(build.querySelector(".copilot-autopilot-summary").getTextContent(), containsString("RUNNING"));
            assertNotNull(build.querySelector("a[href$='copilot-autopilot']"), "the side panel links to the page");
            assertEquals("Copilot: a session running", b.getAction(CopilotAutopilotRunAction.class).getBadgeTooltip());
            j.assertLogContains("[copilot] Follow it live: Copilot session page", b);

            Files.writeString(go, "");
            j.assertBuildStatusSuccess(j.waitForCompletion(b));

            HtmlPage ended = wc.getPage(b, CopilotAutopilotRunAction.URL_NAME + "/");
            String after = ended.getBody().getTextContent();
            assertThat(after, containsString("COMPLETED: The agent called task_complete after 2 turns."));
            assertThat(after.replace('\u00a0', ' '), containsString("Live one · COMPLETED"));
            assertEquals("Live one", b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getLabel());
            assertThat(wc.getPage(b).querySelector(".copilot-autopilot-summary").getTextContent().replace('\u00a0', ' '),
                    containsString("Live one · COMPLETED"));
            assertThat(after, not(containsString("RUNNING")));
            assertNull(ended.querySelector("meta[http-equiv=refresh]"), "a finished page stays still");
            assertEquals(1, b.getAction(CopilotAutopilotRunAction.class).getSessions().size());
        }
    }

    @Test
    void whileItRunsThePageShowsEachReaderWhatTheFinishedPageWould(JenkinsRule j) throws Exception {
        j.jenkins.setSecurityRealm(j.createDummySecurityRealm());
        j.jenkins.setAuthorizationStrategy(new org.jvnet.hudson.test.MockAuthorizationStrategy()
                .grant(jenkins.model.Jenkins.READ, hudson.model.Item.READ).everywhere().to("reader")
                .grant(jenkins.model.Jenkins.READ, hudson.model.Item.READ, hudson.model.Item.WORKSPACE).everywhere().to("worker"));
        Path go = tmp.resolve("go");
        ScriptedModelServer.Script waitForTheTest = request -> switch (request.turn()) {
            case 1 -> Reply.bash("while [ ! -f '" + go + "' ]; do sleep 0.2; done", 120).withText("I looked at notes-from-the-workspace.");
            default -> Reply.taskComplete("Released.");
        };
        try (ScriptedModelServer model = ScriptedModelServer.start(waitForTheTest)) {
            WorkflowRun b = TestPipelines.create(j, "node { copilotAutopilot prompt: 'Wait.', copilotPath: '"
                    + TestCli.executable().path() + "', providerBaseUrl: '" + model.baseUrl() + "', model: 'fake-model',"
                    + " offline: true, allowAllTools: true, agentTextInConsole: false }").scheduleBuild2(0).waitForStart();
            j.waitForMessage("[copilot]   > bash", b);
            String page = b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/";

            String reader = j.createWebClient().login("reader").goTo(page).getBody().getTextContent();
            assertThat(reader, containsString("RUNNING"));
            assertThat(reader, not(containsString("from-the-workspace")));
            assertThat(reader, containsString("What the agent wrote in this session is shown to users who may read the workspace"));
            String worker = j.createWebClient().login("worker").goTo(page).getBody().getTextContent();
            assertThat(worker, containsString("I looked at notes-from-the-workspace."));
            j.assertLogNotContains("from-the-workspace", b);

            Files.writeString(go, "");
            j.assertBuildStatusSuccess(j.waitForCompletion(b));
        }
    }
}
