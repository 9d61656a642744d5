package io.jenkins.plugins.copilotautopilot.core.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import org.junit.jupiter.api.Test;

/** What a schema may be, what an answer is checked for, and that nothing is ever fetched. */
class OutputSchemaUnitTest {
    @Test
    void aSchemaThatIsNotJsonOrNotAJsonSchemaIsOneLine() {
        assertThatThrownBy(() -> OutputSchema.parse("{\"type\": ")).hasMessageStartingWith("is not JSON: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> OutputSchema.parse("[1, 2]")).hasMessage("must be a JSON object (a JSON Schema), was array.");
        assertThatThrownBy(() -> OutputSchema.parse("{\"type\": \"banana\"}")).hasMessageStartingWith("is not a valid JSON Schema: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> OutputSchema.parse("{\"minLength\": -1}")).hasMessageStartingWith("is not a valid JSON Schema: ");
        assertThatThrownBy(() -> OutputSchema.parse(" ")).hasMessage("is empty.");
    }

    @Test
    void aReferenceToAnotherDocumentIsRefusedAndNeverFetched() throws Exception {
        try (var server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(1);
            String ref = "{\"$ref\": \"http://127.0.0.1:" + server.getLocalPort() + "/schema.json\"}";
            assertThatThrownBy(() -> OutputSchema.parse(ref)).hasMessageContaining("a $ref may only point inside the schema");
            assertThatThrownBy(server::accept).isInstanceOf(java.net.SocketTimeoutException.class);
        }
        assertThatThrownBy(() -> OutputSchema.parse("{\"$ref\": \"file:///etc/passwd\"}"))
                .hasMessageContaining("a $ref may only point inside the schema");
    }

    @Test
    void aReferenceInsideTheSchemaWorks() throws Exception {
        OutputSchema schema = OutputSchema.parse("""
                {"$defs": {"n": {"type": "integer"}}, "type": "object", "properties": {"x": {"$ref": "#/$defs/n"}}}""");
        assertThat(schema.validate("{\"x\": 3}")).isEmpty();
        assertThat(schema.validate("{\"x\": \"3\"}")).singleElement().asString().contains("/x").contains("integer");
    }

    @Test
    void anAnswerIsCheckedAndItsErrorsAreBounded() throws Exception {
        OutputSchema schema = OutputSchema.parse("{\"type\": \"array\", \"items\": {\"type\": \"integer\"}}");
        assertThat(schema.validate("[1, 2, 3]")).isEmpty();
        assertThat(schema.validate("[1, \"a\"")).singleElement().asString().startsWith("the answer is not JSON: ");
        String many = "[" + "\"a\",".repeat(99) + "\"a\"]";
        assertThat(schema.validate(many)).hasSize(OutputSchema.MAX_ERRORS);
    }

    @Test
    void theBuiltInFindingsSchemaIsAValidSchemaAndTheAnswerIsFencedOrNot() throws Exception {
        OutputSchema schema = OutputSchema.parse(ReviewFindings.SCHEMA);
        String answer = "{\"findings\": [{\"path\": \"a\", \"line\": 1, \"severity\": \"high\", \"message\": \"m\"}]}";
        assertThat(schema.validate(AnswerRequest.json("```json\n" + answer + "\n```"))).isEmpty();
        assertThat(schema.validate(AnswerRequest.json(answer))).isEmpty();
        assertThat(schema.validate("{\"findings\": [{\"path\": \"a\", \"line\": 0, \"severity\": \"bad\", \"message\": \"m\"}]}"))
                .hasSize(2);
    }

    @Test
    void aPlansSchemaProblemNamesTheSetting() {
        SessionPlan plan = SessionPlan.of(SettingValues.none().with(SessionSettings.OUTPUT_SCHEMA, "{nope"));
        assertThat(AnswerRequest.problem(plan)).startsWith("outputSchema is not JSON: ");
        assertThat(AnswerRequest.problem(SessionPlan.of(SettingValues.none().with(SessionSettings.REVIEW_FINDINGS, true)))).isNull();
        assertThat(AnswerRequest.schema(SessionPlan.of(SettingValues.none()))).isNull();
    }
}
