package io.jenkins.plugins.copilotautopilot.trace;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.testing.SessionFolders;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.Item;
import io.jenkins.plugins.copilotautopilot.core.otel.SpanFile;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.nio.charset.StandardCharsets;
import jenkins.model.Jenkins;
import org.htmlunit.Page;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.MockAuthorizationStrategy;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@code otel: true} with the real CLI 1.0.102: its file exporter's spans are kept with the session, under the build's
 * trace ({@code TRACEPARENT}), masked, and downloadable by those who may download the journal.
 */
@WithJenkins
@Timeout(240)
class OtelStepTest {
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String STEP_SPAN = "00f067aa0ba902b7";

    @Test
    void theClisSpansAreKeptUnderTheBuildsTraceForReadersOfTheWorkspace(JenkinsRule j) throws Exception {
        j.jenkins.setSecurityRealm(j.createDummySecurityRealm());
        j.jenkins.setAuthorizationStrategy(new MockAuthorizationStrategy()
                .grant(Jenkins.READ, Item.READ).everywhere().to("reader")
                .grant(Jenkins.READ, Item.READ, Item.WORKSPACE).everywhere().to("worker"));
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, "node { withEnv(['TRACEPARENT=00-" + TRACE + "-" + STEP_SPAN
                    + "-01']) { copilotAutopilot prompt: 'Write hi.txt.', copilotPath: '" + TestCli.executable().path()
                    + "', providerBaseUrl: '" + model.baseUrl() + "', model: 'fake-model', offline: true, allowAllTools: true, otel: true } }"));

            j.assertLogContains("[copilot] OpenTelemetry: ", b);
            j.assertLogContains("(1 run, 2 model calls, 2 tool calls) kept with the session, under the build's trace " + TRACE, b);
            String invocation = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getInvocationId();
            String page = b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/";

            JenkinsRule.WebClient worker = j.createWebClient().login("worker");
            assertNotNull(worker.goTo(page).querySelector("a.copilot-spans"));
            Page spans = worker.goTo(page + "spans?id=" + invocation, "application/x-ndjson");
            byte[] lines = spans.getWebResponse().getContentAsString().getBytes(StandardCharsets.UTF_8);
            SpanFile.Counts counts = SpanFile.count(lines);
            assertEquals(1, counts.runs());
            assertEquals(2, counts.modelCalls());
            assertEquals(2, counts.toolCalls());
            String text = new String(lines, StandardCharsets.UTF_8);
            text.lines().filter(l -> l.contains("\"type\":\"span\"")).forEach(l -> assertThat(l, containsString("\"traceId\":\"" + TRACE + "\"")));
            assertThat(text, containsString("\"parentSpanId\":\"" + STEP_SPAN + "\""));

            JenkinsRule.WebClient reader = j.createWebClient().login("reader");
            assertNull(reader.goTo(page).querySelector("a.copilot-spans"), "no link for a reader of the build only");
            reader.setThrowExceptionOnFailingStatusCode(false);
            assertEquals(403, reader.goTo(page + "spans?id=" + invocation, null).getWebResponse().getStatusCode());
            assertThat(j.createWebClient().login("worker").goTo(page).getWebResponse().getContentAsString(), not(containsString("<script>")));
            SessionFolders.assertNoSessionFolderLeft(j, b);
        }
    }
}
