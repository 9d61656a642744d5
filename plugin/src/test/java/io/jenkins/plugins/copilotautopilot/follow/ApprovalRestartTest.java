package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.testing.SessionFolders;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;
import io.jenkins.plugins.copilotautopilot.testing.Waits;

import hudson.model.Item;
import io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jenkins.model.Jenkins;
import org.htmlunit.HttpMethod;
import org.htmlunit.WebRequest;
import org.htmlunit.util.NameValuePair;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.MockAuthorizationStrategy;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A call that waits for approval across a controller restart: the wait is the CLI's hook's, in the control folder on the
 * agent, so the restarted controller finds the same call with the same deadline, and a person's approval then lets it run.
 */
@Timeout(400)
class ApprovalRestartTest {
    @RegisterExtension
    private final JenkinsSessionExtension sessions = new JenkinsSessionExtension();
    private ScriptedModelServer model;

    @BeforeEach
    void startModel() throws Exception {
        model = ScriptedModelServer.start(Scripts.bashThenComplete("touch approved.txt", "Touched it."));
    }

    @AfterEach
    void stopModel() {
        model.close();
    }

    @Test
    void aWaitingCallIsFoundAgainAfterARestartAndRunsOnceApproved() throws Throwable {
        String[] before = new String[2];
        sessions.then(j -> {
            j.jenkins.setSecurityRealm(j.createDummySecurityRealm());
            j.jenkins.setAuthorizationStrategy(new MockAuthorizationStrategy()
                    .grant(Jenkins.READ, Item.READ, Item.BUILD).everywhere().to("builder"));
            WorkflowRun b = TestPipelines.create(j, "node { copilotAutopilot prompt: 'Touch a file.', copilotPath: '"
                    + TestCli.executable().path() + "', providerBaseUrl: '" + model.baseUrl() + "', model: 'fake-model', offline: true,"
                    + " approveTools: ['shell(touch)'], approvalTimeout: 10 }").scheduleBuild2(0).waitForStart();
            PendingApproval call = waiting(b);
            before[0] = call.id();
            before[1] = String.valueOf(call.deadlineMillis());
        });
        sessions.then(j -> {
            WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
            PendingApproval call = waiting(b);
            assertEquals(before[0], call.id(), "the same call");
            assertEquals(before[1], String.valueOf(call.deadlineMillis()), "the same deadline: counted from when the CLI asked");

            JenkinsRule.WebClient wc = j.createWebClient().login("builder");
            WebRequest post = new WebRequest(new URL(wc.getContextPath() + b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/decide"),
                    HttpMethod.POST);
            post.setRequestParameters(List.of(new NameValuePair("invocation",
                    b.getAction(CopilotAutopilotRunAction.class).getLiveSessions().get(0).getInvocationId()),
                    new NameValuePair("call", call.id()), new NameValuePair("decision", "approve")));
            wc.setRedirectEnabled(false);
            wc.setThrowExceptionOnFailingStatusCode(false);
            assertEquals(302, wc.getPage(wc.addCrumb(post)).getWebResponse().getStatusCode());

            j.assertBuildStatusSuccess(j.waitForCompletion(b));
            j.assertLogContains("[copilot] Jenkins restarted: following the Copilot CLI again", b);
            j.assertLogContains("[copilot] Approved by builder at ", b);
            j.assertLogContains("[copilot]   < bash ok", b);
            assertTrue(Files.exists(Path.of(j.jenkins.getWorkspaceFor(b.getParent()).getRemote(), "approved.txt")));
            assertEquals("APPROVED", b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getApprovals().get(0).getVerdict());
            SessionFolders.assertNoSessionFolderLeft(j, b);
        });
    }

    private static PendingApproval waiting(WorkflowRun b) throws Exception {
        Waits.waitFor(() -> b.getAction(CopilotAutopilotRunAction.class) != null
                && b.getAction(CopilotAutopilotRunAction.class).getLiveSessions().stream().anyMatch(s -> !s.getPendingApprovals().isEmpty()),
                Duration.ofSeconds(120), b);
        return b.getAction(CopilotAutopilotRunAction.class).getLiveSessions().stream()
                .flatMap(s -> s.getPendingApprovals().stream()).findFirst().orElseThrow();
    }
}
