package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.testing.ReadmeBlocks;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.usage.QuotaConfiguration;
import io.jenkins.plugins.copilotautopilot.usage.QuotaLimit;
import io.jenkins.plugins.copilotautopilot.usage.UsageTesting;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import hudson.EnvVars;
import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Label;
import hudson.model.Result;
import hudson.model.Run;
import hudson.slaves.DumbSlave;
import io.jenkins.plugins.copilotautopilot.core.testing.GithubStandIn;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The step with the real Copilot CLI in GitHub-token mode (no BYOK) on an agent, against {@link GithubStandIn} on
 * 127.0.0.1: the token is the step's Secret text credential, the agent finds the CLI through {@code COPILOT_CLI}, and
 * each Pipeline points the CLI at its stand-in with {@code withEnv} (a Freestyle build through the agent's variables).
 * What GitHub reports and refuses reaches the log, the returned map, the REST API, the session page, the usage index
 * and the quotas the same way: AI credits, the failure's kind and what to do, a rate limit ridden out in the same
 * session, and an organisation's policy that blocks bypass mode.
 */
@WithJenkins
@Timeout(300)
class GithubServiceStepTest {
    private static final String WRITE = "echo hi-from-the-model > hi.txt";
    private static final String AGENT = "copilot-agent";
    private static final ObjectMapper JSON = new ObjectMapper();

    private JenkinsRule j;
    private DumbSlave agent;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addSecretText(j, TestCredentials.TOKEN_ID, GithubStandIn.TOKEN);
        agent = j.createOnlineSlave(Label.get(AGENT), new EnvVars("COPILOT_CLI", TestCli.executable().path()));
    }

    private static GithubStandIn standIn() throws Exception {
        return GithubStandIn.start(Scripts.bashThenComplete(WRITE, "Wrote hi.txt."));
    }

    /** {@code body} on the agent, with the variables that point the CLI at {@code github} (a cache of its own). */
    private String onTheAgent(GithubStandIn github, String body) throws Exception {
        String variables = github.variables(tmp.resolve("cache-" + github.url().replaceAll("\\D", ""))).entrySet().stream()
                .map(e -> "'" + e.getKey() + "=" + e.getValue() + "'").collect(Collectors.joining(", "));
        return "node('" + AGENT + "') {\n  withEnv([" + variables + "]) {\n" + body + "\n  }\n}\n";
    }

    /** The step as a Pipeline calls it in token mode: the credential, gpt-5, every tool allowed, and {@code more}. */
    private static String step(String more) {
        return "copilotAutopilot prompt: 'Write hi.txt, then finish.', credentialsId: '" + TestCredentials.TOKEN_ID
                + "', model: '" + GithubStandIn.MODEL + "', allowAllTools: true" + more;
    }

    /** The step with {@code more}, its map echoed: the outcome, the failure's kind and whether retrying may help. */
    private static String stepEchoingTheMap(String more) {
        return "    def r = " + step(more) + "\n"
                + "    echo \"outcome=${r.outcome} kind=${r.failure?.kind} retryable=${r.failure?.retryable}"
                + " credits=${r.aiCredits} status=${r.aiCreditsStatus} policyDenied=${r.policyDeniedToolCalls}\"\n";
    }

    private WorkflowJob pipeline(String name, String script) throws Exception {
        WorkflowJob p = j.createProject(WorkflowJob.class, name);
        p.setDefinition(new CpsFlowDefinition(script, true));
        return p;
    }

    private static SessionRecord session(Run<?, ?> b) {
        List<SessionRecord> sessions = b.getAction(CopilotAutopilotRunAction.class).getSessions();
        assertEquals(1, sessions.size());
        return sessions.get(0);
    }

    private static List<String> lines(Run<?, ?> b) throws Exception {
        return Arrays.asList(JenkinsRule.getLog(b).split("\n"));
    }

    private static List<String> linesContaining(Run<?, ?> b, String text) throws Exception {
        return lines(b).stream().filter(l -> l.contains(text)).toList();
    }

    /** The one session of the build's {@code copilot-autopilot} action, as the build's REST API gives it. */
    private JsonNode restSession(Run<?, ?> b) throws Exception {
        String json = j.createWebClient().goTo(b.getUrl() + "api/json?depth=2", "application/json").getWebResponse().getContentAsString();
        assertThat(json, not(containsString(GithubStandIn.TOKEN)));
        for (JsonNode action : JSON.readTree(json).path("actions")) {
            if (action.path("_class").asText().equals(CopilotAutopilotRunAction.class.getName())) {
                JsonNode sessions = action.path("sessions");
                assertEquals(1, sessions.size(), json);
                return sessions.get(0);
            }
        }
        throw new AssertionError("no copilot-autopilot action in " + json);
    }

    /** The value cell of the session page's row {@code label}, HtmlUnit with JavaScript off. */
    private String sessionPageRow(Run<?, ?> b, String label) throws Exception {
        HtmlPage page = j.createWebClient().withJavaScriptEnabled(false).goTo(b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/");
        for (DomNode row : page.querySelectorAll("tr")) {
            DomNode th = row.querySelector("th");
            DomNode td = row.querySelector("td");
            if (th != null && td != null && th.asNormalizedText().strip().equals(label)) {
                return td.asNormalizedText().strip();
            }
        }
        throw new AssertionError("no row '" + label + "' on the session page:\n" + page.asNormalizedText());
    }

    @Test
    void theAiCreditsGithubReportsAreTheSameInTheLogTheMapTheRestApiThePageTheCsvAndTheQuota() throws Exception {
        QuotaConfiguration.get().setQuotas(List.of(new QuotaLimit("AI_CREDITS", "1000")));
        try (GithubStandIn github = standIn().creditsPerCall(2.5)) {
            WorkflowRun b = j.buildAndAssertSuccess(pipeline("credits", onTheAgent(github, stepEchoingTheMap(""))));

            j.assertLogContains("[copilot] COMPLETED: The agent called task_complete", b);
            assertThat("each model call's line", linesContaining(b, "| AI credits: 2.5"), hasSize(2));
            assertThat(linesContaining(b, "| premium requests: 1 | AI credits: 5 |"), hasSize(1));
            j.assertLogContains("outcome=COMPLETED kind=null retryable=null credits=5.0 status=complete policyDenied=0", b);
            j.assertLogNotContains(GithubStandIn.TOKEN, b);
            assertThat("a bash call and task_complete, with the token", github.modelCalls(), hasSize(2));
            github.modelCalls().forEach(r -> assertEquals("Bearer " + GithubStandIn.TOKEN, r.header("authorization")));
            assertTrue(github.requests().stream().allMatch(r -> r.header("host").startsWith("127.0.0.1:")));
            assertEquals("hi-from-the-model\n", agent.getWorkspaceFor(b.getParent()).child("hi.txt").readToString(),
                    "the CLI ran on the agent");

            SessionRecord record = session(b);
            assertEquals(5.0, record.getUsage().getAiCredits());
            assertEquals("complete", record.getUsage().getAiCreditsStatus());
            assertNull(record.getEnding().getFailure());
            JsonNode rest = restSession(b);
            assertEquals(5.0, rest.path("usage").path("aiCredits").asDouble(), rest.toString());
            assertEquals("complete", rest.path("usage").path("aiCreditsStatus").asText());
            assertEquals("COMPLETED", rest.path("ending").path("outcome").asText());
            assertTrue(rest.path("ending").path("failure").isNull() || rest.path("ending").path("failure").isMissingNode(), rest.toString());
            assertEquals("5", sessionPageRow(b, "AI credits"));

            String csv = j.createWebClient().goTo("manage/copilot-usage/export?format=csv", "text/csv").getWebResponse().getContentAsString();
            assertThat(csv, startsWith("day,job,model,aiCredits,tokens,premiumRequests,sessions,sessionsWithoutAiCredits,outcomes\n"));
            assertThat(csv, containsString(",credits," + GithubStandIn.MODEL + ",5,"));
            assertThat(csv, containsString(",1,0,COMPLETED=1\n"));
            assertEquals(csv, UsageTesting.export(), "the page's export is the index's");
            String usage = j.createWebClient().withJavaScriptEnabled(false).goTo("manage/copilot-usage/").asNormalizedText();
            assertThat(usage, containsString("the quota of 1,000 AI credits a day for the controller"));
        }

        // maxAiCredits: a session that never completes, 10 credits a call, stopped past 25
        try (GithubStandIn github = GithubStandIn.start(request -> Reply.text("Still thinking, no task_complete yet.")).creditsPerCall(10)) {
            WorkflowRun b = j.assertBuildStatus(Result.FAILURE, pipeline("budget", onTheAgent(github,
                    "    " + step(", maxAiCredits: 25, maxAutopilotContinues: 20"))).scheduleBuild2(0));

            j.assertLogContains("[copilot] OVER_BUDGET: ", b);
            j.assertLogContains(", limit 25 (maxAiCredits)", b);
            assertEquals("OVER_BUDGET", session(b).getEnding().getOutcome());
            assertThat(session(b).getUsage().getAiCredits(), greaterThanOrEqualTo(30.0));
            assertThat("stopped soon after the limit, not at the continuation cap", github.modelCalls().size(), lessThan(10));
        }

        // the quota of AI credits counts both sessions: lowered under what they spent, it stops the next build before it starts
        QuotaConfiguration.get().setQuotas(List.of(new QuotaLimit("AI_CREDITS", "30")));
        String usage = j.createWebClient().withJavaScriptEnabled(false).goTo("manage/copilot-usage/").asNormalizedText();
        assertThat(usage, containsString("the quota of 30 AI credits a day for the controller"));
        assertThat(usage, containsString("Reached"));
        try (GithubStandIn github = standIn()) {
            WorkflowRun b = j.assertBuildStatus(Result.FAILURE, pipeline("after-quota", onTheAgent(github, "    " + step(""))).scheduleBuild2(0));
            j.assertLogContains("The Copilot session was not started: the quota of 30 AI credits a day for the controller is reached: ", b);
            assertThat("nothing was asked of GitHub", github.requests(), hasSize(0));
        }
    }

    @Test
    void aFreestyleStepInTokenModeCompletesAndShowsItsCredits() throws Exception {
        try (GithubStandIn github = standIn().creditsPerCall(1.25)) {
            EnvVars env = new EnvVars("COPILOT_CLI", TestCli.executable().path());
            env.putAll(github.variables(tmp.resolve("freestyle-cache")));
            DumbSlave freestyle = j.createOnlineSlave(Label.get("freestyle"), env);
            CopilotAutopilotStep task = new CopilotAutopilotStep("Write hi.txt, then finish.");
            task.setCredentialsId(TestCredentials.TOKEN_ID);
            task.setModel(GithubStandIn.MODEL);
            task.setAllowAllTools(true);
            FreeStyleProject p = j.createFreeStyleProject("freestyle");
            p.setAssignedNode(freestyle);
            p.getBuildersList().add(new CopilotAutopilotBuilder(task));

            FreeStyleBuild b = j.buildAndAssertSuccess(p);

            j.assertLogContains("[copilot] GitHub token: credential '" + TestCredentials.TOKEN_ID + "'", b);
            j.assertLogContains("[copilot] COMPLETED: The agent called task_complete", b);
            assertThat(linesContaining(b, "| premium requests: 1 | AI credits: 2.5 |"), hasSize(1));
            j.assertLogNotContains(GithubStandIn.TOKEN, b);
            assertEquals("hi-from-the-model\n", freestyle.getWorkspaceFor(p).child("hi.txt").readToString());
            assertEquals(2.5, session(b).getUsage().getAiCredits());
            assertEquals(2.5, restSession(b).path("usage").path("aiCredits").asDouble());
            assertEquals("2.5", sessionPageRow(b, "AI credits"));
            assertThat(UsageTesting.export(), containsString(",freestyle," + GithubStandIn.MODEL + ",2.5,"));
        }
    }

    /** A refusal of GitHub's: FAILED, its kind in the map, the record and the REST API, and one line saying what to do. */
    private WorkflowRun refused(String name, GithubStandIn github, String more, String kind, boolean retryable, String line)
            throws Exception {
        WorkflowRun b = j.buildAndAssertSuccess(pipeline(name, onTheAgent(github, stepEchoingTheMap(", propagate: false" + more))));
        j.assertLogContains("outcome=FAILED kind=" + kind + " retryable=" + retryable + " ", b);
        List<String> failures = linesContaining(b, "[copilot] Failure: ");
        assertThat(String.join("\n", lines(b)), failures, hasSize(1));
        assertThat(failures.get(0), startsWith("[copilot] Failure: " + kind + " ("));
        assertThat(failures.get(0), containsString(line));
        assertEquals(kind, session(b).getEnding().getFailure().getKind());
        assertEquals(kind, restSession(b).path("ending").path("failure").path("kind").asText());
        assertEquals(retryable, restSession(b).path("ending").path("failure").path("retryable").asBoolean());
        String page = j.createWebClient().withJavaScriptEnabled(false).goTo(b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/")
                .asNormalizedText();
        assertThat("the session page says it too", page, containsString(kind + (retryable ? " (worth retrying later)" : "") + ": "
                + session(b).getEnding().getFailure().getAction()));
        String buildPage = j.createWebClient().withJavaScriptEnabled(false).goTo(b.getUrl()).asNormalizedText();
        assertThat("the build's summary says it too", buildPage, containsString(kind + (retryable ? " (worth retrying later)" : "")
                + ": " + session(b).getEnding().getFailure().getAction()));
        j.assertLogNotContains(GithubStandIn.TOKEN, b);
        return b;
    }

    @Test
    void githubsRefusalsAreClassifiedWithOneLineSayingWhatToDo() throws Exception {
        try (GithubStandIn github = standIn().paymentRequired("quota_exceeded")) {
            WorkflowRun b = refused("quota", github, "", "QUOTA_EXHAUSTED", false, "(quota_exceeded, HTTP 402, retrying will not help):"
                    + " The account's Copilot allowance or spending limit is used up (quota_exceeded): raise the budget on GitHub");
            assertEquals("quota_exceeded", session(b).getEnding().getFailure().getErrorCode());
            assertEquals(402, restSession(b).path("ending").path("failure").path("statusCode").asInt());
            assertThat("no retry of a 402", github.modelCalls(), hasSize(1));
        }
        try (GithubStandIn github = standIn().modelsForbidden()) {
            WorkflowRun b = refused("policy", github, "", "POLICY_DENIED", false,
                    "ask your organisation's admin to enable Copilot CLI in its Copilot policies.");
            assertThat(github.modelCalls(), hasSize(0));
            assertEquals(GithubStandIn.MODEL, sessionPageRow(b, "Model"),
                    "refused before the CLI named a model: the page names the one asked for");
        }
        try (GithubStandIn github = standIn().unauthorizedEverywhere()) {
            refused("revoked", github, "", "AUTHORIZATION", false, "Replace the GitHub token (credential '" + TestCredentials.TOKEN_ID + "'):");
            assertThat(github.modelCalls(), hasSize(0));
        }
    }

    /**
     * The README's loop that retries only what is worth retrying, as written there (Declarative, which this test's
     * Jenkins does not have: its {@code script} block runs on the agent, with the stand-in's variables). A refusal that
     * retrying cannot help ends the loop at once and fails the build with the reason and what to do; a session that
     * completes passes.
     */
    @Test
    void theReadmesRetryLoopStopsAtARefusalRetryingCannotHelp() throws Exception {
        String declarative = ReadmeBlocks.block("retry-what-is-worth-retrying");
        Matcher script = Pattern.compile("\n( +)script \\{\n(.*?)\n\\1}\n", Pattern.DOTALL).matcher(declarative);
        assertTrue(script.find(), "the README's block has a script block");
        String loop = script.group(2);
        assertThat(loop, containsString("credentialsId: '" + TestCredentials.TOKEN_ID + "', propagate: false"));
        assertThat(loop, containsString("if (!r.failure?.retryable) {"));

        try (GithubStandIn github = standIn().paymentRequired("additional_spend_limit_reached")) {
            WorkflowRun b = j.assertBuildStatus(Result.FAILURE, pipeline("readme-refused", onTheAgent(github, loop)).scheduleBuild2(0));
            j.assertLogContains("Copilot: FAILED: The session failed with a quota error (HTTP 402): standin: payment required"
                    + " (additional_spend_limit_reached) The account's Copilot allowance or spending limit is used up"
                    + " (additional_spend_limit_reached): raise the budget on GitHub or wait for it to reset;", b);
            j.assertLogNotContains("trying again in", b);
            assertThat("one attempt: retrying cannot help", github.modelCalls(), hasSize(1));
        }
        try (GithubStandIn github = GithubStandIn.start(request -> request.used("task_complete") ? Reply.text("Done.")
                : Reply.taskComplete("Fixed the failing test."))) {
            WorkflowRun b = j.buildAndAssertSuccess(pipeline("readme-completed", onTheAgent(github, loop)));
            j.assertLogContains("[copilot] COMPLETED: The agent called task_complete", b);
            j.assertLogNotContains("trying again in", b);
            assertEquals(1, b.getAction(CopilotAutopilotRunAction.class).getSessions().size());
        }
    }

    @Test
    void aRateLimitIsRiddenOutInTheSameSessionAndOneThatNeverClearsEndsRateLimited() throws Exception {
        // the CLI tries a call six times: seven refusals outlast one run of it
        try (GithubStandIn github = standIn().rateLimited(7, 1)) {
            WorkflowRun b = j.buildAndAssertSuccess(pipeline("storm", onTheAgent(github, stepEchoingTheMap(""))));

            List<String> retries = linesContaining(b, "continuing the same session (service retry");
            assertThat(String.join("\n", lines(b)), retries, hasSize(1));
            assertThat(retries.get(0), containsString("GitHub rate-limited the session (HTTP 429) after the Copilot CLI's own retries; waiting"));
            assertThat(retries.get(0), endsWith(", then continuing the same session (service retry 1 of 2)."));
            String sessionPage = j.createWebClient().withJavaScriptEnabled(false).goTo(b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/")
                    .asNormalizedText();
            assertThat("the session page lists what the log warned of", sessionPage,
                    containsString(retries.get(0).substring("[copilot] ".length())));
            assertThat("each tool once: nothing lost or repeated", linesContaining(b, "> bash: " + WRITE), hasSize(1));
            assertThat(lines(b).stream().filter("[copilot]   Task complete: Wrote hi.txt."::equals).toList(), hasSize(1));
            j.assertLogContains("outcome=COMPLETED kind=null ", b);
            assertEquals("COMPLETED", session(b).getEnding().getOutcome());
            assertNull(session(b).getEnding().getFailure());
            assertEquals("hi-from-the-model\n", agent.getWorkspaceFor(b.getParent()).child("hi.txt").readToString());
            List<GithubStandIn.Request> calls = github.modelCalls();
            assertEquals(calls.get(0).header("x-client-session-id"), calls.get(calls.size() - 1).header("x-client-session-id"),
                    "the same CLI session");
        }
        try (GithubStandIn github = standIn().rateLimited(GithubStandIn.ALWAYS, 1)) {
            WorkflowRun b = refused("storm-forever", github, ", serviceRetries: 1", "RATE_LIMITED", true, "(rate_limited, HTTP 429, worth retrying later):"
                    + " GitHub rate-limited the model calls after the CLI's own retries: wait a few minutes");
            assertThat(linesContaining(b, "(service retry 1 of 1)"), hasSize(1));
            j.assertLogContains("not continuing: the session went on once already (serviceRetries 1)", b);
            assertThat("two runs of the CLI, six attempts each", github.modelCalls(), hasSize(12));
        }
    }

    @Test
    void managedSettingsThatBlockBypassModeAreAWarningAndMakeTheSessionIncomplete() throws Exception {
        try (GithubStandIn github = standIn().blockBypassPermissions()) {
            WorkflowRun b = j.buildAndAssertSuccess(pipeline("policy", onTheAgent(github, stepEchoingTheMap(", propagate: false"))));

            assertThat(linesContaining(b, "[copilot] WARNING: your organisation's policy (permissions.disableBypassPermissionsMode)"),
                    hasSize(greaterThanOrEqualTo(1)));
            j.assertLogContains("(your organisation's policy: permissions.disableBypassPermissionsMode)", b);
            j.assertLogContains("[copilot] INCOMPLETE: ", b);
            j.assertLogContains("outcome=INCOMPLETE kind=null retryable=null", b);
            j.assertLogContains("policyDenied=1", b);
            SessionRecord record = session(b);
            assertEquals("INCOMPLETE", record.getEnding().getOutcome());
            assertEquals(1, record.getActivity().getPolicyDeniedToolCalls());
            assertEquals(1, restSession(b).path("activity").path("policyDeniedToolCalls").asInt());
            assertThat("the write was denied", agent.getWorkspaceFor(b.getParent()).child("hi.txt").exists(), is(false));
        }
    }
}
