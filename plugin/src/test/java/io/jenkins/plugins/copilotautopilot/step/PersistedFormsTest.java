package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.testing.RecordedSessions;
import io.jenkins.plugins.copilotautopilot.testing.RestSessions;
import io.jenkins.plugins.copilotautopilot.testing.Waits;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    @WithLocalData("home")
    void theGlobalDefaultsLoad(JenkinsRule j) throws Exception {
        CopilotAutopilotConfiguration configuration = CopilotAutopilotConfiguration.get();
        CopilotAutopilotStep defaults = configuration.getDefaults();
        assertEquals(List.of("shell(rm)"), defaults.getDenyTools());
        assertEquals(Long.valueOf(500_000L), defaults.getMaxTokens());
        assertEquals(Integer.valueOf(45), defaults.getTimeout());
        assertEquals(Boolean.FALSE, defaults.getRecordChanges());
        assertEquals(Integer.valueOf(14), configuration.getKeptSessionDays());
        theHomesPipelineEnded(j);
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
        assertEquals(2, session.getActivity().getTurns());
        assertEquals(2, session.getActivity().getToolCalls());
        assertEquals(0, session.getActivity().getPolicyDeniedToolCalls(), "a field this record was saved without");
        assertEquals("fake-model", session.getEnding().getModel());
        assertEquals(1135L, session.getEnding().getDurationMillis());
        assertEquals(Double.valueOf(0.0), session.getUsage().getPremiumRequests());
        assertNull(session.getUsage().getAiCreditsStatus(), "a field this record was saved without");
        assertEquals(1, session.getWarnings().size());
        String page = j.createWebClient().getPage(b, CopilotAutopilotRunAction.URL_NAME + "/").getWebResponse().getContentAsString();
        assertThat("the page reads the recorded journal", page, containsString("hello-from-fake-model"));
        theHomesPipelineEnded(j);
    }

    /**
     * The home's Pipeline resumes as the controller starts, on Jenkins' threads, and ends at once (its session's folder
     * is gone with the home it ran in). A test of something else waits for that end, or a busy machine sees the build
     * still write into its folder while the home is being deleted.
     */
    private static void theHomesPipelineEnded(JenkinsRule j) throws Exception {
        WorkflowRun b = j.jenkins.getItemByFullName("pipeline", WorkflowJob.class).getBuildByNumber(1);
        Waits.waitFor(() -> !b.isBuilding() && !b.isLogUpdated(), java.time.Duration.ofMinutes(2), b);
        j.assertBuildStatus(Result.FAILURE, b);
    }

    /** The first session of {@code flatRecords}, every field of the flat form set, as the REST API nests it now. */
    private static final String EVERY_FIELD = """
            {"invocationId": "build-step-1", "label": null, "approvals": [], "warnings": ["WARNING: w"],
             "ending": {"outcome": "FAILED", "reason": "Why.", "summary": "Summary.", "blocker": "Blocker.",
                        "failure": {"kind": "RATE_LIMITED", "errorCode": "rate_limit", "statusCode": 429, "retryable": true,
                                    "action": "Wait."},
                        "exitCode": 1, "durationMillis": 61000, "sessionId": "sid-1", "model": "gpt-x"},
             "activity": {"turns": 3, "toolCalls": 4, "failedToolCalls": 1, "deniedToolCalls": 2, "policyDeniedToolCalls": 1,
                          "deniedFetches": 1, "deniedUrls": ["https://x.example/"], "nudges": 5},
             "usage": {"premiumRequests": 2.0, "aiCredits": 3.5, "aiCreditsStatus": "partial", "inputTokens": 1000,
                       "outputTokens": 200, "cacheReadTokens": 50},
             "changes": {"linesAdded": 7, "linesRemoved": 8, "filesModified": 1,
                         "files": [{"path": "a.txt", "status": "modified", "linesAdded": 7, "linesRemoved": 8}]},
             "verification": {"verified": false, "rounds": 2, "exitCode": 3},
             "answer": {"output": "{\\n  \\"v\\" : 1\\n}", "rounds": 1,
                        "findings": [{"path": "a.txt", "line": 1, "endLine": 2, "severity": "high", "message": "Bad.", "rule": "r1"}]}}
            """;

    /**
     * A build saved before the result's parts: its records are flat, one field per number and text
     * ({@code PersistedFormsTest/flatRecords}: the first with every field that form had, the second as a still older
     * version left it). They load into the parts, the pages and the REST API show their numbers, and the build saves
     * them in the parts' form.
     */
    @Test
    @WithLocalData("flatRecords")
    void sessionsSavedInTheFlatFormShowTheirNumbers(JenkinsRule j) throws Exception {
        FreeStyleBuild b = j.jenkins.getItemByFullName("flat", FreeStyleProject.class).getBuildByNumber(1);
        JenkinsRule.WebClient wc = j.createWebClient();
        JsonNode sessions = RestSessions.of(wc, b);
        assertEquals(JSON.readTree(EVERY_FIELD), sessions.path(0));
        JsonNode older = sessions.path(1);
        assertEquals("Older.", older.path("ending").path("summary").asText(), older.toString());
        assertEquals(2, older.path("activity").path("toolCalls").asInt());
        assertEquals(0, older.path("activity").path("policyDeniedToolCalls").asInt());
        assertEquals(340, older.path("usage").path("inputTokens").asInt() + older.path("usage").path("outputTokens").asInt());
        assertTrue(older.path("usage").path("aiCredits").isNull(), "no AI credits in a record of before them: unknown, not 0");
        assertTrue(older.path("verification").path("verified").isNull());
        assertEquals(List.of(), older.path("changes").path("files").findValuesAsText("path"));

        String summary = wc.getPage(b).querySelector(".copilot-autopilot-summary").asNormalizedText();
        assertThat(summary, containsString("FAILED: Why."));
        assertThat(summary, containsString("3 turns, 4 tool calls (1 failed, 2 denied), premium requests: 2, "));
        assertThat(summary, containsString("AI credits: at least 3.5"));
        assertThat(summary, containsString("Tokens: 1,000 in / 200 out"));
        assertThat(summary, containsString("Changes: +7 -8 lines in 1 file"));
        assertThat(summary, containsString("1 turn, 2 tool calls (0 failed, 0 denied), premium requests: 1, "));
        assertThat(summary, containsString("Tokens: 300 in / 40 out"));
        String page = wc.getPage(b, CopilotAutopilotRunAction.URL_NAME + "/").asNormalizedText();
        for (String shown : List.of("Blocked by: Blocker.", "RATE_LIMITED (worth retrying later): Wait.", "WARNING: w",
                "Answer, following the schema in round 1", "1 review finding", "Bad.", "not passed after 2 rounds (last exit code: 3)",
                "1 tool call denied for a URL: https://x.example/", "gpt-x", "sid-1", "+7 -8 lines in 1 file", "Older.")) {
            assertThat(page, containsString(shown));
        }

        b.save();
        String xml = java.nio.file.Files.readString(b.getRootDir().toPath().resolve("build.xml"));
        assertThat("saved in the parts' form", xml, containsString("<verification>"));
        assertThat("and in no other", xml, not(containsString("<verifyRounds>")));
        assertThat(xml, not(containsString("<changedFiles>")));
        j.jenkins.reload();
        FreeStyleBuild reloaded = j.jenkins.getItemByFullName("flat", FreeStyleProject.class).getBuildByNumber(1);
        assertEquals(JSON.readTree(EVERY_FIELD), RestSessions.of(wc, reloaded).path(0));
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
