package io.jenkins.plugins.copilotautopilot.core.output;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.text.ConsoleText;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Review findings ({@code reviewFindings}): the shape the agent is asked for ({@link #SCHEMA}), read from an answer
 * (its {@code findings} array, in the built-in schema or in a schema of the user's that has one), and held to the
 * workspace: a finding's path is made relative to it, and one that points outside is dropped with a warning.
 */
public final class ReviewFindings {
    /** The most findings taken from one answer. */
    public static final int MAX_FINDINGS = 5_000;

    /** The answer's shape when {@code reviewFindings} is on and no {@code outputSchema} is given. */
    public static final String SCHEMA = """
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "type": "object",
              "required": ["findings"],
              "properties": {
                "findings": {
                  "type": "array",
                  "maxItems": 5000,
                  "items": {
                    "type": "object",
                    "required": ["path", "line", "severity", "message"],
                    "properties": {
                      "path": {"type": "string", "minLength": 1, "description": "the file, relative to the working directory"},
                      "line": {"type": "integer", "minimum": 1},
                      "endLine": {"type": "integer", "minimum": 1},
                      "severity": {"enum": ["high", "medium", "low"]},
                      "message": {"type": "string", "minLength": 1},
                      "rule": {"type": "string"},
                      "category": {"type": "string"}
                    },
                    "additionalProperties": false
                  }
                },
                "summary": {"type": "string"}
              }
            }
            """;

    /** The findings kept, and the paths of those dropped (the agent's words: shown where its text may be). */
    public record Held(List<Finding> findings, List<String> dropped) {
        /** One warning line for each dropped finding; {@code agentText} false: without its path. */
        public List<String> warnings(boolean agentText) {
            return dropped.stream().map(p -> agentText ? "a finding for '" + Texts.truncate(ConsoleText.clean(Texts.oneLine(p)), 120)
                    + "' was dropped: the path is not a file in the workspace" : "a finding was dropped: its path is not a file in the workspace")
                    .toList();
        }
    }

    private ReviewFindings() {
    }

    /** The findings of an answer (its {@code findings} array), as the agent wrote them; empty when it has none. */
    public static List<Finding> of(JsonNode answer) {
        List<Finding> findings = new ArrayList<>();
        JsonNode array = answer == null ? null : answer.get("findings");
        if (array == null || !array.isArray()) {
            return findings;
        }
        for (JsonNode node : array) {
            if (findings.size() == MAX_FINDINGS) {
                break;
            }
            if (node.isObject()) {
                findings.add(Finding.of(node));
            }
        }
        return findings;
    }

    /**
     * The findings with their paths relative to {@code workspace}; a path is read relative to {@code workingDirectory}
     * (where the agent worked) unless absolute. What is outside the workspace, or no path, is dropped with a warning.
     */
    public static Held inWorkspace(List<Finding> findings, Path workspace, Path workingDirectory) {
        Path root = workspace.toAbsolutePath().normalize();
        Path base = workingDirectory == null ? root : root.resolve(workingDirectory).normalize();
        List<Finding> kept = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (Finding f : findings) {
            String relative = relative(f.path(), root, base);
            if (relative == null) {
                dropped.add(f.path());
            } else {
                kept.add(f.at(relative));
            }
        }
        return new Held(kept, dropped);
    }

    private static String relative(String path, Path root, Path base) {
        if (path == null || path.isBlank() || path.indexOf('\0') >= 0) {
            return null;
        }
        Path resolved;
        try {
            resolved = base.resolve(path.replace('\\', '/')).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
        if (!resolved.startsWith(root) || resolved.equals(root)) {
            return null;
        }
        return root.relativize(resolved).toString().replace('\\', '/');
    }
}
