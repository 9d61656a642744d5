package io.jenkins.plugins.copilotautopilot.core.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON Schema the agent's answer must follow ({@code outputSchema}), checked with networknt's
 * json-schema-validator: the schema itself against its meta-schema when it is given, each answer against the schema
 * after {@code task_complete}. Drafts 4 to 2020-12 (a schema's {@code $schema} says which; 2020-12 otherwise). Nothing
 * is ever fetched: a {@code $ref} to another document, wherever it stands in the schema, is refused before the session
 * starts, so a schema cannot make the controller connect anywhere or read its files.
 */
public final class OutputSchema {
    /** The longest schema taken. */
    public static final int MAX_SCHEMA_CHARS = 256 * 1024;
    /** The most errors an answer is reported with (the agent, the log). */
    public static final int MAX_ERRORS = 20;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaLoader(l -> l.fetchRemoteResources(false).block(iri -> !metaSchema(iri.toString()))));

    private final String text;
    private final Schema schema;

    private OutputSchema(String text, Schema schema) {
        this.text = text;
        this.schema = schema;
    }

    private static boolean metaSchema(String iri) {
        return iri.startsWith("https://json-schema.org/") || iri.startsWith("http://json-schema.org/");
    }

    /** Thrown for a schema that cannot be used; the message is one line saying why. */
    public static final class InvalidSchemaException extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidSchemaException(String message) {
            super(message);
        }
    }

    /** The schema in {@code text} (JSON), checked against its meta-schema. */
    public static OutputSchema parse(String text) throws InvalidSchemaException {
        if (text == null || text.isBlank()) {
            throw new InvalidSchemaException("is empty.");
        }
        if (text.length() > MAX_SCHEMA_CHARS) {
            throw new InvalidSchemaException("is longer than " + MAX_SCHEMA_CHARS + " characters.");
        }
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidSchemaException("is not JSON: " + Texts.oneLine(e.getOriginalMessage()) + " (line "
                    + e.getLocation().getLineNr() + ").");
        }
        if (!node.isObject() && !node.isBoolean()) {
            throw new InvalidSchemaException("must be a JSON object (a JSON Schema), was " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + ".");
        }
        String external = externalReference(node, "", documentIds(node, new java.util.HashSet<>()));
        if (external != null) {
            throw new InvalidSchemaException("refers to another document (" + external + "): nothing is fetched, so a $ref"
                    + " may only point inside the schema; put what it refers to under $defs and refer to it as '#/$defs/NAME'.");
        }
        try {
            String dialect = node.path("$schema").asText(SpecificationVersion.DRAFT_2020_12.getDialectId());
            Schema meta = REGISTRY.getSchema(SchemaLocation.of(dialect));
            List<Error> problems = meta.validate(node);
            if (!problems.isEmpty()) {
                throw new InvalidSchemaException("is not a valid JSON Schema: " + describe(problems, 3) + ".");
            }
            Schema schema = REGISTRY.getSchema(node);
            schema.validate(JSON.nullNode()); // resolves its references now, not with the agent's first answer
            return new OutputSchema(text, schema);
        } catch (SchemaException | IllegalArgumentException | IllegalStateException e) {
            throw new InvalidSchemaException("is not a usable JSON Schema: " + Texts.truncate(Texts.oneLine(String.valueOf(e.getMessage())), 200)
                    + " (a $ref may only point inside the schema).");
        }
    }

    /** Keywords whose values are data, not schemas: a {@code $ref} there is no reference. */
    private static final java.util.Set<String> DATA_KEYWORDS = java.util.Set.of("const", "enum", "default", "examples");
    private static final List<String> REFERENCE_KEYWORDS = List.of("$ref", "$dynamicRef", "$recursiveRef");

    /** The {@code $id}s the schema gives its parts: a reference to one of them stays inside the document. */
    private static java.util.Set<String> documentIds(JsonNode node, java.util.Set<String> ids) {
        if (node.isObject()) {
            node.properties().forEach(field -> {
                if (field.getKey().equals("$id") && field.getValue().isTextual()) {
                    ids.add(withoutFragment(field.getValue().asText()));
                } else if (!DATA_KEYWORDS.contains(field.getKey())) {
                    documentIds(field.getValue(), ids);
                }
            });
        } else if (node.isArray()) {
            node.forEach(item -> documentIds(item, ids));
        }
        return ids;
    }

    /**
     * The first reference in the schema that points outside it, as {@code 'target' at /json/pointer}, or null. The
     * validator would refuse to load it only when an answer reaches it, after the model was paid for.
     */
    private static String externalReference(JsonNode node, String pointer, java.util.Set<String> ids) {
        if (node.isObject()) {
            for (java.util.Map.Entry<String, JsonNode> field : node.properties()) {
                String key = field.getKey();
                String at = pointer + "/" + key.replace("~", "~0").replace("/", "~1");
                if (REFERENCE_KEYWORDS.contains(key) && field.getValue().isTextual()) {
                    String target = field.getValue().asText();
                    if (!target.startsWith("#") && !ids.contains(withoutFragment(target))) {
                        return "'" + Texts.truncate(Texts.oneLine(target), 200) + "' at " + at;
                    }
                } else if (!DATA_KEYWORDS.contains(key)) {
                    String found = externalReference(field.getValue(), at, ids);
                    if (found != null) {
                        return found;
                    }
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String found = externalReference(node.get(i), pointer + "/" + i, ids);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static String withoutFragment(String iri) {
        int hash = iri.indexOf('#');
        return hash < 0 ? iri : iri.substring(0, hash);
    }

    /** The schema as given. */
    public String text() {
        return text;
    }

    /** What is wrong with {@code answer} (JSON text), at most {@link #MAX_ERRORS}; empty when it follows the schema. */
    public List<String> validate(String answer) {
        JsonNode node;
        try {
            node = JSON.readTree(answer);
        } catch (JsonProcessingException e) {
            return List.of("the answer is not JSON: " + Texts.oneLine(e.getOriginalMessage()) + " (line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ")");
        }
        if (node == null || node.isMissingNode()) {
            return List.of("the answer is empty");
        }
        return validate(node);
    }

    /** {@link #validate(String)} for a parsed answer. */
    public List<String> validate(JsonNode answer) {
        List<Error> errors;
        try {
            errors = schema.validate(answer);
        } catch (SchemaException e) {
            String why = Texts.oneLine(String.valueOf(e.getMessage())).strip();
            return List.of("the schema could not be applied: " + (why.endsWith(".") ? why.substring(0, why.length() - 1) : why));
        }
        List<String> out = new ArrayList<>();
        for (Error e : errors) {
            if (out.size() == MAX_ERRORS) {
                break;
            }
            out.add(e.toString());
        }
        return out;
    }

    private static String describe(List<Error> errors, int max) {
        List<String> shown = new ArrayList<>();
        for (Error e : errors) {
            if (shown.size() == max) {
                shown.add("and " + (errors.size() - max) + " more");
                break;
            }
            shown.add(e.toString());
        }
        return String.join("; ", shown);
    }
}
