package io.jenkins.plugins.copilotautopilot.core.result;

import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.output.Finding;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The agent's answer ({@code outputSchema}, {@code reviewFindings}).
 *
 * @param output   the answer as JSON text (masked), when it followed the schema; else null
 * @param rounds   how many answers were checked against the schema
 * @param findings the review findings of that answer, their paths as the agent wrote them
 */
public record Answer(String output, int rounds, List<Finding> findings) {
    public static final Answer NONE = new Answer(null, 0, List.of());

    public Answer {
        findings = findings == null ? List.of() : List.copyOf(findings);
    }

    /** This answer with other findings (the same held to the workspace, say). */
    public Answer withFindings(List<Finding> held) {
        return new Answer(output, rounds, held);
    }

    /** Its entries in the result's map (the Pipeline step's return value, the journal's closing record). */
    public void putInto(Map<String, Object> map) {
        map.put("output", plain(output));
        map.put("outputRounds", rounds);
        List<Map<String, Object>> found = new ArrayList<>();
        findings.forEach(f -> found.add(f.toMap()));
        map.put("findings", found);
    }

    /** JSON text as plain JDK values (maps, lists, strings, numbers, booleans, null); null for none. */
    private static Object plain(String json) {
        if (json == null) {
            return null;
        }
        try {
            return EventParser.mapper().readValue(json, Object.class);
        } catch (JsonProcessingException e) {
            return null; // an answer is only kept once it parsed
        }
    }
}
