package io.jenkins.plugins.copilotautopilot.usage;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.testing.SessionFolders;

import com.cloudbees.hudson.plugins.folder.Folder;
import hudson.model.Item;
import hudson.model.Result;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.nio.file.Files;
import java.util.List;
import jenkins.model.Jenkins;
import org.htmlunit.Page;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.MockAuthorizationStrategy;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Quotas across runs with the real CLI and the scripted model: a running session that crosses the controller's quota
 * is stopped OVER_BUDGET naming it, and the next step fails at once without asking the model; the usage pages of a
 * folder show nothing of another to a reader of one; the index is rebuilt from the builds when it is missing.
 */
@WithJenkins
@Timeout(300)
class UsageQuotaTest {
    private static String step(ScriptedModelServer model, String more) {
        return "copilotAutopilot prompt: 'Work.', copilotPath: '" + TestCli.executable().path() + "', providerBaseUrl: '"
                + model.baseUrl() + "', model: 'fake-model', offline: true, allowAllTools: true" + more;
    }

    private static WorkflowJob job(Folder folder, String name, String script) throws Exception {
        WorkflowJob p = folder.createProject(WorkflowJob.class, name);
        p.setDefinition(new CpsFlowDefinition(script, true));
        return p;
    }

    @Test
    void aSessionCrossingTheQuotaStopsOverBudgetAndTheNextStepFailsAtOnce(JenkinsRule j) throws Exception {
        QuotaConfiguration.get().setQuotas(List.of(new QuotaLimit("TOKENS", "12000")));
        j.configRoundtrip(); // the System page's form keeps it
        assertEquals(1, QuotaConfiguration.get().getQuotas().size());
        assertEquals(12_000, QuotaConfiguration.get().getQuotas().get(0).limit());
        assertEquals("DAY", QuotaConfiguration.get().getQuotas().get(0).getWindow());
        JenkinsRule.WebClient wc = j.createWebClient();
        wc.setThrowExceptionOnFailingStatusCode(false);
        org.htmlunit.html.HtmlForm form = wc.goTo("manage/configure").getFormByName("config");
        form.getInputByName("_.limit").setValue("abc");
        org.htmlunit.html.HtmlPage refused = j.submit(form);
        assertThat(refused.getWebResponse().getStatusCode() >= 400, is(true));
        assertThat(refused.getWebResponse().getContentAsString(),
                containsString("The quotas were not saved: A quota's limit is a number of 0 or more, not abc."));
        assertEquals(12_000, QuotaConfiguration.get().getQuotas().get(0).limit(), "a refused form changes nothing");
        Folder team = j.jenkins.createProject(Folder.class, "team");
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.always(Reply.text("Still thinking.").withUsage(5000, 100)))) {
            WorkflowJob p = job(team, "app", "node { " + step(model, ", maxAutopilotContinues: 20") + " }");

            WorkflowRun first = j.assertBuildStatus(Result.FAILURE, p.scheduleBuild2(0));
            j.assertLogContains("OVER_BUDGET", first);
            java.util.regex.Matcher stop = java.util.regex.Pattern.compile("OVER_BUDGET: Stopped [^\n]*: the quota of 12,000 tokens a day for "
                    + "the controller is reached: ([0-9,]+) tokens spent; it frees at \\d{4}-\\d{2}-\\d{2} 00:00 ").matcher(JenkinsRule.getLog(first));
            assertThat("the stop names the quota", stop.find(), is(true));
            // the CLI hands its usage records over in batches: on a busy machine several turns' at once
            long spent = Long.parseLong(stop.group(1).replace(",", ""));
            assertThat(spent >= 15_300 && spent % 5_100 == 0, is(true));
            assertEquals("OVER_BUDGET", first.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getEnding().getOutcome());
            int asked = model.requests().size();

            WorkflowRun second = j.assertBuildStatus(Result.FAILURE, p.scheduleBuild2(0));
            j.assertLogContains("The Copilot session was not started: the quota of 12,000 tokens a day for the controller is reached: ", second);
            assertEquals(asked, model.requests().size(), "the model is not asked again");
            // the usage pages' server-side HTML (HtmlUnit's Rhino cannot run bootstrap5-api's ES2015 classes: see UsagePagesTest)
            String page = j.createWebClient().withJavaScriptEnabled(false).goTo("job/team/job/app/copilot-usage/").getWebResponse().getContentAsString();
            assertThat(page, containsString("the quota of 12,000 tokens a day for the controller"));
            assertThat(page, containsString("<td>Reached</td>"));
            SessionFolders.assertNoSessionFolderLeft(j, first);
        }
    }

    @Test
    void aReaderOfOneFolderSeesNothingOfAnotherAndTheIndexIsRebuiltWhenMissing(JenkinsRule j) throws Exception {
        Folder a = j.jenkins.createProject(Folder.class, "a");
        Folder b = j.jenkins.createProject(Folder.class, "b");
        a.getProperties().add(new FolderQuotas(List.of(new QuotaLimit("PREMIUM_REQUESTS", "100"))));
        j.configRoundtrip(a);
        FolderQuotas kept = a.getProperties().get(FolderQuotas.class);
        assertNotNull(kept, "the folder's quotas survive its configuration form");
        assertEquals("PREMIUM_REQUESTS", kept.getQuotas().get(0).getMetric());
        assertEquals("100", kept.getQuotas().get(0).getLimit());
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            j.buildAndAssertSuccess(job(a, "j", "node { " + step(model, "") + " }"));
            j.buildAndAssertSuccess(job(a, "hidden", "node { " + step(model, "") + " }"));
            j.buildAndAssertSuccess(job(b, "secret-job", "node { " + step(model, "") + " }"));
        }

        j.jenkins.setSecurityRealm(j.createDummySecurityRealm());
        j.jenkins.setAuthorizationStrategy(new MockAuthorizationStrategy()
                .grant(Jenkins.ADMINISTER).everywhere().to("admin")
                .grant(Jenkins.READ).everywhere().to("alice")
                .grant(Item.READ).onItems(a, a.getItem("j")).to("alice"));

        JenkinsRule.WebClient alice = j.createWebClient().login("alice").withJavaScriptEnabled(false);
        String page = alice.goTo("job/a/copilot-usage/").getWebResponse().getContentAsString();
        assertThat(page, containsString("a/j"));
        assertThat(page, not(containsString("secret-job")));
        assertThat("a job in the folder alice may not read", page, not(containsString("a/hidden")));
        assertThat(page, containsString("the quota of 100 premium requests a day for folder a"));
        String json = alice.goTo("job/a/copilot-usage/export?format=json", "application/json").getWebResponse().getContentAsString();
        assertThat(json, containsString("\"job\":\"a/j\""));
        assertThat(json, not(containsString("secret-job")));
        assertThat(json, not(containsString("a/hidden")));
        // the trend counts what alice may read only: a/j's session, not a/hidden's
        com.fasterxml.jackson.databind.JsonNode aliceTrend = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                alice.goTo("job/a/copilot-usage/trend", "application/json").getWebResponse().getContentAsString());
        int sessions = 0;
        for (com.fasterxml.jackson.databind.JsonNode n : aliceTrend.get("sessions")) {
            sessions += n.asInt();
        }
        assertEquals(1, sessions);
        alice.setThrowExceptionOnFailingStatusCode(false);
        assertEquals(404, alice.goTo("job/b/copilot-usage/", null).getWebResponse().getStatusCode());
        assertEquals(404, alice.goTo("job/b/copilot-usage/export?format=json", null).getWebResponse().getStatusCode());
        assertEquals(404, alice.goTo("job/b/copilot-usage/trend", null).getWebResponse().getStatusCode());
        assertEquals(403, alice.goTo("manage/copilot-usage/trend", null).getWebResponse().getStatusCode());
        assertEquals(403, alice.goTo("manage/copilot-usage/", null).getWebResponse().getStatusCode());
        assertEquals(403, alice.goTo("manage/copilot-usage/export?format=csv", null).getWebResponse().getStatusCode());

        JenkinsRule.WebClient admin = j.createWebClient().login("admin").withJavaScriptEnabled(false);
        String csv = admin.goTo("manage/copilot-usage/export?format=csv", "text/csv").getWebResponse().getContentAsString();
        assertThat(csv, startsWith("day,job,model,aiCredits,tokens,premiumRequests,sessions,sessionsWithoutAiCredits,outcomes\n"));
        assertThat(csv, containsString(",a/j,fake-model,"));
        assertThat(csv, containsString(",b/secret-job,fake-model,"));
        assertThat(csv, containsString(",1,1,COMPLETED=1\n"));
        Page trend = admin.goTo("manage/copilot-usage/trend", "application/json");
        assertThat(trend.getWebResponse().getContentAsString(), containsString("\"days\":[\""));
        assertThat(trend.getWebResponse().getContentAsString(), containsString("\"" + java.time.LocalDate.now() + "\""));
        assertThat(admin.goTo("manage/copilot-usage/").getWebResponse().getContentAsString(), containsString("a/hidden"));

        // the index gone (deleted by hand, say): rebuilt once from the builds' records, with the same rows
        String before = UsageTesting.export();
        UsageTesting.deleteIndex();
        assertEquals(before, UsageTesting.export());
        assertEquals(true, Files.exists(UsageTesting.indexFile()));
    }
}
