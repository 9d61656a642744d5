package io.jenkins.plugins.copilotautopilot.core.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure.Kind;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import org.junit.jupiter.api.Test;

/**
 * Each way CLI 1.0.102 fails against GitHub's service, as measured (docs: the GitHub path reference, "Failures"), with
 * the CLI's own lines: the {@code session.error} events as printed on stdout, the stderr lines of the refusals before a
 * session.
 */
class ServiceFailuresTest {
    private static final String TOKEN = "credential 'copilot-token'";

    /** The failure of a session whose stdout ended with this {@code session.error}, a result line and exit code 1. */
    private static ServiceFailure afterError(String data) {
        SessionTracker tracker = new SessionTracker();
        EventParser parser = new EventParser();
        tracker.accept(parser.parse("{\"type\":\"session.error\",\"data\":" + data + ",\"id\":\"e1\",\"timestamp\":\"2026-12-06T10:00:00.000Z\"}"));
        tracker.accept(parser.parse("{\"type\":\"session.autopilot_stopped\",\"data\":{\"reason\":\"error\"},\"ephemeral\":true}"));
        tracker.accept(parser.parse("{\"type\":\"result\",\"sessionId\":\"s1\",\"exitCode\":1,\"usage\":{\"premiumRequests\":0}}"));
        SessionState state = tracker.state();
        Outcome outcome = OutcomeDecider.decide(state, ProcessEnd.exited(1, null, true)).outcome();
        return ServiceFailures.of(outcome, state, 1, null, TOKEN);
    }

    /** The failure of a CLI that printed no event, only this line on stderr, and exited 1. */
    private static ServiceFailure beforeSession(String stderrLine) {
        SessionState state = new SessionTracker().state();
        Outcome outcome = OutcomeDecider.decide(state, ProcessEnd.exited(1, stderrLine, true)).outcome();
        return ServiceFailures.of(outcome, state, 1, ServiceFailures.isStartFailure(stderrLine) ? stderrLine : null, TOKEN);
    }

    @Test
    void aRateLimitIsWorthRetryingLater() {
        ServiceFailure failure = afterError("{\"errorType\":\"rate_limit\",\"errorCode\":\"rate_limited\",\"statusCode\":429,"
                + "\"eligibleForAutoSwitch\":true,\"message\":\"You've hit your rate limit. Please wait for your limit to reset in"
                + " under a minute or switch to auto model to continue.\"}");
        assertThat(failure).isEqualTo(new ServiceFailure(Kind.RATE_LIMITED, "rate_limited", 429, true,
                "GitHub rate-limited the model calls after the CLI's own retries: wait a few minutes and run again, or use"
                        + " another model."));
        assertThat(failure.describe()).startsWith("RATE_LIMITED (rate_limited, HTTP 429, worth retrying later): GitHub rate-limited");
    }

    @Test
    void aUsedUpQuotaKeepsTheServersCodeAndIsNotWorthRetrying() {
        for (String code : new String[] {"quota_exceeded", "additional_spend_limit_reached", "session_quota_exceeded"}) {
            ServiceFailure failure = afterError("{\"errorType\":\"quota\",\"statusCode\":402,\"errorCode\":\"" + code
                    + "\",\"message\":\"You have exceeded your premium request allowance.\"}");
            assertThat(failure.kind()).isEqualTo(Kind.QUOTA_EXHAUSTED);
            assertThat(failure.errorCode()).isEqualTo(code);
            assertThat(failure.retryable()).isFalse();
            assertThat(failure.action()).contains("(" + code + ")").contains("raise the budget");
        }
        // a 402 whose body had no nested code: the CLI says "quota" and no errorCode
        assertThat(afterError("{\"errorType\":\"quota\",\"statusCode\":402,\"message\":\"402 Payment Required\"}"))
                .extracting(ServiceFailure::kind, ServiceFailure::errorCode).containsExactly(Kind.QUOTA_EXHAUSTED, null);
    }

