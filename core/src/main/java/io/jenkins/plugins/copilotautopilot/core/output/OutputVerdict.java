package io.jenkins.plugins.copilotautopilot.core.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.Serializable;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * How one answer fared against the schema: its number (one per completion), the answer's JSON text (masked), and what
 * is wrong with it (empty when it follows the schema).
 */
public record OutputVerdict(int round, String answer, List<String> errors) implements Serializable {
    private static final ObjectMapper JSON = new ObjectMapper();
    public OutputVerdict {
        errors = List.copyOf(errors);
    }

    /**
     * Checks the answer of {@code summary} against {@code schema}. {@code mask} is applied to the text and then to every
     * string of the parsed answer (a secret spelled with JSON's {@code \\u} escapes is found once decoded); the answer
     * kept is the masked document, written compactly.
     */
    public static OutputVerdict check(int round, String summary, OutputSchema schema, UnaryOperator<String> mask) {
        String answer = mask.apply(AnswerRequest.json(summary));
        List<String> problems = AnswerRequest.problems(answer);
        if (!problems.isEmpty()) {
            return new OutputVerdict(round, answer, problems);
        }
        JsonNode parsed;
        try {
            parsed = JSON.readTree(answer);
        } catch (JsonProcessingException e) {
            return new OutputVerdict(round, answer, schema.validate(answer)); // says why it is not JSON
        }
        if (parsed == null || parsed.isMissingNode()) {
            return new OutputVerdict(round, answer, List.of("the answer is empty"));
        }
        JsonNode masked = masked(parsed, mask);
        try {
            return new OutputVerdict(round, JSON.writeValueAsString(masked), schema.validate(masked));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode masked(JsonNode node, UnaryOperator<String> mask) {
        if (node.isTextual()) {
            return TextNode.valueOf(mask.apply(node.textValue()));
        }
        if (node.isArray()) {
            ArrayNode out = JSON.createArrayNode();
            node.forEach(n -> out.add(masked(n, mask)));
            return out;
        }
        if (node.isObject()) {
            ObjectNode out = JSON.createObjectNode();
            node.properties().forEach(e -> out.set(mask.apply(e.getKey()), masked(e.getValue(), mask)));
            return out;
        }
        return node;
    }

    public boolean valid() {
        return errors.isEmpty();
    }

    /** Why it is not valid, in one line (the validator's words), or null. */
    public String problem() {
        if (errors.isEmpty()) {
            return null;
        }
        return errors.size() == 1 ? errors.get(0) : errors.get(0) + " (and " + (errors.size() - 1) + " more)";
    }
}
