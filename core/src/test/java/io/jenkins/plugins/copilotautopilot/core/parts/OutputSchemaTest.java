package io.jenkins.plugins.copilotautopilot.core.parts;


import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code outputSchema} and {@code reviewFindings} with the real CLI 1.0.102: the task tells the agent to answer with
 * one JSON document as the summary of task_complete; the answer is checked against the schema after each completion,
 * an invalid one sends the agent back in the same session with the validator's errors (before the acceptance check
 * runs), and one that never follows it ends the session OUTPUT_INVALID.
 */
class OutputSchemaTest {
    static final String SCHEMA = """
            {"type": "object", "required": ["verdict", "files"], "additionalProperties": false,
             "properties": {"verdict": {"enum": ["pass", "fail"]}, "files": {"type": "array", "items": {"type": "string"}},
                            "count": {"type": "integer"}}}""";

    @Test
    void aValidAnswerIsTheResultsOutputAsPlainValues() throws Exception {
        E2eRun run = E2eRun.with(Scripts.answers("{\"verdict\": \"pass\", \"files\": [\"a.txt\", \"b.txt\"], \"count\": 2}"))
                .options(o -> o.set(OUTPUT_SCHEMA, SCHEMA)).run();

        assertThat(run.result.outcome()).as(run.log.lines().toString()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.reason()).isEqualTo("The agent called task_complete after 1 turn; its answer follows the schema.");
        assertThat(run.result.answer().rounds()).isEqualTo(1);
        Map<String, Object> map = run.result.toMap();
        assertThat(map.get("output")).isEqualTo(Map.of("verdict", "pass", "files", List.of("a.txt", "b.txt"), "count", 2));
        assertThat(map).containsEntry("outputRounds", 1);
        assertThat(run.log.lines()).contains("[copilot] Answer: JSON that follows the outputSchema, as the summary of task_complete"
                + " (at most 2 rounds)").anyMatch(l -> l.startsWith("[copilot] Answer 1: follows the schema ("));
        // the task told the agent how to answer, with the schema
        String firstRequest = run.server.requests().get(0).path("messages").toString();
        assertThat(firstRequest).contains("call task_complete with your answer as its summary").contains("\\\"verdict\\\"");
    }

