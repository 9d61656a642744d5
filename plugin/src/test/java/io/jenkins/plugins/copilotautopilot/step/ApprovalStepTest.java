package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.pages.ApprovalRecord;
import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.testing.AgentJvm;
import io.jenkins.plugins.copilotautopilot.testing.SessionFolders;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Item;
import hudson.model.Result;
import hudson.model.Run;
import io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.net.URL;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import jenkins.model.Jenkins;
import org.htmlunit.HttpMethod;
import org.htmlunit.WebRequest;
import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.util.NameValuePair;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.MockAuthorizationStrategy;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static io.jenkins.plugins.copilotautopilot.testing.LiveApprovals.live;
import static io.jenkins.plugins.copilotautopilot.testing.LiveApprovals.waiting;
import static io.jenkins.plugins.copilotautopilot.testing.Waits.waitFor;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code approveTools} in Jenkins, with the real CLI 1.0.102 and a scripted model: the call waits, the session page
 * shows it with Approve and Deny for those who may decide, the decision is a POST with a crumb and a permission check,
 * and the console, the session record and the REST API say who decided and when.
 */
@WithJenkins
@Timeout(300)
class ApprovalStepTest {
    private static final String TOUCH = "touch approved.txt";

    private static void secure(JenkinsRule j) {
        j.jenkins.setSecurityRealm(j.createDummySecurityRealm());
        j.jenkins.setAuthorizationStrategy(new MockAuthorizationStrategy()
                .grant(Jenkins.READ, Item.READ).everywhere().to("reader", "alice")
                .grant(Jenkins.READ, Item.READ, Item.BUILD, Item.WORKSPACE).everywhere().to("builder"));
    }

    private static String pipeline(ScriptedModelServer model, String extra) {
        return "node { copilotAutopilot prompt: 'Touch a file.', copilotPath: '" + TestCli.executable().path() + "', providerBaseUrl: '"
                + model.baseUrl() + "', model: 'fake-model', offline: true" + extra + " }";
    }

    private static int post(JenkinsRule.WebClient wc, Run<?, ?> b, String invocation, String call, String decision) throws Exception {
        WebRequest post = new WebRequest(new URL(wc.getContextPath() + b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/decide"),
                HttpMethod.POST);
        post.setRequestParameters(List.of(new NameValuePair("invocation", invocation), new NameValuePair("call", call),
                new NameValuePair("decision", decision)));
        wc.setThrowExceptionOnFailingStatusCode(false);
        wc.setRedirectEnabled(false);
        org.htmlunit.WebResponse response = wc.getPage(wc.addCrumb(post)).getWebResponse();
        // anonymous is refused with a page that sends it on to the login page
        return response.getWebRequest().getUrl().getPath().endsWith("/login") ? 403 : response.getStatusCode();
    }

    @Test
    void aBuilderApprovesOnTheSessionPageAndTheCallRunsAReaderSeesNoButtonAndIsRefused(JenkinsRule j) throws Exception {
        secure(j);
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete(TOUCH, "Touched it."))) {
            WorkflowRun b = TestPipelines.create(j, pipeline(model, ", approveTools: ['shell(touch)']")).scheduleBuild2(0).waitForStart();
            PendingApproval call = waiting(b);
            j.waitForMessage("[copilot] Approve or deny it on the Copilot session page", b);
            j.assertLogContains("[copilot] Waiting for approval (approveTools shell(touch)): bash " + TOUCH, b);
            String page = b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/";

            JenkinsRule.WebClient reader = j.createWebClient().login("reader");
            HtmlPage readerPage = reader.goTo(page);
            assertThat(readerPage.getBody().getTextContent(), containsString("Waiting for approval"));
            assertThat(readerPage.getBody().getTextContent(), containsString("You may not approve or deny these calls"));
            assertNull(readerPage.querySelector("form[action='decide']"), "a reader gets no buttons");
            assertEquals(403, post(reader, b, live(b).getInvocationId(), call.id(), "approve"), "a forged POST of a reader is refused");
            JenkinsRule.WebClient anonymous = j.createWebClient();
            assertThat("anonymous is refused", post(anonymous, b, live(b).getInvocationId(), call.id(), "approve"), is(403));
            assertEquals(1, live(b).getPendingApprovals().size(), "still waiting");

            JenkinsRule.WebClient builder = j.createWebClient().login("builder");
            HtmlPage builderPage = builder.goTo(page);
            assertThat(builderPage.getBody().getTextContent(), containsString(TOUCH));
            assertThat(builderPage.getWebResponse().getContentAsString(), not(containsString("<script>")));
            // the call in the turn list waits, it does not run (the live report is read again at most every few seconds)
            waitFor(() -> {
                try {
                    return builder.goTo(page).querySelector("li.copilot-tool-AWAITING") != null;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }, Duration.ofSeconds(30), b);
            builderPage = builder.goTo(page);
            assertThat(builderPage.querySelector("li.copilot-tool-AWAITING").getTextContent(), containsString("waiting for approval"));
            assertNull(builderPage.querySelector("li.copilot-tool-RUNNING"), "nothing runs while the call waits");
            assertNotNull(builderPage.querySelector(".copilot-decide button.copilot-deny"), "Deny beside Approve, a button of its own");
            HtmlForm form = builderPage.getFormByName("decide-" + call.id());
            HtmlButton approve = form.getOneHtmlElementByAttribute("button", "value", "approve");
            approve.click();

            j.assertBuildStatusSuccess(j.waitForCompletion(b));
            j.assertLogContains("[copilot] Approved by builder at ", b);
            j.assertLogContains("[copilot]   < bash ok", b);
            assertTrue(Files.exists(java.nio.file.Path.of(j.jenkins.getWorkspaceFor(b.getParent()).getRemote(), "approved.txt")));
            ApprovalRecord record = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getApprovals().get(0);
            assertEquals("APPROVED", record.getVerdict());
            assertEquals("builder", record.getBy());
            assertNotNull(record.getAt());
            assertEquals(TOUCH, record.getArguments());
            String api = builder.goTo(b.getUrl() + "api/json?depth=3", "application/json")
                    .getWebResponse().getContentAsString();
            assertThat(api, containsString("\"verdict\":\"APPROVED\""));
            assertThat(api, containsString("\"by\":\"builder\""));
            HtmlPage ended = builder.goTo(page);
            assertThat(ended.getBody().getTextContent(), containsString("1 call waited for approval"));
            assertThat(ended.querySelector("li.copilot-tool-SUCCEEDED").getTextContent(), containsString("approved after "));
            assertThat(ended.querySelector(".copilot-approvals-table time").getTextContent(),
                    org.hamcrest.Matchers.matchesPattern("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC"));
            SessionFolders.assertNoSessionFolderLeft(j, b);
        }
    }

