package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.ALLOW_ALL_TOOLS;
import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.MAX_AI_CREDITS;
import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.SERVICE_RETRIES;
import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.GithubStandIn;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Riding out a refusal of GitHub's service with the real CLI in token mode: after the CLI's own six attempts, the
 * session waits as the service asked and goes on as the same session; a refusal that does not pass ends classified.
 */
@Timeout(180)
class ServiceRetriesEndToEndTest {
    private static final String WRITE = "echo hi-from-the-model > hi.txt";

    private static String describe(E2eRun run) {
        return run.result.outcome() + " / " + run.result.reason() + "\n" + String.join("\n", run.log.lines());
    }

    @Test
    void aRateLimitThatOutlastsTheClisRetriesIsRiddenOutInTheSameSession() throws Exception {
        // the CLI tries a call six times: seven refusals outlast one run of it
        try (GithubStandIn github = GithubStandIn.start(Scripts.bashThenComplete(WRITE, "Wrote hi.txt.")).rateLimited(7, 1)) {
            E2eRun run = E2eRun.withGithub(github).prompt("Write hi.txt, then finish.")
                    .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(MAX_AI_CREDITS, 100.0)).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.COMPLETED);
            assertThat(run.result.ending().failure()).isNull();
            assertThat(run.log.lines()).as("refused calls are not billed: no record missing").noneMatch(l -> l.contains("no usage record"));
            assertThat(run.result.usage().aiCredits()).isEqualTo(2.0);
            assertThat(run.log.lines()).as("the CLI's startup warnings, said again as the session goes on, once")
                    .filteredOn(l -> l.startsWith("[copilot] WARNING (mcp):")).hasSize(1);
            assertThat(Files.readString(run.workDir.resolve("hi.txt"))).contains("hi-from-the-model");
            List<String> lines = run.log.lines();
            assertThat(lines).filteredOn(l -> l.contains("GitHub rate-limited the session (HTTP 429) after the Copilot CLI's own retries;"
                    + " waiting")).singleElement().asString().endsWith(", then continuing the same session (service retry 1 of 2).");
            assertThat(run.result.warnings()).anyMatch(w -> w.contains("continuing the same session (service retry 1 of 2)"));
            // one session, its turns once each: nothing lost or repeated
            assertThat(lines).filteredOn(l -> l.equals("[copilot]   Task complete: Wrote hi.txt.")).hasSize(1);
            assertThat(lines).filteredOn(l -> l.contains("> bash: " + WRITE)).hasSize(1);
            List<GithubStandIn.Request> calls = github.modelCalls();
            assertThat(calls.get(6).header("x-initiator")).as("the session goes on with the agent told to").isEqualTo("user");
            assertThat(calls.get(6).body()).contains("rate-limited your last model call");
            assertThat(calls.get(6).header("x-client-session-id")).isEqualTo(calls.get(0).header("x-client-session-id"));
        }
    }

    @Test
    void aRateLimitThatNeverPassesEndsRateLimitedAfterTheRetriesTheStepAllows() throws Exception {
        try (GithubStandIn github = GithubStandIn.start(Scripts.bashThenComplete(WRITE, "Wrote hi.txt.")).rateLimited(GithubStandIn.ALWAYS, 1)) {
            E2eRun run = E2eRun.withGithub(github).prompt("Write hi.txt, then finish.")
                    .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(SERVICE_RETRIES, 1)).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
            assertThat(run.result.ending().failure().kind()).isEqualTo(ServiceFailure.Kind.RATE_LIMITED);
            assertThat(run.result.ending().failure().retryable()).isTrue();
            assertThat(github.modelCalls()).as("two runs of the CLI, six attempts each").hasSize(12);
            assertThat(run.log.lines()).anyMatch(l -> l.contains("(service retry 1 of 1)"))
                    .anyMatch(l -> l.contains("not continuing: the session went on once already (serviceRetries 1)"));
        }
    }

    @Test
    void withoutServiceRetriesTheFirstRefusalEndsTheSession() throws Exception {
        try (GithubStandIn github = GithubStandIn.start(Scripts.bashThenComplete(WRITE, "Wrote hi.txt.")).serverError(503, 6)) {
            E2eRun run = E2eRun.withGithub(github).prompt("Write hi.txt, then finish.")
                    .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(SERVICE_RETRIES, 0)).run();

            assertThat(run.result.outcome()).as(describe(run)).isEqualTo(Outcome.FAILED);
            assertThat(run.result.ending().failure().kind()).isEqualTo(ServiceFailure.Kind.SERVICE_ERROR);
            assertThat(github.modelCalls()).hasSize(6);
            assertThat(run.log.lines()).noneMatch(l -> l.contains("continuing the same session"));
        }
    }
}