    @Test
    void anInvalidAnswerIsSentBackWithTheValidatorsErrorsAndTheFixedOneCounts() throws Exception {
        E2eRun run = E2eRun.with(Scripts.answers("{\"verdict\": \"maybe\"}", "```json\n{\"verdict\": \"fail\", \"files\": []}\n```"))
                .options(o -> o.set(OUTPUT_SCHEMA, SCHEMA)).run();

        assertThat(run.result.outcome()).as(run.log.lines().toString()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.answer().rounds()).isEqualTo(2);
        assertThat(run.result.reason()).endsWith("its answer follows the schema in round 2.");
        assertThat(run.result.toMap().get("output")).isEqualTo(Map.of("verdict", "fail", "files", List.of()));
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] Answer 1: does not follow the schema: ")
                && l.endsWith("; the agent is asked to fix it"));
        JsonNode told = run.server.requests().stream()
                .filter(r -> r.path("messages").toString().contains("does not follow the JSON Schema of the task")).findFirst().orElseThrow();
        String messages = told.path("messages").toString();
        assertThat(messages).contains("required property 'files' not found").contains("enumeration");
        assertThat(run.journalText()).contains("autopilot.output_checked");
    }

    @Test
    void anAnswerThatNeverFollowsTheSchemaEndsOutputInvalid() throws Exception {
        E2eRun run = E2eRun.with(Scripts.answers("not JSON at all", "{\"verdict\": 1}"))
                .options(o -> o.set(OUTPUT_SCHEMA, SCHEMA)).run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.OUTPUT_INVALID);
        assertThat(run.result.answer().rounds()).isEqualTo(2);
        assertThat(run.result.reason()).startsWith("The agent's answer does not follow the output schema after 2 rounds (the"
                + " maxOutputRounds limit): ");
        assertThat(run.result.toMap()).containsEntry("output", null).containsEntry("completed", false);
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] Answer 1: does not follow the schema: the answer is not JSON"))
                .anyMatch(l -> l.startsWith("[copilot] Answer 2: does not follow the schema: ") && l.endsWith("; no rounds left"));
    }

    @Test
    void aValidAnswerSentBackByTheCheckMayBeFollowedByAnInvalidOneThatIsFixed() throws Exception {
        // answers: valid (the check fails and sends the agent back), invalid (sent back: the first invalid one of 2),
        // valid (the check passes): maxOutputRounds counts the invalid answers, not every answer
        E2eRun run = E2eRun.with(Scripts.answers("{\"verdict\": \"pass\", \"files\": []}", "{\"verdict\": 7}",
                        "{\"verdict\": \"pass\", \"files\": [\"fixed.txt\"]}", "{\"verdict\": \"pass\", \"files\": [\"fixed.txt\"]}"))
                .options(o -> o.set(OUTPUT_SCHEMA, SCHEMA).set(VERIFY, "n=$(cat n 2>/dev/null || echo 0); echo $((n + 1)) > n; [ $n -ge 1 ]")
                        .set(MAX_VERIFY_ROUNDS, 3)).run();

        assertThat(run.result.outcome()).as(run.log.lines().toString()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.answer().rounds()).isEqualTo(3);
        assertThat(run.result.verification().rounds()).isEqualTo(2);
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] Answer 2: does not follow the schema: ")
                && l.endsWith("; the agent is asked to fix it"));
    }

    @Test
    void anAnswerStandsWhenTheWorkFailsItsCheck() throws Exception {
        E2eRun run = E2eRun.with(request -> request.used("task_complete") ? io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply.text("Done.")
                        : io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply.tool("task_complete",
                                Map.of("summary", "{\"verdict\": \"pass\", \"files\": []}")))
                .options(o -> o.set(OUTPUT_SCHEMA, SCHEMA).set(VERIFY, "exit 9").set(MAX_VERIFY_ROUNDS, 1)).run();

        // the work failed its only check: NOT_VERIFIED, and the answer stands
        assertThat(run.result.outcome()).isEqualTo(Outcome.NOT_VERIFIED);
        assertThat(run.result.answer().output()).isEqualTo("{\"verdict\":\"pass\",\"files\":[]}");
    }

    @Test
    void anAnswerTooLargeIsOneLineAndNeverParsed() throws Exception {
        String huge = "{\"verdict\": \"pass\", \"files\": [\"" + "x".repeat(1024 * 1024 + 10) + "\"]}";
        E2eRun run = E2eRun.with(Scripts.answers(huge)).options(o -> o.set(OUTPUT_SCHEMA, SCHEMA).set(MAX_OUTPUT_ROUNDS, 1)).run();

        assertThat(run.result.outcome()).as(run.log.lines().toString()).isEqualTo(Outcome.OUTPUT_INVALID);
        assertThat(run.result.reason()).contains("characters long, more than the 1048576 taken");
        assertThat(run.log.lines()).filteredOn(l -> l.startsWith("[copilot] Answer 1:")).singleElement()
                .satisfies(l -> assertThat(l).hasSizeLessThan(400).endsWith("; no rounds left"));
    }

    @Test
    void theAnswerIsCheckedBeforeTheAcceptanceCheckWhichRunsOnTheValidOne() throws Exception {
        E2eRun run = E2eRun.with(Scripts.answers("{\"verdict\": \"pass\"}", "{\"verdict\": \"pass\", \"files\": []}"))
                .options(o -> o.set(OUTPUT_SCHEMA, SCHEMA).set(VERIFY, "echo checked >> checks.txt")).run();

        assertThat(run.result.outcome()).as(run.log.lines().toString()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.verification().rounds()).isEqualTo(1);
        assertThat(run.workDir.resolve("checks.txt")).hasContent("checked");
        List<String> lines = run.log.lines();
        int fixed = lines.indexOf(lines.stream().filter(l -> l.startsWith("[copilot] Answer 2: follows")).findFirst().orElseThrow());
        int checked = lines.indexOf("[copilot] Verify, round 1: passed");
        assertThat(fixed).isLessThan(checked);
        assertThat(lines.subList(0, fixed)).noneMatch(l -> l.startsWith("[copilot] Verify, round"));
    }

    @Test
    void reviewFindingsAreTheResultsFindingsAndASecretInThemIsMasked() throws Exception {
        String secret = "f1nd1ng-s3cr3t-4242";
        // the second finding spells the secret with JSON's \\u escapes: it is masked once decoded
        String escaped = secret.chars().mapToObj(c -> String.format("\\u%04x", c)).collect(java.util.stream.Collectors.joining());
        String answer = "{\"findings\": [{\"path\": \"src/a.c\", \"line\": 3, \"endLine\": 5, \"severity\": \"high\","
                + " \"message\": \"leaks " + secret + "\", \"rule\": \"CWE-798\"}, {\"path\": \"README\", \"line\": 1,"
                + " \"severity\": \"low\", \"message\": \"typo " + escaped + "\"}]}";
        E2eRun run = E2eRun.with(Scripts.answers(answer))
                .options(o -> o.set(REVIEW_FINDINGS, true).add(SECRET_ENV_VARS, "REVIEW_SECRET"))
                .environment("REVIEW_SECRET", secret).run();

        assertThat(run.result.outcome()).as(run.log.lines().toString()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.answer().findings()).hasSize(2);
        assertThat(run.result.answer().findings().get(0).toMap()).containsEntry("path", "src/a.c").containsEntry("line", 3)
                .containsEntry("endLine", 5).containsEntry("severity", "high").containsEntry("rule", "CWE-798");
        assertThat(run.result.answer().findings().get(0).message()).startsWith("leaks *").doesNotContain(secret);
        assertThat(run.result.answer().findings().get(1).message()).startsWith("typo *").doesNotContain(secret);
        assertThat(run.result.answer().output()).doesNotContain(secret);
        assertThat(run.result.toMap().toString()).doesNotContain(secret);
        assertThat(run.journalText()).doesNotContain(secret);
        assertThat(String.join("\n", run.log.lines())).doesNotContain(secret)
                .contains("[copilot] Answer: review findings (path, line, severity, message)");
    }
}
