package io.jenkins.plugins.copilotautopilot.core.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
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
            String url = "http://127.0.0.1:" + server.getLocalPort();
            String ref = "{\"$ref\": \"" + url + "/schema.json\"}";
            assertThatThrownBy(() -> OutputSchema.parse(ref)).hasMessageContaining("a $ref may only point inside the schema");
            // below the top: the validator would only find it with the first answer, after the model was paid for
            String nested = "{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"" + url + "/nested.json\"}}}";
            assertThatThrownBy(() -> OutputSchema.parse(nested)).hasMessage("refers to another document ('" + url
                    + "/nested.json' at /properties/a/$ref): nothing is fetched, so a $ref may only point inside the schema;"
                    + " put what it refers to under $defs and refer to it as '#/$defs/NAME'.");
            String deep = "{\"type\": \"array\", \"items\": {\"anyOf\": [{\"type\": \"null\"}, {\"$dynamicRef\": \"" + url
                    + "/d.json#x\"}]}}";
            assertThatThrownBy(() -> OutputSchema.parse(deep)).hasMessageContaining("at /items/anyOf/1/$dynamicRef)");
            assertThatThrownBy(server::accept).isInstanceOf(java.net.SocketTimeoutException.class);
        }
        assertThatThrownBy(() -> OutputSchema.parse("{\"$ref\": \"file:///etc/passwd\"}"))
                .hasMessageContaining("a $ref may only point inside the schema");
        assertThatThrownBy(() -> OutputSchema.parse("{\"$defs\": {\"p\": {\"$ref\": \"file:///etc/passwd\"}}}"))
                .hasMessageContaining("('file:///etc/passwd' at /$defs/p/$ref)");
        assertThat(AnswerRequest.problem(SessionPlan.of(SettingValues.none().with(SessionSettings.OUTPUT_SCHEMA,
                "{\"properties\": {\"a\": {\"$ref\": \"other.json\"}}}")), Setting::name))
                .startsWith("outputSchema refers to another document ('other.json' at /properties/a/$ref)");
    }

    @Test
    void whatOnlyLooksLikeAReferenceIsNone() throws Exception {
        // data named $ref, a property named $ref, and a reference to a part the schema names with its own $id
        OutputSchema schema = OutputSchema.parse("""
                {"type": "object", "properties": {"$ref": {"type": "string", "default": "x"}, "c": {"const": {"$ref": "http://h/x"}},
                 "e": {"enum": [{"$ref": "file:///etc/passwd"}]}, "n": {"$ref": "urn:example:n"}},
                 "$defs": {"n": {"$id": "urn:example:n", "type": "integer"}}}""");
        assertThat(schema.validate("{\"n\": 3, \"$ref\": \"s\"}")).isEmpty();
        assertThat(schema.validate("{\"n\": \"3\"}")).singleElement().asString().contains("integer");
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
        assertThat(AnswerRequest.problem(plan, Setting::name)).startsWith("outputSchema is not JSON: ");
        assertThat(AnswerRequest.problem(plan, s -> s == SessionSettings.OUTPUT_SCHEMA ? "--output-schema s.json" : s.name()))
                .as("in the caller's words").startsWith("--output-schema s.json is not JSON: ");
        assertThat(AnswerRequest.problem(SessionPlan.of(SettingValues.none().with(SessionSettings.REVIEW_FINDINGS, true)), Setting::name)).isNull();
        assertThat(AnswerRequest.schema(SessionPlan.of(SettingValues.none()))).isNull();
    }
}
