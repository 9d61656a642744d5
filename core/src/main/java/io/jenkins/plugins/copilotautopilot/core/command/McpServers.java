package io.jenkins.plugins.copilotautopilot.core.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.jenkins.plugins.copilotautopilot.core.plan.InvalidSettingsException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MCP servers for a session, in the CLI's own configuration format ({@code {"mcpServers": {"name": {...}}}}, the
 * outer object optional): each server has a {@code command} (a local stdio server) or a {@code url} (http or sse).
 * Secrets are never written in the text: a string value may hold references, {@code ${credentials:ID}} (a Secret
 * text credential, resolved by the Jenkins step) or {@code ${env:NAME}} (a variable of the build or the runner's
 * environment), replaced with their values when the session starts. The resolved configuration reaches the CLI as a
 * file in the private control folder ({@code --additional-mcp-config @file}), deleted with it; the values are masked
 * and named to the CLI as secret variables, so that it redacts them too.
 */
public final class McpServers {
    /**
     * A configuration with its references replaced: the JSON for the CLI, the values put in, the servers' names, and
     * the variables its {@code ${env:NAME}} references named: a value handed to an MCP server is a secret, so those
     * variables are hidden from the agent's tools too (unless a step hands one to them on purpose, as a tool secret).
     */
    public record Resolved(String json, List<String> secretValues, List<String> servers, List<String> variables) {
        public Resolved {
            secretValues = List.copyOf(secretValues);
            servers = List.copyOf(servers);
            variables = List.copyOf(variables);
        }

        @Override
        public String toString() {
            return "McpServers.Resolved[servers=" + servers + ", " + secretValues.size() + " secret values, variables=" + variables + "]";
        }
    }

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{(credentials|env):([^}\\s]+)}");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private McpServers() {
    }

    /**
     * The references in a configuration, e.g. {@code credentials:jira-token}, in order, once each.
     *
     * @throws InvalidSettingsException when the text is no valid configuration
     */
    public static Set<String> references(String text) {
        Set<String> found = new LinkedHashSet<>();
        walk(servers(text), value -> {
            Matcher m = REFERENCE.matcher(value);
            while (m.find()) {
                found.add(m.group(1) + ":" + m.group(2));
            }
            return value;
        });
        return found;
    }

    /**
     * The configuration with every reference replaced by {@code values.get("credentials:ID")}.
     *
     * @throws InvalidSettingsException when the text is no valid configuration, or a reference has no value
     */
    public static Resolved resolve(String text, Map<String, String> values) {
        ObjectNode servers = servers(text);
        List<String> secrets = new ArrayList<>();
        List<String> variables = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        walk(servers, value -> {
            Matcher m = REFERENCE.matcher(value);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String key = m.group(1) + ":" + m.group(2);
                if ("env".equals(m.group(1)) && !variables.contains(m.group(2))) {
                    variables.add(m.group(2));
                }
                String secret = values.get(key);
                if (secret == null) {
                    missing.add(key);
                    secret = "";
                } else if (!secret.isEmpty() && !secrets.contains(secret)) {
                    secrets.add(secret);
                }
                m.appendReplacement(out, Matcher.quoteReplacement(secret));
            }
            m.appendTail(out);
            return out.toString();
        });
        if (!missing.isEmpty()) {
            throw new InvalidSettingsException(List.of("mcpServers refers to " + String.join(", ", missing)
                    + ", which has no value here (a credential this build may not use, or a variable it does not set)."));
        }
        ObjectNode root = MAPPER.createObjectNode();
        root.set("mcpServers", servers);
        List<String> names = new ArrayList<>();
        servers.fieldNames().forEachRemaining(names::add);
        return new Resolved(root.toString(), secrets, names, variables);
    }

    /** The servers' object, checked: each a JSON object with a {@code command} or a {@code url}. */
    private static ObjectNode servers(String text) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text == null ? "" : text);
        } catch (JsonProcessingException e) {
            throw new InvalidSettingsException(List.of("mcpServers is not valid JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse("") + " (line " + e.getLocation().getLineNr() + ")."));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidSettingsException(List.of("mcpServers must be a JSON object of servers, e.g."
                    + " {\"tickets\": {\"command\": \"node\", \"args\": [\"server.mjs\"]}}."));
        }
        JsonNode servers = root.has("mcpServers") ? root.get("mcpServers") : root;
        if (!servers.isObject() || servers.isEmpty()) {
            throw new InvalidSettingsException(List.of("mcpServers names no server."));
        }
        List<String> problems = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = servers.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> server = it.next();
            JsonNode s = server.getValue();
            if (!s.isObject() || !(s.path("command").isTextual() || s.path("url").isTextual())) {
                problems.add("mcpServers: the server '" + server.getKey() + "' needs a \"command\" (a local server) or a \"url\".");
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        return ((ObjectNode) servers).deepCopy();
    }

    /** Replaces every string value (not the keys) below {@code node} with {@code change}'s result. */
    private static void walk(JsonNode node, Function<String, String> change) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode child = object.get(name);
                if (child.isTextual()) {
                    object.set(name, TextNode.valueOf(change.apply(child.asText())));
                } else {
                    walk(child, change);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                JsonNode child = node.get(i);
                if (child.isTextual()) {
                    ((com.fasterxml.jackson.databind.node.ArrayNode) node).set(i, TextNode.valueOf(change.apply(child.asText())));
                } else {
                    walk(child, change);
                }
            }
        }
    }
}
