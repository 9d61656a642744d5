package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotConfiguration;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;

import hudson.model.Label;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
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

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
            assertEquals(b1.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getEnding().getSessionId(),
                    b2.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getEnding().getSessionId(), "the same CLI session");

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

    private static void defineWhere(WorkflowJob job, ScriptedModelServer model, String label) throws Exception {
        job.setDefinition(new CpsFlowDefinition("node('" + label + "') {\n  copilotAutopilot prompt: 'Note where you work.', copilotPath: '"
                + TestCli.executable().path() + "', providerBaseUrl: '" + model.baseUrl() + "', model: 'fake-model', offline: true,"
                + " allowAllTools: true, session: 'pr-29'\n}", true));
    }

    /**
     * The kept state held the first build's working directory, which CLI 1.0.102 changes into on --resume: build 2's
     * tools worked in build 1's workspace. Here a continued session works in its own build's workspace on another agent
     * of this machine and in job@2, and the kept state is private, masked and names no workspace.
     */
    @Test
    void aContinuedSessionWorksInItsOwnBuildsWorkspaceOnAnotherAgentAndInJobAt2(JenkinsRule j) throws Exception {
        j.jenkins.setNumExecutors(2);
        hudson.model.Node second = j.createOnlineSlave(Label.get("second"));
        WorkflowJob job = j.createProject(WorkflowJob.class, "pr");
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenCompleteEachPrompt(
                "pwd > where-$BUILD_NUMBER.txt; echo \"seen: $DEPLOY_KEY\"", "Noted where."))) {
            defineWhere(job, model, "built-in");
            WorkflowRun b1 = j.buildAndAssertSuccess(job);
            hudson.FilePath ws1 = j.jenkins.getWorkspaceFor(job);
            assertEquals(ws1.getRemote(), ws1.child("where-1.txt").readToString().strip());

            // build 2 on another agent of this machine: its own workspace
            defineWhere(job, model, "second");
            WorkflowRun b2 = j.buildAndAssertSuccess(job);
            j.assertLogContains("[copilot] Continuing session 'pr-29' from build #1", b2);
            hudson.FilePath ws2 = second.getWorkspaceFor(job);
            assertEquals(ws2.getRemote(), ws2.child("where-2.txt").readToString().strip());
            assertTrue(!ws1.child("where-2.txt").exists(), "nothing written in build 1's workspace");

            // build 4 in pr@2, while build 3 holds the workspace pr on the same node
            job.setDefinition(new CpsFlowDefinition("node('built-in') { semaphore 'hold' }", true));
            WorkflowRun b3 = job.scheduleBuild2(0).waitForStart();
            org.jenkinsci.plugins.workflow.test.steps.SemaphoreStep.waitForStart("hold/1", b3);
            defineWhere(job, model, "built-in");
            WorkflowRun b4 = j.buildAndAssertSuccess(job);
            hudson.FilePath at2 = ws1.getParent().child(ws1.getName() + "@2");
            assertEquals(at2.getRemote(), at2.child("where-4.txt").readToString().strip());
            assertTrue(!ws1.child("where-4.txt").exists(), "nothing written in the workspace build 3 holds");
            org.jenkinsci.plugins.workflow.test.steps.SemaphoreStep.success("hold/1", null);
            j.assertBuildStatusSuccess(j.waitForCompletion(b3));

            // the kept state: the controller's user's alone, no workspace path in it
            File dir = KeptSessions.folder(job);
            assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.toPath())));
            for (String name : new String[] {"pr-29.tgz", "pr-29.properties"}) {
                assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(new File(dir, name).toPath())), name);
            }
            String state = io.jenkins.plugins.copilotautopilot.core.testing.ArchiveWriter.textOfTarGz(
                    Files.readAllBytes(new File(dir, "pr-29.tgz").toPath()));
            assertThat(state, containsString("workspace.yaml"));
            assertThat(state, not(containsString("cwd:")));
        }
    }

    /** What a tool printed of a secret is kept masked, as the journal keeps it. */
    @Test
    void theKeptStateHoldsNoSecretAToolPrinted(JenkinsRule j) throws Exception {
        WorkflowJob job = j.createProject(WorkflowJob.class, "secret");
        String key = "kept-deploy-key-5e6f7a8b9c";
        TestCredentials.addSecretText(j, "deploy-key", key);
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenCompleteEachPrompt(
                "echo \"key=$DEPLOY_KEY\"; echo \"$DEPLOY_KEY\" | base64", "Printed it."))) {
            job.setDefinition(new CpsFlowDefinition("node {\n  withCredentials([string(credentialsId: 'deploy-key', variable: 'DEPLOY_KEY')]) {\n"
                    + "    copilotAutopilot prompt: 'Print it.', copilotPath: '" + TestCli.executable().path() + "', providerBaseUrl: '"
                    + model.baseUrl() + "', model: 'fake-model', offline: true, allowAllTools: true, toolSecrets: ['DEPLOY_KEY'],"
                    + " session: 's'\n  }\n}", true));
            j.buildAndAssertSuccess(job);
            String state = io.jenkins.plugins.copilotautopilot.core.testing.ArchiveWriter.textOfTarGz(
                    Files.readAllBytes(new File(KeptSessions.folder(job), "s.tgz").toPath()));
            assertThat(state, containsString("key=****"));
            assertThat(state, not(containsString(key)));
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