    @Test
    void theSessionsOwnCreditLimitIsNoQuotaOfTheAccount() {
        ServiceFailure failure = afterError("{\"errorType\":\"session_limits\",\"errorCode\":\"ai_credit_soft_cap_exhausted\","
                + "\"message\":\"Session limit reached (30/30 AI credits used). Increase or remove the session limit to continue.\"}");
        assertThat(failure.kind()).isEqualTo(Kind.SESSION_LIMIT);
        assertThat(failure.errorCode()).isEqualTo("ai_credit_soft_cap_exhausted");
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.action()).contains("--max-ai-credits");
    }

    @Test
    void anAuthorizationErrorNamesWhereTheTokenCameFrom() {
        // a 401 on the model call, and a 403 with a quota body: the CLI reports both as authorization
        for (int status : new int[] {401, 403}) {
            ServiceFailure failure = afterError("{\"errorType\":\"authorization\",\"statusCode\":" + status
                    + ",\"remediation\":\"sign_in\",\"message\":\"Authorization error. Your credentials may be expired or invalid.\"}");
            assertThat(failure.kind()).isEqualTo(Kind.AUTHORIZATION);
            assertThat(failure.statusCode()).isEqualTo(status);
            assertThat(failure.retryable()).isFalse();
            assertThat(failure.action()).startsWith("Replace the GitHub token (credential 'copilot-token'): ");
        }
        assertThat(ServiceFailures.of(new io.jenkins.plugins.copilotautopilot.core.session.SessionError("authorization", "x", 401), null)
                .action()).startsWith("Replace the GitHub token: ");
    }

    @Test
    void aServerErrorAfterTheRetriesIsWorthRetryingButABadRequestIsNot() {
        for (int status : new int[] {500, 503}) {
            ServiceFailure failure = afterError("{\"errorType\":\"query\",\"statusCode\":" + status + ",\"message\":\"Execution failed:"
                    + " Failed to get response from the AI model; retried 5 times (total retry wait time: 16.28 seconds) Last error:"
                    + " 500 standin 500\"}");
            assertThat(failure).extracting(ServiceFailure::kind, ServiceFailure::retryable).containsExactly(Kind.SERVICE_ERROR, true);
        }
        assertThat(afterError("{\"errorType\":\"query\",\"statusCode\":400,\"message\":\"bad request\"}"))
                .extracting(ServiceFailure::kind, ServiceFailure::retryable).containsExactly(Kind.OTHER, false);
        assertThat(afterError("{\"errorType\":\"context_limit\",\"message\":\"too long\"}").kind()).isEqualTo(Kind.OTHER);
    }

    @Test
    void theMessageDecidesNothingWhereTheFieldsSpeak() {
        // worded like a rate limit, typed as a quota: a quota
        assertThat(afterError("{\"errorType\":\"quota\",\"statusCode\":402,\"message\":\"You've hit your rate limit.\"}").kind())
                .isEqualTo(Kind.QUOTA_EXHAUSTED);
        // a policy error type, whatever it says
        assertThat(afterError("{\"errorType\":\"policy\",\"message\":\"Authentication failed\"}").kind()).isEqualTo(Kind.POLICY_DENIED);
    }

    @Test
    void theRefusalsBeforeASessionAreReadFromTheirStderrLine() {
        assertThat(beforeSession("Error: Authentication failed").kind()).isEqualTo(Kind.AUTHORIZATION);
        assertThat(beforeSession("Error: No authentication information found.").kind()).isEqualTo(Kind.AUTHORIZATION);
        assertThat(beforeSession("Error: Classic Personal Access Tokens (ghp_) are not supported by Copilot. The COPILOT_GITHUB_TOKEN"
                + " environment variable contains a classic PAT.").kind()).isEqualTo(Kind.AUTHORIZATION);
        assertThat(beforeSession("Error: Access denied by policy settings")).isEqualTo(new ServiceFailure(Kind.POLICY_DENIED, null, null,
                false, "Copilot CLI is not allowed for this account: ask your organisation's admin to enable Copilot CLI in its"
                        + " Copilot policies."));
        assertThat(beforeSession("Error: Model \"no-such-model\" from --model flag is not available.").kind())
                .isEqualTo(Kind.MODEL_UNAVAILABLE);
        assertThat(beforeSession("Error: Run `copilot --model gpt-5` in interactive mode to enable this model").kind())
                .isEqualTo(Kind.MODEL_UNAVAILABLE);
        assertThat(beforeSession("Error: Reasoning effort \"xhigh\" is not supported for model \"gpt-5\".").kind())
                .isEqualTo(Kind.MODEL_UNAVAILABLE);
        assertThat(beforeSession("Error: Failed to load models: getaddrinfo ENOTFOUND api.githubcopilot.com"))
                .extracting(ServiceFailure::kind, ServiceFailure::retryable).containsExactly(Kind.SERVICE_ERROR, true);
    }

    @Test
    void otherFailuresAreNoServicesFailure() {
        assertThat(beforeSession("Failed to extract bundled package: Error: EACCES: permission denied, mkdir '/.cache'")).isNull();
        assertThat(beforeSession("error: Invalid value for --max-ai-credits: \"5\". Use at least 30 AI credits.")).isNull();
        // a stderr line that looks like a refusal, from a session that ran and ended by itself: the session decides
        SessionState ran = new SessionTracker().state();
        assertThat(ServiceFailures.of(Outcome.COMPLETED, ran, 0, "Error: Authentication failed", TOKEN)).isNull();
        assertThat(ServiceFailures.of(Outcome.TIMED_OUT, ran, null, "Error: Authentication failed", TOKEN)).isNull();
    }
}
