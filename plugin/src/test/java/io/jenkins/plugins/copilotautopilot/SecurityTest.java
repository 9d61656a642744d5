package io.jenkins.plugins.copilotautopilot;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.Item;
import hudson.model.User;
import hudson.security.ACL;
import hudson.security.ACLContext;
import hudson.security.AccessDeniedException3;
import hudson.util.ListBoxModel;
import java.nio.file.Files;
import java.nio.file.Path;
import jenkins.model.Jenkins;
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
                .grant(Jenkins.READ, Item.READ).everywhere().to("reader"));
    }

    @Test
    void credentialsAreOnlyListedToUsersWhoMayConfigure() throws Exception {
        WorkflowJob job = j.createProject(WorkflowJob.class, "p");
        CopilotAutopilotStep.DescriptorImpl descriptor = j.jenkins.getDescriptorByType(CopilotAutopilotStep.DescriptorImpl.class);
        try (ACLContext ignored = ACL.as2(User.getById("reader", true).impersonate2())) {
            ListBoxModel items = descriptor.doFillCredentialsIdItems(job, "");
            assertTrue(items.stream().noneMatch(o -> "copilot-token".equals(o.value)), "a reader sees no credential IDs");
        }
        try (ACLContext ignored = ACL.as2(User.getById("admin", true).impersonate2())) {
            ListBoxModel items = descriptor.doFillCredentialsIdItems(job, "");
            assertTrue(items.stream().anyMatch(o -> "copilot-token".equals(o.value)), "an administrator sees them");
        }
    }

    @Test
    void formMethodsThatTouchCredentialsRequirePost() throws Exception {
        JenkinsRule.WebClient wc = j.createWebClient().login("admin");
        for (String descriptor : new String[] {CopilotAutopilotStep.class.getName(), CopilotAutopilotBuilder.class.getName()}) {
            for (String method : new String[] {"fillCredentialsIdItems", "fillProviderCredentialsIdItems", "checkCredentialsId",
                "checkProviderCredentialsId"}) {
                wc.assertFails("descriptorByName/" + descriptor + "/" + method, 405);
            }
        }
    }

    @Test
    void theGlobalDefaultsAreForAdministratorsOnly() throws Exception {
        CopilotAutopilotConfiguration config = CopilotAutopilotConfiguration.get();
        try (ACLContext ignored = ACL.as2(User.getById("reader", true).impersonate2())) {
            assertTrue(config.doFillCredentialsIdItems("").stream().noneMatch(o -> "copilot-token".equals(o.value)),
                    "a reader sees no credential IDs");
            assertThrows(AccessDeniedException3.class, () -> config.doCheckInstallation("x"));
            assertThrows(AccessDeniedException3.class, () -> config.doCheckProviderBaseUrl("http://127.0.0.1:1/v1", "m"));
        }
        try (ACLContext ignored = ACL.as2(User.getById("admin", true).impersonate2())) {
            assertTrue(config.doFillCredentialsIdItems("").stream().anyMatch(o -> "copilot-token".equals(o.value)));
        }
        JenkinsRule.WebClient reader = j.createWebClient().login("reader");
        reader.assertFails("configure", 403);
        JenkinsRule.WebClient admin = j.createWebClient().login("admin");
        String global = "descriptorByName/" + CopilotAutopilotConfiguration.class.getName() + "/";
        String installer = "descriptorByName/" + CopilotCliInstaller.class.getName() + "/";
        for (String method : new String[] {global + "fillCredentialsIdItems", global + "checkCredentialsId",
            global + "checkInstallation", global + "checkProviderBaseUrl", installer + "checkUrlTemplate",
            installer + "checkSha256", installer + "checkVersion"}) {
            admin.assertFails(method, 405);
        }
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
