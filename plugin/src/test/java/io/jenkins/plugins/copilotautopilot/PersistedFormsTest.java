package io.jenkins.plugins.copilotautopilot;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotBuilder;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotConfiguration;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import java.util.List;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;
import org.jvnet.hudson.test.junit.jupiter.WithLocalData;

/**
 * What this version leaves on disk loads in the next: the compatibility baseline of the first release. The fixture
 * ({@code PersistedFormsTest/home.zip}) is a {@code JENKINS_HOME} written by this version — the global defaults, a
 * Freestyle job's {@code config.xml} with a task's settings, its build's {@code build.xml} with a session record and
 * journal, and a Pipeline build saved while its session ran ({@code program.dat} holding the step's resume state: the
 * plan, where the session runs, where its secrets come from). A class moved or renamed without an alias, a field
 * renamed, a serialized form changed: one of these fails.
 */
@WithJenkins
class PersistedFormsTest {
    @Test
    @WithLocalData("home")
    void theGlobalDefaultsLoad(JenkinsRule j) {
        CopilotAutopilotConfiguration configuration = CopilotAutopilotConfiguration.get();
        CopilotAutopilotStep defaults = configuration.getDefaults();
        assertEquals(List.of("shell(rm)"), defaults.getDenyTools());
        assertEquals(Long.valueOf(500_000L), defaults.getMaxTokens());
        assertEquals(Integer.valueOf(45), defaults.getTimeout());
        assertEquals(Boolean.FALSE, defaults.getRecordChanges());
        assertEquals(Integer.valueOf(14), configuration.getKeptSessionDays());
    }

    @Test
    @WithLocalData("home")
    void aFreestyleJobsSettingsAndItsSessionRecordLoad(JenkinsRule j) throws Exception {
        FreeStyleProject f = j.jenkins.getItemByFullName("freestyle", FreeStyleProject.class);
        CopilotAutopilotStep task = f.getBuildersList().get(CopilotAutopilotBuilder.class).getTask();
        assertEquals("Create hello.txt", task.getPrompt());
        assertEquals("http://127.0.0.1:9/v1", task.getProviderBaseUrl());
        assertEquals("fake-model", task.getModel());
        assertEquals(true, task.isOffline());
        assertEquals(List.of("shell(ls)", "write"), task.getAllowTools());
        assertEquals("UNSTABLE", task.getResultWhenIncomplete());
        assertEquals(Integer.valueOf(7), task.getInactivityTimeout());
        assertEquals("Copilot review", task.getChecksName());

        FreeStyleBuild b = f.getBuildByNumber(1);
        CopilotAutopilotRunAction action = b.getAction(CopilotAutopilotRunAction.class);
        assertNotNull(action, "the session record in build.xml");
        SessionRecord session = action.getSessions().get(0);
        assertEquals("COMPLETED", session.getEnding().getOutcome());
        assertEquals(RecordedSessions.CAPTURED_SUMMARY, session.getEnding().getSummary());
        String page = j.createWebClient().getPage(b, CopilotAutopilotRunAction.URL_NAME + "/").getWebResponse().getContentAsString();
        assertThat("the page reads the recorded journal", page, containsString("hello-from-fake-model"));
    }

    @Test
    void aTaskSavedWithOnlyItsPromptLoadsWithEveryDefault(JenkinsRule j) throws Exception {
        // as a tool or a hand writes it, or a version before a setting existed: XStream runs no initializer
        String xml = "<project><builders><" + CopilotAutopilotBuilder.class.getName() + "><task><prompt>Create hello.txt</prompt>"
                + "</task></" + CopilotAutopilotBuilder.class.getName() + "></builders></project>";
        FreeStyleProject f = (FreeStyleProject) j.jenkins.createProjectFromXML("minimal",
                new java.io.ByteArrayInputStream(xml.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        CopilotAutopilotStep task = f.getBuildersList().get(CopilotAutopilotBuilder.class).getTask();
        assertEquals(true, task.isPropagate(), "propagate, whose default is true");
        assertEquals(List.of(), task.getAllowTools());
        assertEquals(List.of(), task.getToolSecrets());
        // the form renders and an unchanged save keeps what it had
        j.submit(j.createWebClient().getPage(f, "configure").getFormByName("config"));
        CopilotAutopilotStep saved = f.getBuildersList().get(CopilotAutopilotBuilder.class).getTask();
        assertEquals("Create hello.txt", saved.getPrompt());
        assertEquals(true, saved.isPropagate());
        assertEquals(List.of(), saved.getDenyTools());
    }

    @Test
    @WithLocalData("home")
    void aPipelineSavedWhileItsSessionRanResumesFromItsState(JenkinsRule j) throws Exception {
        WorkflowRun b = j.jenkins.getItemByFullName("pipeline", WorkflowJob.class).getBuildByNumber(1);
        j.waitForCompletion(b);
        // the step's state was read back (its plan, where the session ran, its journal's checkpoint): it went to
        // follow the session again and found its folder gone with the home it was written in, at once rather than
        // at the end of the session's wall-clock limit
        j.assertLogContains("is gone (was the workspace deleted?)", b);
        j.assertBuildStatus(Result.FAILURE, b);
        SessionRecord session = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0);
        assertEquals("FAILED", session.getEnding().getOutcome());
        assertThat("the journal up to the checkpoint is kept", j.createWebClient().getPage(b, CopilotAutopilotRunAction.URL_NAME + "/")
                .getWebResponse().getContentAsString(), containsString("Review the change"));
    }
}
