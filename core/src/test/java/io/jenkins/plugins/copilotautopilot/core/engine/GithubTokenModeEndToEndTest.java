package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.ALLOW_ALL_TOOLS;
import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.GITHUB_MCP_SERVER;
import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.MODEL;
import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.REASONING_EFFORT;
import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.SERVICE_RETRIES;
import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.GithubStandIn;
import io.jenkins.plugins.copilotautopilot.core.testing.GithubStandIn.Request;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole autopilot sessions with the real Copilot CLI in GitHub-token mode (no BYOK) against a {@link GithubStandIn}: the
 * requests the CLI makes with the token, and the outcome the engine reports today for each failure the service can
 * answer with. The failure assertions hold what the product says now (outcome, reason text), to be tightened once it
 * classifies these failures.
 */
@Timeout(120)
class GithubTokenModeEndToEndTest {
    private static final String WRITE = "echo hi-from-the-model > hi.txt";

    private static E2eRun.Builder session(GithubStandIn github) {
        return E2eRun.withGithub(github).prompt("Write hi.txt, then finish.").options(o -> o.set(ALLOW_ALL_TOOLS, true));
    }

    private static GithubStandIn standIn() throws Exception {
        return GithubStandIn.start(Scripts.bashThenComplete(WRITE, "Wrote hi.txt."));
    }

    private static String describe(E2eRun run) {
        return run.result.outcome() + " / " + run.result.reason() + " / exit " + run.result.ending().exitCode() + "\n"
                + String.join("\n", run.log.lines());
    }

    /** The session ended FAILED with this kind of failure, in the result and in one closing line saying what to do. */
    private static void assertFailure(E2eRun run, ServiceFailure.Kind kind, boolean retryable, String action) {
        assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
        assertThat(run.result.ending().failure()).as(describe(run)).isNotNull();
        assertThat(run.result.ending().failure().kind()).isEqualTo(kind);
        assertThat(run.result.ending().failure().retryable()).isEqualTo(retryable);
        assertThat(run.result.ending().failure().action()).contains(action);
        assertThat(run.result.toMap().get("failure")).asString().contains("kind=" + kind.name());
        assertThat(run.log.lines()).filteredOn(l -> l.startsWith("[copilot] Failure: " + kind.name())).singleElement().asString()
                .contains(action);
    }

    private static List<String> initiators(GithubStandIn github) {
        return github.modelCalls().stream().map(r -> r.header("x-initiator")).toList();
    }

