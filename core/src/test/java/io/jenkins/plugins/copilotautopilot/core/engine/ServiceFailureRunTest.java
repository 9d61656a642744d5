package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptCli;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a Pipeline gets when GitHub's service refuses a session, when the organisation's policy overrides the step's
 * permissions, and when something outside the step stops the CLI: a process that prints CLI 1.0.102's lines (from the
 * GitHub path reference) and exits as the CLI did, followed by the engine as the real CLI would be.
 */
class ServiceFailureRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RATE_LIMITED = "{\"type\":\"session.error\",\"data\":{\"errorType\":\"rate_limit\",\"errorCode\":"
            + "\"rate_limited\",\"statusCode\":429,\"eligibleForAutoSwitch\":true,\"message\":\"You've hit your rate limit. Please"
            + " wait for your limit to reset in under a minute or switch to auto model to continue.\"},\"id\":\"e1\",\"timestamp\":"
            + "\"2026-12-06T10:00:13.000Z\"}";
    private static final String STOPPED_ERROR = "{\"type\":\"session.autopilot_stopped\",\"data\":{\"reason\":\"error\"},"
            + "\"ephemeral\":true,\"id\":\"e2\",\"timestamp\":\"2026-12-06T10:00:13.001Z\"}";
    private static final String POLICY = "{\"type\":\"session.managed_settings_enforced\",\"data\":{\"action\":"
            + "\"bypass_permissions_blocked\",\"escalation\":\"approve_all\",\"setting\":\"permissions.disableBypassPermissionsMode\","
            + "\"failClosed\":false,\"message\":\"Enterprise policy disables bypass-permissions mode, so auto-approval of tool"
            + " permission requests cannot be enabled.\"},\"ephemeral\":true,\"id\":\"p1\",\"timestamp\":\"2026-12-06T10:00:00.100Z\"}";

    @TempDir
    Path dir;

    private static String result(int exitCode) {
        return "{\"type\":\"result\",\"timestamp\":\"2026-12-06T10:00:13.010Z\",\"sessionId\":\"s-1\",\"exitCode\":" + exitCode
                + ",\"usage\":{\"premiumRequests\":0,\"totalApiDurationMs\":0,\"sessionDurationMs\":13000,\"codeChanges\":"
                + "{\"linesAdded\":0,\"linesRemoved\":0,\"filesModified\":[]}}}";
    }

    /** A CLI that prints these stdout lines and this stderr text, then ends with {@code end} (a shell command). */
    private ScriptCli.Run run(List<String> stdout, String stderr, String end) throws Exception {
        Path out = dir.resolve("stdout.jsonl");
        Files.write(out, stdout, StandardCharsets.UTF_8);
        Path err = dir.resolve("stderr.txt");
        Files.writeString(err, stderr, StandardCharsets.UTF_8);
        Path cli = ScriptCli.write(dir.resolve("bin"), "cat '" + out + "'\ncat '" + err + "' >&2\n" + end);
        // how each end is classified, as the session's last run of the CLI ends (riding it out is ServiceRetriesEndToEndTest's)
        // each of these CLIs ends on its own right after its result line: the engine waits for that end however busy
        // the machine (the tests' usual half second would judge a slow one as lingering, with the exit code it reported)
        EngineTimings endsOnItsOwn = new EngineTimings(Commands.FAST.pollMin(), Commands.FAST.pollMax(), java.time.Duration.ofSeconds(60),
                Commands.FAST.exitAfterStop(), Commands.FAST.chunkBytes());
        return ScriptCli.run(cli, dir, o -> o.set(io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.SERVICE_RETRIES, 0),
                new SessionListener() { }, b -> b.tokenSource("credential 'copilot-token'").timings(endsOnItsOwn), e -> { });
    }

    private static JsonNode finished(String journal) throws Exception {
        List<String> lines = journal.lines().toList();
        JsonNode last = JSON.readTree(lines.get(lines.size() - 1));
        assertThat(last.path("type").asText()).isEqualTo("autopilot.run_finished");
        return last.path("data");
    }

    @Test
    void aRateLimitIsInTheMapTheJournalAndTheClosingLine() throws Exception {
        List<String> lines = new java.util.ArrayList<>(Captures.stdoutText("cli-error500").lines().limit(6).toList());
        lines.addAll(List.of(RATE_LIMITED, STOPPED_ERROR, result(1)));
        ScriptCli.Run run = run(lines, "", "exit 1");

        assertThat(run.result().outcome()).isEqualTo(Outcome.FAILED);
        Map<String, Object> map = run.result().toMap();
        assertThat(map.get("failure")).isEqualTo(Map.of("kind", "RATE_LIMITED", "errorCode", "rate_limited", "statusCode", 429,
                "retryable", true, "action", "GitHub rate-limited the model calls after the CLI's own retries: wait a few minutes"
                        + " and run again, or use another model."));
        assertThat(run.log().lines()).contains("[copilot] Failure: RATE_LIMITED (rate_limited, HTTP 429, worth retrying later):"
                + " GitHub rate-limited the model calls after the CLI's own retries: wait a few minutes and run again, or use"
                + " another model.");
        JsonNode failure = finished(run.journal()).path("failure");
        assertThat(failure.path("kind").asText()).isEqualTo("RATE_LIMITED");
        assertThat(failure.path("statusCode").asInt()).isEqualTo(429);
        assertThat(failure.path("retryable").asBoolean()).isTrue();
    }

    @Test
    void aTokenRefusedBeforeAnySessionNamesTheCredential() throws Exception {
        ScriptCli.Run run = run(List.of(), "Error: Authentication failed\n\nYour GitHub token may be invalid, expired, or lacking the"
                + " required permissions.\n", "exit 1");

        assertThat(run.result().outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result().reason()).isEqualTo("The Copilot CLI exited with code 1: Error: Authentication failed");
        @SuppressWarnings("unchecked")
        Map<String, Object> failure = (Map<String, Object>) run.result().toMap().get("failure");
        assertThat(failure).containsEntry("kind", "AUTHORIZATION").containsEntry("retryable", false)
                .containsEntry("statusCode", null).containsEntry("errorCode", null);
        assertThat(run.log().find("[copilot] Failure: AUTHORIZATION (retrying will not help): Replace the GitHub token"
                + " (credential 'copilot-token'): ")).isNotNull();
    }

    @Test
    void aSessionWithoutAServiceFailureHasNone() throws Exception {
        ScriptCli.Run run = run(Captures.stdoutText("cli-happy").lines().toList(), "", "exit 0");
        assertThat(run.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result().toMap()).containsEntry("failure", null).containsEntry("policyDeniedToolCalls", 0);
        assertThat(run.log().find("Failure:")).isNull();
    }

    @Test
    void writesDeniedByTheOrganisationsPolicyWarnAndLeaveTheTaskIncomplete() throws Exception {
        List<String> happy = Captures.stdoutText("cli-happy").lines().toList();
        String denied = Captures.stdoutText("cli-perm-autopilot-noallow").lines()
                .filter(l -> l.contains("\"tool.execution_complete\"") && l.contains("\"denied\"")).findFirst().orElseThrow();
        String deniedId = JSON.readTree(denied).path("data").path("toolCallId").asText();
        // the policy line comes first, as the CLI prints it at the start; the happy session's first tool call is denied
        List<String> lines = new java.util.ArrayList<>();
        lines.add(POLICY);
        for (String line : happy) {
            JsonNode event = JSON.readTree(line);
            if (event.path("type").asText().equals("tool.execution_complete") && !lines.contains(denied)) {
                lines.add(denied.replace(deniedId, event.path("data").path("toolCallId").asText()));
            } else {
                lines.add(line);
            }
        }
        ScriptCli.Run run = run(lines, "", "exit 0");

        String warning = "WARNING: your organisation's policy (permissions.disableBypassPermissionsMode) blocks auto-approval:"
                + " tool calls that need approval, such as writes, will be denied.";
        assertThat(run.log().lines()).contains("[copilot] " + warning);
        assertThat(run.result().warnings()).containsExactly(warning);
        assertThat(run.result().activity().deniedToolCalls()).isEqualTo(1);
        assertThat(run.result().activity().policyDeniedToolCalls()).isEqualTo(1);
        assertThat(run.result().outcome()).isEqualTo(Outcome.INCOMPLETE);
        assertThat(run.result().reason()).isEqualTo("The agent called task_complete after 2 turns, but your organisation's policy"
                + " (permissions.disableBypassPermissionsMode) denied 1 tool call it made: its work may be partial.");
        assertThat(finished(run.journal()).path("policyDeniedToolCalls").asInt()).isEqualTo(1);
    }

    @Test
    void aSigtermFromOutsideIsAFailureThoughTheCliReportsZero() throws Exception {
        List<String> lines = new java.util.ArrayList<>(Captures.stdoutText("cli-error500").lines().limit(16).toList());
        lines.add("{\"type\":\"session.autopilot_stopped\",\"data\":{\"reason\":\"aborted\"},\"ephemeral\":true,\"id\":\"a1\","
                + "\"timestamp\":\"2026-12-06T10:00:08.000Z\"}");
        lines.add("{\"type\":\"assistant.idle\",\"data\":{\"aborted\":true},\"ephemeral\":true,\"id\":\"a2\",\"timestamp\":"
                + "\"2026-12-06T10:00:08.001Z\"}");
        lines.add(result(0));
        ScriptCli.Run run = run(lines, "", "kill -TERM $$");

        assertThat(run.result().outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result().reason()).isEqualTo("The Copilot CLI was killed by signal 15 (exit code 143).");
        assertThat(run.result().ending().exitCode()).isEqualTo(143);
        assertThat(run.result().ending().failure()).isNull();
        assertThat(run.log().lines()).contains("[copilot] Session s-1 | CLI exit code 143 (it reported 0)");
    }
}
