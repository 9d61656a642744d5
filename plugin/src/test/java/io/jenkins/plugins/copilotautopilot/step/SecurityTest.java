package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.RecordedSessions;
import io.jenkins.plugins.copilotautopilot.testing.RestSessions;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.tools.CopilotCliInstaller;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Item;
import hudson.model.User;
import hudson.security.ACL;
import hudson.security.ACLContext;
import hudson.util.ListBoxModel;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import jenkins.model.Jenkins;
import org.htmlunit.HttpMethod;
import org.htmlunit.WebRequest;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.scriptsecurity.scripts.ScriptApproval;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.MockAuthorizationStrategy;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plugin rows of the reliability table: permissions, POST, secrets at rest, the sandbox. */
@WithJenkins
class SecurityTest {
    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
        j.jenkins.setSecurityRealm(j.createDummySecurityRealm());
        j.jenkins.setAuthorizationStrategy(new MockAuthorizationStrategy()
                .grant(Jenkins.ADMINISTER).everywhere().to("admin")
                .grant(Jenkins.READ, Item.READ).everywhere().to("reader")
                .grant(Jenkins.READ, Item.READ, Item.WORKSPACE).everywhere().to("worker"));
    }

    @Test
    void credentialsAreOnlyListedToUsersWhoMayConfigure() throws Exception {
        WorkflowJob job = j.createProject(WorkflowJob.class, "p");
        CopilotAutopilotStep.DescriptorImpl descriptor = j.jenkins.getDescriptorByType(CopilotAutopilotStep.DescriptorImpl.class);
        try (ACLContext ignored = ACL.as2(User.getById("reader", true).impersonate2())) {
            ListBoxModel items = descriptor.getSetting("credentialsId").items(job, false, "");
            assertTrue(items.stream().noneMatch(o -> "copilot-token".equals(o.value)), "a reader sees no credential IDs");
        }
        try (ACLContext ignored = ACL.as2(User.getById("admin", true).impersonate2())) {
            ListBoxModel items = descriptor.getSetting("credentialsId").items(job, false, "");
            assertTrue(items.stream().anyMatch(o -> "copilot-token".equals(o.value)), "an administrator sees them");
        }
    }

    @Test
    void formMethodsThatTouchCredentialsRequirePost() throws Exception {
        JenkinsRule.WebClient wc = j.createWebClient().login("admin");
        // the Freestyle form and the System page are the step's form: its descriptor answers for all three
        for (String method : new String[] {"setting/credentialsId/fillItems", "setting/providerCredentialsId/fillItems",
            "setting/credentialsId/check", "setting/providerCredentialsId/check"}) {
            assertPostOnly(wc, "descriptorByName/" + CopilotAutopilotStep.class.getName() + "/" + method);
        }
    }

    @Test
    void theGlobalDefaultsAreForAdministratorsOnly() throws Exception {
        // the System page's fields are the step's: with no job around them, only administrators list credentials
        CopilotAutopilotStep.DescriptorImpl step = j.jenkins.getDescriptorByType(CopilotAutopilotStep.DescriptorImpl.class);
        try (ACLContext ignored = ACL.as2(User.getById("reader", true).impersonate2())) {
            assertTrue(step.getSetting("credentialsId").items(null, true, "").stream().noneMatch(o -> "copilot-token".equals(o.value)),
                    "a reader sees no credential IDs");
            assertTrue(step.getSetting("providerCredentialsId").items(null, true, "").stream().noneMatch(o -> "copilot-token".equals(o.value)));
        }
        try (ACLContext ignored = ACL.as2(User.getById("admin", true).impersonate2())) {
            assertTrue(step.getSetting("credentialsId").items(null, true, "").stream().anyMatch(o -> "copilot-token".equals(o.value)));
        }
        JenkinsRule.WebClient reader = j.createWebClient().login("reader");
        reader.assertFails("configure", 403);
        JenkinsRule.WebClient admin = j.createWebClient().login("admin");
        String defaults = "descriptorByName/" + CopilotAutopilotStep.class.getName() + "/";
        String installer = "descriptorByName/" + CopilotCliInstaller.class.getName() + "/";
        for (String method : new String[] {defaults + "setting/credentialsId/fillItems", defaults + "setting/credentialsId/check",
            installer + "checkUrlTemplate", installer + "checkSha256", installer + "checkVersion"}) {
            assertPostOnly(admin, method);
        }
    }

    /**
     * The method answers a POST (with the crumb) and nothing else: Stapler's {@code @POST} lets no other HTTP method
     * reach it, so a GET ends in 404.
     */
    private void assertPostOnly(JenkinsRule.WebClient wc, String relative) throws Exception {
        wc.assertFails(relative, 404);
        WebRequest post = new WebRequest(new URL(j.getURL(), relative), HttpMethod.POST);
        assertEquals(200, wc.getPage(wc.addCrumb(post)).getWebResponse().getStatusCode(), relative);
    }

    @Test
    void theSessionPageShowsReadersWhatTheConsoleShowsThemAndTheWorkspaceOnlyToItsReaders() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject("ws");
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        RecordedSessions.into(b).sayingFirst("I read config.properties and will fix it").record("build-step-1");
        String page = b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/";

        // a reader of the build sees what the console shows: the messages, the tool calls and how they ended
        JenkinsRule.WebClient reader = j.createWebClient().login("reader");
        HtmlPage outline = reader.goTo(page);
        String text = outline.getBody().getTextContent();
        assertThat(text, containsString("COMPLETED: The agent called task_complete after 2 turns."));
        assertThat(text, containsString("Created hello.txt containing 'hello-from-fake-model'."));
        assertThat(text, containsString("I read config.properties and will fix it"));
        assertEquals(2, outline.querySelectorAll("details.copilot-turn").size());
        assertThat(text, containsString("echo hello-from-fake-model > hello.txt"));
        // but not the workspace: the tools' output, the task, the journal
        assertThat(text, containsString("who may read the workspace"));
        assertTrue(outline.querySelectorAll("li.copilot-tool details").isEmpty(), "no tool output");
        assertTrue(outline.querySelectorAll("details.copilot-task").isEmpty(), "no task");
        assertTrue(outline.querySelectorAll("a.copilot-journal").isEmpty(), "no download link");
        assertNotNull(outline.querySelector("img.copilot-timeline"), "the timeline is part of the outline");
        reader.goTo(page + "timeline?id=build-step-1", "image/svg+xml");
        reader.assertFails(page + "journal?id=build-step-1", 403);

        JenkinsRule.WebClient worker = j.createWebClient().login("worker");
        HtmlPage full = worker.goTo(page);
        // the tool's output (what the CLI adds to it for the model, its <shellId: …> line, left out)
        assertThat(full.querySelector("li.copilot-tool details pre").getTextContent(), org.hamcrest.Matchers.is("hello-from-fake-model"));
        assertNull(full.querySelector(".copilot-hidden"));
        assertThat(worker.goTo(page + "journal?id=build-step-1", "application/x-ndjson").getWebResponse().getContentAsString(),
                containsString("I read config.properties"));
    }

    @Test
    void agentTextKeptOutOfTheConsoleIsOnlyForReadersOfTheWorkspaceOnThePagesToo() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject("private");
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        RecordedSessions.into(b).sayingFirst("I read config.properties: db.password=from-the-workspace")
                .keepingAgentTextPrivate().record("build-step-1");
        String page = b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/";

        JenkinsRule.WebClient reader = j.createWebClient().login("reader");
        String outline = reader.goTo(page).getBody().getTextContent();
        assertThat(outline, containsString("COMPLETED: The agent called task_complete after 2 turns."));
        assertThat(outline, not(containsString("from-the-workspace")));
        assertThat("no summary, no tool call", outline, not(containsString("hello-from-fake-model")));
        assertThat(reader.goTo(b.getUrl()).getBody().getTextContent(), not(containsString("hello-from-fake-model")));
        assertThat(reader.goTo(b.getUrl() + "api/json?depth=2", "application/json").getWebResponse().getContentAsString(),
                not(containsString("hello-from-fake-model")));
        var shown = RestSessions.of(reader, b).path(0);
        assertEquals("COMPLETED", shown.path("ending").path("outcome").asText(), shown.toString());
        assertTrue(shown.path("ending").path("summary").isNull(), "the REST API has the outline but not the summary: " + shown);

        JenkinsRule.WebClient worker = j.createWebClient().login("worker");
        String full = worker.goTo(page).getBody().getTextContent();
        assertThat(full, containsString("from-the-workspace"));
        assertThat(full, containsString("Created hello.txt containing 'hello-from-fake-model'."));
        assertEquals("Created hello.txt containing 'hello-from-fake-model'.",
                RestSessions.of(worker, b).path(0).path("ending").path("summary").asText());
    }

    @Test
    void aBlockerIsAgentTextEscapedOnEveryPageAndKeptFromReadersWhenTheAgentsWordsAre() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject("blocked");
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        RecordedSessions.into(b).blockedBy("{\"description\":\"<img src=x id=blocker-markup> needs the release key\"}")
                .record("build-step-1");
        FreeStyleBuild hidden = j.buildAndAssertSuccess(p);
        RecordedSessions.into(hidden).blockedBy("{\"description\":\"needs the release key\"}").keepingAgentTextPrivate()
                .record("build-step-1");

        JenkinsRule.WebClient reader = j.createWebClient().login("reader");
        for (String url : new String[] {b.getUrl(), b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/"}) {
            org.htmlunit.html.HtmlPage page = reader.goTo(url);
            assertThat(url, page.getBody().getTextContent(), containsString("<img src=x id=blocker-markup> needs the release key"));
            assertThat(url, page.getElementById("blocker-markup"), org.hamcrest.Matchers.nullValue());
        }
        assertThat(RestSessions.of(reader, b).path(0).path("ending").path("blocker").asText(), containsString("needs the release key"));

        for (String url : new String[] {hidden.getUrl(), hidden.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/"}) {
            String text = reader.goTo(url).getBody().getTextContent();
            assertThat(url, text, containsString("BLOCKED"));
            assertThat(url, text, not(containsString("release key")));
        }
        assertThat(reader.goTo(hidden.getUrl() + "api/json?depth=2", "application/json").getWebResponse().getContentAsString(),
                not(containsString("release key")));
        assertEquals("BLOCKED", RestSessions.of(reader, hidden).path(0).path("ending").path("outcome").asText());
        assertThat(j.createWebClient().login("worker").goTo(hidden.getUrl()).getBody().getTextContent(),
                containsString("needs the release key"));
    }

    @Test
    void noSecretAtRestAndNoScriptApprovalNeeded() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").sayingFirst("token $COPILOT_GITHUB_TOKEN").write();
        WorkflowJob job = j.createProject(WorkflowJob.class, "p");
        job.setDefinition(new CpsFlowDefinition("node {\n def r = copilotAutopilot prompt: 'x', credentialsId: 'copilot-token',"
                + " copilotPath: '" + cli + "'\n echo \"${r.outcome} ${r['summary']} ${r.turns + 1}\"\n}", true));
        WorkflowRun b = j.buildAndAssertSuccess(job);

        j.assertLogContains("COMPLETED Created hello.txt containing 'hello-from-fake-model'. 3", b);
        assertEquals(0, ScriptApproval.get().getPendingSignatures().size(), "nothing to approve in the sandbox");
        assertThat(Files.readString(job.getConfigFile().getFile().toPath()), not(containsString(TestCredentials.TOKEN)));
        assertThat(Files.readString(b.getRootDir().toPath().resolve("build.xml")), not(containsString(TestCredentials.TOKEN)));
        assertThat(JenkinsRule.getLog(b), not(containsString(TestCredentials.TOKEN)));
    }
}