    @Test
    void completesWithTheTokenSentAsBearerToModelsAndResponses() throws Exception {
        try (GithubStandIn github = standIn().creditsPerCall(2.5)) {
            E2eRun run = session(github).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.COMPLETED);
            assertThat(run.result.summary()).isEqualTo("Wrote hi.txt.");
            assertThat(run.result.ending().exitCode()).isZero();
            assertThat(run.result.ending().model()).isEqualTo(GithubStandIn.MODEL);
            assertThat(run.result.usage().premiumRequests()).as("gpt-5 costs 1 per user-initiated call").isEqualTo(1.0);
            assertThat(Files.readString(run.workDir.resolve("hi.txt")).trim()).isEqualTo("hi-from-the-model");

            String bearer = "Bearer " + GithubStandIn.TOKEN;
            assertThat(github.requests("/copilot_internal/user")).isNotEmpty().allSatisfy(r ->
                    assertThat(r.header("authorization")).isEqualTo(bearer));
            assertThat(github.requests("/models")).hasSize(1).allSatisfy(r -> {
                assertThat(r.header("authorization")).isEqualTo(bearer);
                assertThat(r.header("copilot-integration-id")).isEqualTo("copilot-developer-cli");
            });
            List<Request> calls = github.modelCalls();
            assertThat(calls).as("a bash call, then task_complete").hasSize(2).allSatisfy(r -> {
                assertThat(r.path()).isEqualTo("/responses");
                assertThat(r.header("authorization")).isEqualTo(bearer);
                assertThat(r.json().path("model").asText()).isEqualTo(GithubStandIn.MODEL);
                assertThat(r.json().path("stream").asBoolean()).isTrue();
            });
            assertThat(initiators(github)).containsExactly("user", "agent");
            // each call's line says what the CLI's own count says: the agent's follow-up costs no premium request. The
            // first call's record names its turn when it comes after the next turn has started, which depends on timing
            assertThat(run.log.lines()).filteredOn(l -> l.startsWith("[copilot]   tokens")).satisfiesExactly(
                    l -> assertThat(l).matches("\\[copilot\\]   tokens( \\(turn 1\\))?: 1,000 in, 20 out \\| premium requests: 1 \\| AI credits: 2\\.5"),
                    l -> assertThat(l).isEqualTo("[copilot]   tokens: 1,000 in, 20 out | AI credits: 2.5"));
            assertThat(github.requests("/chat/completions")).isEmpty();
            assertThat(github.requests("/copilot_internal/v2/token")).as("no token exchange").isEmpty();

            // the AI credits the stand-in reported reach the journal (the CLI's checkpoint on stdout): 2 calls x 2.5
            assertThat(run.journalText()).contains("\"totalNanoAiu\":5000000000").doesNotContain(GithubStandIn.TOKEN);
            assertThat(run.log.text()).doesNotContain(GithubStandIn.TOKEN);
            assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
        }
    }

    @Test
    void withoutCopilotUsageTheSessionCompletesAndTheCliCountsNoCredits() throws Exception {
        try (GithubStandIn github = standIn().withoutCopilotUsage()) {
            E2eRun run = session(github).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.COMPLETED);
            assertThat(run.result.usage().inputTokens()).isEqualTo(2000L);
            assertThat(run.journalText()).contains("\"totalNanoAiu\":0,");
        }
    }

    @Test
    void aRateLimitThatClearsIsRetriedAfterRetryAfterAndTheSessionCompletes() throws Exception {
        try (GithubStandIn github = standIn().rateLimited(2, 1)) {
            E2eRun run = session(github).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.COMPLETED);
            List<Request> calls = github.modelCalls();
            assertThat(calls).hasSize(4);
            assertThat(initiators(github)).as("retries are the agent's: they cost no premium request")
                    .containsExactly("user", "agent", "agent", "agent");
            assertThat(run.result.usage().premiumRequests()).isEqualTo(0.0);
            for (int i = 1; i <= 2; i++) {
                assertThat(TimeUnit.NANOSECONDS.toMillis(calls.get(i).atNanos() - calls.get(i - 1).atNanos()))
                        .as("Retry-After: 1 is honoured").isGreaterThanOrEqualTo(900);
            }
        }
    }

    @Test
    void aRateLimitThatNeverClearsFailsAfterSixAttemptsWithTheCliMessage() throws Exception {
        try (GithubStandIn github = standIn().rateLimited(GithubStandIn.ALWAYS, 1)) {
            E2eRun run = session(github).options(o -> o.set(SERVICE_RETRIES, 0)).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
            assertThat(run.result.reason()).startsWith("The session failed with a rate_limit error (HTTP 429): You've hit your rate limit.");
            assertThat(run.result.ending().exitCode()).isEqualTo(1);
            assertThat(github.modelCalls()).hasSize(6);
            assertFailure(run, ServiceFailure.Kind.RATE_LIMITED, true, "wait");
            assertThat(run.result.ending().failure().errorCode()).isEqualTo("rate_limited");
            assertThat(run.result.ending().failure().statusCode()).isEqualTo(429);
        }
    }

    @Test
    void transientServerErrorsAreRetriedAndTheSessionCompletes() throws Exception {
        try (GithubStandIn github = standIn().serverError(500, 2)) {
            E2eRun run = session(github).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.COMPLETED);
            assertThat(github.modelCalls()).hasSize(4);
            assertThat(run.log.lines()).containsSubsequence("[copilot] info: Request failed due to a transient API error. Retrying...",
                    "[copilot] info: Request failed due to a transient API error. Retrying...", "[copilot] Turn 2");
        }
    }

    @Test
    void aServiceThatStaysUnavailableFailsAfterFiveRetriesWithTheCliMessage() throws Exception {
        try (GithubStandIn github = standIn().serverError(503, GithubStandIn.ALWAYS)) {
            E2eRun run = session(github).options(o -> o.set(SERVICE_RETRIES, 0)).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
            assertThat(run.result.reason()).startsWith("The session failed with a model error (HTTP 503): Execution failed:"
                    + " Failed to get response from the AI model; retried 5 times (total retry wait time: ")
                    .endsWith(" Last error: 503 standin 503");
            assertThat(github.modelCalls()).hasSize(6);
            assertThat(run.result.ending().failure().kind()).isEqualTo(ServiceFailure.Kind.SERVICE_ERROR);
            assertThat(run.result.ending().failure().retryable()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"quota_exceeded", "additional_spend_limit_reached", "session_quota_exceeded"})
    void paymentRequiredFailsAtOnceWithTheServiceMessage(String errorCode) throws Exception {
        try (GithubStandIn github = standIn().paymentRequired(errorCode)) {
            E2eRun run = session(github).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
            assertThat(run.result.reason())
                    .isEqualTo("The session failed with a quota error (HTTP 402): standin: payment required (" + errorCode + ")");
            assertThat(run.result.ending().exitCode()).isEqualTo(1);
            assertThat(github.modelCalls()).as("no retry").hasSize(1);
            assertThat(run.journalText()).contains("\"errorCode\":\"" + errorCode + "\"");
            assertThat(run.result.ending().failure().kind()).isEqualTo(ServiceFailure.Kind.QUOTA_EXHAUSTED);
            assertThat(run.result.ending().failure().errorCode()).isEqualTo(errorCode);
            assertThat(run.result.ending().failure().retryable()).isFalse();
        }
    }

    @Test
    void unauthorizedModelCallsFailAsAnAuthorizationErrorAfterTwoRetries() throws Exception {
        try (GithubStandIn github = standIn().unauthorizedModelCalls()) {
            E2eRun run = session(github).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
            assertThat(run.result.reason()).isEqualTo("The session failed with an authorization error (HTTP 401): Authorization error."
                    + " Your credentials may be expired or invalid.");
            assertThat(github.modelCalls()).hasSize(3);
            assertThat(run.result.ending().failure().kind()).isEqualTo(ServiceFailure.Kind.AUTHORIZATION);
        }
    }

    @Test
    void aTokenRefusedEverywhereFailsBeforeAnySessionWithTheCliMessage() throws Exception {
        try (GithubStandIn github = standIn().unauthorizedEverywhere()) {
            E2eRun run = session(github).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
            assertThat(run.result.reason()).isEqualTo("The Copilot CLI exited with code 1: Error: Authentication failed");
            assertThat(run.log.lines()).contains("[copilot] stderr:   • If using a Fine-Grained PAT, ensure it has the"
                    + " 'Copilot Requests' permission enabled");
            assertThat(run.result.ending().exitCode()).isEqualTo(1);
            assertThat(github.modelCalls()).isEmpty();
            assertFailure(run, ServiceFailure.Kind.AUTHORIZATION, false, "Replace the GitHub token");
        }
    }

    @Test
    void modelsForbiddenFailsBeforeAnySessionAsAccessDeniedByPolicy() throws Exception {
        try (GithubStandIn github = standIn().modelsForbidden()) {
            E2eRun run = session(github).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
            assertThat(run.result.reason()).isEqualTo("The Copilot CLI exited with code 1: Error: Access denied by policy settings");
            assertThat(github.modelCalls()).isEmpty();
            assertFailure(run, ServiceFailure.Kind.POLICY_DENIED, false, "admin");
        }
    }

    @Test
    void aDisabledModelFailsBeforeAnyModelCall() throws Exception {
        try (GithubStandIn github = standIn().disableModel(GithubStandIn.MODEL)) {
            E2eRun run = session(github).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
            assertThat(run.result.reason()).isEqualTo("The Copilot CLI exited with code 1: Error: Run `copilot --model gpt-5` in"
                    + " interactive mode to enable this model");
            assertThat(github.modelCalls()).isEmpty();
            assertFailure(run, ServiceFailure.Kind.MODEL_UNAVAILABLE, false, "model");
        }
    }

    @Test
    void anUnknownModelFailsBeforeAnyModelCall() throws Exception {
        try (GithubStandIn github = standIn()) {
            E2eRun run = session(github).options(o -> o.set(MODEL, "no-such-model")).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
            assertThat(run.result.reason()).isEqualTo("The Copilot CLI exited with code 1: Error: Model \"no-such-model\" from --model"
                    + " flag is not available.");
            assertThat(github.modelCalls()).isEmpty();
            assertFailure(run, ServiceFailure.Kind.MODEL_UNAVAILABLE, false, "model");
        }
    }

    @Test
    void managedSettingsThatBlockBypassModeAreAWarningAndTheirDenialsMakeTheSessionIncomplete() throws Exception {
        try (GithubStandIn github = standIn().blockBypassPermissions()) {
            E2eRun run = session(github).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.INCOMPLETE);
            assertThat(run.result.reason()).contains("your organisation's policy (permissions.disableBypassPermissionsMode) denied 1 tool call");
            assertThat(run.result.activity().deniedToolCalls()).isEqualTo(1);
            assertThat(run.result.activity().policyDeniedToolCalls()).isEqualTo(1);
            assertThat(run.result.warnings()).anyMatch(w -> w.startsWith("WARNING: your organisation's policy"
                    + " (permissions.disableBypassPermissionsMode)"));
            assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] WARNING: your organisation's policy"
                    + " (permissions.disableBypassPermissionsMode)"));
            assertThat(run.workDir.resolve("hi.txt")).doesNotExist();
            assertThat(run.log.find("< bash DENIED")).contains("(your organisation's policy: permissions.disableBypassPermissionsMode)")
                    .contains("Permission denied because no interactive user response was available");
            assertThat(run.journalText()).contains("\"type\":\"session.managed_settings_enforced\"")
                    .contains("bypass_permissions_blocked");
        }
    }

    @Test
    void aReasoningEffortTheModelListsReachesTheModelAndOneItDoesNotIsRefusedBeforeAnyCall() throws Exception {
        try (GithubStandIn github = standIn()) {
            E2eRun run = session(github).options(o -> o.set(REASONING_EFFORT, "high")).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.COMPLETED);
            assertThat(github.modelCalls()).isNotEmpty().allSatisfy(r ->
                    assertThat(r.json().path("reasoning").path("effort").asText()).isEqualTo("high"));
            assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] Model: gpt-5, reasoning effort high |"));
        }
        try (GithubStandIn github = standIn()) {
            E2eRun run = session(github).options(o -> o.set(REASONING_EFFORT, "xhigh")).run();

            assertThat(github.modelCalls()).isEmpty();
            assertFailure(run, ServiceFailure.Kind.MODEL_UNAVAILABLE, false, "model");
            assertThat(run.result.reason()).contains("Reasoning effort \"xhigh\" is not supported for model \"gpt-5\"");
        }
    }

    @Test
    void theBuiltInGithubMcpServerIsAskedForOnlyWhenItIsOn() throws Exception {
        try (GithubStandIn github = standIn()) {
            session(github).run();
            assertThat(github.requests("/mcp/readonly")).as("on by default").isNotEmpty();
        }
        try (GithubStandIn github = standIn()) {
            E2eRun run = session(github).options(o -> o.set(GITHUB_MCP_SERVER, false)).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.COMPLETED);
            assertThat(run.command.commandLine()).contains("--disable-builtin-mcps");
            assertThat(github.requests("/mcp/readonly")).isEmpty();
        }
    }

    @Test
    void theAutoModelIsTheOneTheStandInRoutesTo() throws Exception {
        try (GithubStandIn github = standIn()) {
            E2eRun run = session(github).options(o -> o.set(MODEL, "auto")).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.COMPLETED);
            assertThat(github.requests("/auto")).hasSize(1);
            assertThat(github.modelCalls()).isNotEmpty().allSatisfy(r -> {
                assertThat(r.json().path("model").asText()).isEqualTo(GithubStandIn.MODEL);
                assertThat(r.header("copilot-session-token")).isEqualTo("standin-auto-session-token");
            });
            assertThat(run.journalText()).contains("\"type\":\"session.auto_mode_resolved\"");
            assertThat(run.log.lines()).contains("[copilot] Model auto: GitHub's routing chose gpt-5",
                            "[copilot]   tokens: 1,000 in, 20 out | model: gpt-5 | AI credits: 1")
                    .noneMatch(l -> l.contains("GitHub's routing did not choose"));
        }
    }

    @Test
    void whenAutoRoutingFailsTheCliFallsBackToItsDefaultModel() throws Exception {
        try (GithubStandIn github = standIn().autoRoutingFails()) {
            E2eRun run = session(github).options(o -> o.set(MODEL, "auto")).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.COMPLETED);
            assertThat(github.requests("/auto")).hasSize(1);
            assertThat(github.requests("/models/session")).hasSize(1);
            assertThat(github.modelCalls()).isNotEmpty().allSatisfy(r ->
                    assertThat(r.json().path("model").asText()).isEqualTo(GithubStandIn.FREE_MODEL));
            assertThat(run.result.usage().premiumRequests()).isEqualTo(0.0);
            assertThat(run.log.lines()).contains("[copilot] WARNING: model 'auto': GitHub's routing did not choose a model for turn 1,"
                    + " so the Copilot CLI used its default model, gpt-5-mini, instead.");
        }
    }
}
