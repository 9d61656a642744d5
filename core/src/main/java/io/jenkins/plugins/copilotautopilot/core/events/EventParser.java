package io.jenkins.plugins.copilotautopilot.core.events;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Turns a stdout line into a {@link CliEvent} when it is a JSON object with a textual {@code type},
 * and into {@link PlainOutput} otherwise. Never throws on bad input. One parser per thread.
 */
public final class EventParser {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final JsonFactory FACTORY = MAPPER.getFactory();

    private final JsonLineScanner scanner = new JsonLineScanner();

    /** The mapper used for event JSON across the engine (thread-safe). */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public StreamLine parse(String line, long originalBytes, boolean truncated) {
        if (truncated) {
            return new PlainOutput(line, originalBytes, true, leadingType(line));
        }
        if (!looksLikeObject(line)) {
            return new PlainOutput(line, originalBytes, false, null);
        }
        CliEvent event = scanner.scan(line);
        return event != null ? event : new PlainOutput(line, originalBytes, false, null);
    }

    public StreamLine parse(String line) {
        return parse(line, line.length(), false);
    }

    private static boolean looksLikeObject(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (!Character.isWhitespace(c)) {
                return c == '{';
            }
        }
        return false;
    }

    /** The {@code type} of a truncated event line when it is the first field, else null. */
    static String leadingType(String line) {
        try (JsonParser parser = FACTORY.createParser(line)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("type".equals(name) && value == JsonToken.VALUE_STRING) {
                    return parser.getText();
                }
                parser.skipChildren();
            }
        } catch (IOException | RuntimeException e) {
            // the line ends before a type was found
        }
        return null;
    }
}
