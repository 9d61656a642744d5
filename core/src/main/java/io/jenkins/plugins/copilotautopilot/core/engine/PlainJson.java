package io.jenkins.plugins.copilotautopilot.core.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import java.util.Collection;
import java.util.Map;

/**
 * Plain JDK values (maps, lists, strings, numbers, booleans, null: a result's {@code toMap()}) as a JSON tree, the tree
 * Jackson's {@code valueToTree} makes of them, built directly: {@code valueToTree} writes the values out and reads
 * them back, which was half of what describing a session's end cost, once for each session that ends.
 */
final class PlainJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private PlainJson() {
    }

    static ObjectNode object(Map<?, ?> values) {
        ObjectNode object = NODES.objectNode();
        values.forEach((key, value) -> object.set(String.valueOf(key), tree(value)));
        return object;
    }

    static JsonNode tree(Object value) {
        if (value == null) {
            return NODES.nullNode();
        } else if (value instanceof String text) {
            return NODES.textNode(text);
        } else if (value instanceof Boolean flag) {
            return NODES.booleanNode(flag);
        } else if (value instanceof Integer number) {
            return NODES.numberNode(number);
        } else if (value instanceof Long number) {
            return NODES.numberNode(number);
        } else if (value instanceof Double number) {
            return NODES.numberNode(number);
        } else if (value instanceof Map<?, ?> map) {
            return object(map);
        } else if (value instanceof Collection<?> items) {
            ArrayNode array = NODES.arrayNode(items.size());
            items.forEach(item -> array.add(tree(item)));
            return array;
        }
        return EventParser.mapper().valueToTree(value); // anything else, as Jackson writes it
    }
}