    @Test
    void aNamedApproverDeniesAFreestyleCallABuilderNotNamedMayNot(JenkinsRule j) throws Exception {
        secure(j);
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete(TOUCH, "Could not touch it."))) {
            CopilotAutopilotStep task = new CopilotAutopilotStep("Touch a file.");
            task.setCopilotPath(TestCli.executable().path());
            task.setProviderBaseUrl(model.baseUrl());
            task.setModel("fake-model");
            task.setOffline(true);
            task.setAllowAllTools(true);
            task.setApproveTools(List.of("shell"));
            task.setApprovers(List.of("alice"));
            FreeStyleProject p = j.createFreeStyleProject();
            p.getBuildersList().add(new CopilotAutopilotBuilder(task));
            FreeStyleBuild b = p.scheduleBuild2(0).waitForStart();
            PendingApproval call = waiting(b);
            String invocation = live(b).getInvocationId();

            assertEquals(403, post(j.createWebClient().login("builder"), b, invocation, call.id(), "approve"),
                    "with approvers named, building the job is not enough");
            assertNull(j.createWebClient().login("builder").goTo(b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/")
                    .querySelector("form[action='decide']"));
            assertEquals(302, post(j.createWebClient().login("alice"), b, invocation, call.id(), "deny"));
            // decided once: the call no longer waits (409), or its session already ended (404)
            assertThat(post(j.createWebClient().login("alice"), b, invocation, call.id(), "approve"), org.hamcrest.Matchers.anyOf(is(409), is(404)));

            j.waitForCompletion(b);
            j.assertLogContains("[copilot] Denied by alice at ", b);
            j.assertLogContains("denied by alice: do not run it", b);
            assertTrue(Files.notExists(java.nio.file.Path.of(j.jenkins.getWorkspaceFor(p).getRemote(), "approved.txt")));
            ApprovalRecord record = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getApprovals().get(0);
            assertEquals("DENIED", record.getVerdict());
            assertEquals("alice", record.getBy());
            assertEquals(1, b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getActivity().getDeniedToolCalls());
        }
    }

    @Test
    void anAbortWhileACallWaitsEndsTheBuildAndLeavesNothing(JenkinsRule j) throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete(TOUCH, "Never."))) {
            WorkflowRun b = TestPipelines.create(j, pipeline(model, ", allowAllTools: true, approveTools: ['shell']")).scheduleBuild2(0)
                    .waitForStart();
            waiting(b);
            b.doStop();
            j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(b));
            j.assertLogContains("[copilot] No longer waits: the session ended: bash", b);
            assertTrue(Files.notExists(java.nio.file.Path.of(j.jenkins.getWorkspaceFor(b.getParent()).getRemote(), "approved.txt")));
            assertEquals("SESSION_ENDED", b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getApprovals().get(0).getVerdict());
            SessionFolders.assertNoSessionFolderLeft(j, b);
        }
    }

    @Test
    void aCallApprovedWhileItsAgentIsDisconnectedRunsOnceTheAgentIsBack(JenkinsRule j, @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        AgentJvm agent = AgentJvm.add(j, "crashing", tmp.resolve("agent"));
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete(TOUCH, "Touched it."))) {
            WorkflowRun b = TestPipelines.create(j, pipeline(model, ", approveTools: ['shell(touch)']").replace("node {", "node('crashing') {"))
                    .scheduleBuild2(0).waitForStart();
            PendingApproval call = waiting(b);

            agent.killJvm();
            j.waitForMessage("it keeps running on the agent, waiting to reconnect.", b);
            assertTrue(live(b).approvals().decide(call.id(), true, "builder", System.currentTimeMillis()),
                    "decided while the agent is away: handed over once it is back");
            j.jenkins.getComputer("crashing").connect(false).get();

            j.assertBuildStatusSuccess(j.waitForCompletion(b));
            j.assertLogContains("[copilot] crashing answers again: following the Copilot CLI again.", b);
            j.assertLogContains("[copilot] Approved by builder at ", b);
            j.assertLogContains("[copilot]   < bash ok", b);
            assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains("[copilot] Approved by")).count());
        }
    }

}
