package io.jenkins.plugins.copilotautopilot;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.model.Label;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.File;
import java.nio.file.Files;
import java.util.Properties;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * {@code session}: build 1 keeps its session, build 2 continues it on another agent (the model's first request of
 * build 2 holds build 1's conversation); an expired one starts fresh with a WARNING line; no page serves the state.
 * The real CLI and a scripted model.
 */
@WithJenkins
@Timeout(300)
class KeptSessionStepTest {
    /** Completes each new prompt once. */
    private static final ScriptedModelServer.Script COMPLETE = request -> {
        var messages = request.body().path("messages");
        boolean userSpokeLast = messages.size() > 0 && "user".equals(messages.get(messages.size() - 1).path("role").asText());
        return userSpokeLast ? Reply.taskComplete("Noted.") : Reply.text("Done.");
    };

    private static void define(WorkflowJob job, ScriptedModelServer model, String label, String prompt) throws Exception {
        job.setDefinition(new CpsFlowDefinition("node('" + label + "') {\n  copilotAutopilot prompt: '" + prompt + "', copilotPath: '"
                + TestCli.executable().path() + "', providerBaseUrl: '" + model.baseUrl() + "', model: 'fake-model', offline: true,"
                + " session: 'pr-42'\n}", true));
    }

    @Test
    void aSecondBuildOnAnotherAgentContinuesTheFirstAndAnExpiredOneStartsFresh(JenkinsRule j) throws Exception {
        j.createOnlineSlave(Label.get("first"));
        j.createOnlineSlave(Label.get("second"));
        WorkflowJob job = j.createProject(WorkflowJob.class, "review");
        try (ScriptedModelServer model = ScriptedModelServer.start(COMPLETE)) {
            define(job, model, "first", "Remember the code word PAPAYA-7.");
            WorkflowRun b1 = j.buildAndAssertSuccess(job);
            j.assertLogContains("[copilot] WARNING: no session 'pr-42' is kept for this job", b1);
            j.assertLogContains("[copilot] Kept session 'pr-42' for the next build of this job (", b1);
            File kept = new File(KeptSessions.folder(job), "pr-42.tgz");
            assertTrue(kept.isFile(), "kept in the job's folder");

            int before = model.requests().size();
            define(job, model, "second", "Which code word did I give you?");
            WorkflowRun b2 = j.buildAndAssertSuccess(job);
            j.assertLogContains("[copilot] Continuing session 'pr-42' from build #1 (kept ", b2);
            j.assertLogContains("[copilot] Tokens: 1,000 in (0 from the cache), 20 out, in 1 model call", b2); // not build 1's too
            String firstOfBuild2 = model.requests().get(before).toString();
            assertThat(firstOfBuild2, containsString("PAPAYA-7"));
            assertThat(firstOfBuild2, containsString("Which code word did I give you?"));
            assertEquals(b1.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getSessionId(),
                    b2.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getSessionId(), "the same CLI session");

            // no page serves the kept state
            JenkinsRule.WebClient web = j.createWebClient().withThrowExceptionOnFailingStatusCode(false);
            for (String url : new String[] {"job/review/copilot-sessions/pr-42.tgz", "job/review/ws/../copilot-sessions/pr-42.tgz"}) {
                int status = web.goTo(url, null).getWebResponse().getStatusCode();
                assertTrue(status == 404 || status == 400, url + " answered " + status);
            }

            // kept longer ago than the administrator allows: a new session, with a warning, and no failure
            CopilotAutopilotConfiguration.get().setKeptSessionDays(1);
            File meta = new File(KeptSessions.folder(job), "pr-42.properties");
            Properties p = new Properties();
            try (var in = Files.newInputStream(meta.toPath())) {
                p.load(in);
            }
            p.setProperty("savedAt", Long.toString(System.currentTimeMillis() - 3L * 24 * 3600 * 1000));
            try (var out = Files.newOutputStream(meta.toPath())) {
                p.store(out, null);
            }
            before = model.requests().size();
            define(job, model, "first", "Start over.");
            WorkflowRun b3 = j.buildAndAssertSuccess(job);
            j.assertLogContains("[copilot] WARNING: session 'pr-42' was kept by build #2 on ", b3);
            j.assertLogContains("longer ago than the 1 days sessions are kept: a new session starts.", b3);
            assertThat(model.requests().get(before).toString(), not(containsString("PAPAYA-7")));
        }
    }

    @Test
    void aBadSessionNameIsOneLine(JenkinsRule j) throws Exception {
        WorkflowJob job = j.createProject(WorkflowJob.class, "bad");
        job.setDefinition(new CpsFlowDefinition("node { copilotAutopilot prompt: 'x', copilotPath: '" + TestCli.executable().path()
                + "', providerBaseUrl: 'http://127.0.0.1:9/v1', model: 'm', offline: true, session: '../etc' }", true));
        WorkflowRun b = j.assertBuildStatus(hudson.model.Result.FAILURE, job.scheduleBuild2(0));
        j.assertLogContains("session must be a name of letters, digits, '.', '_' and '-'", b);
        j.assertLogNotContains("Exception", b);
    }
}
