package io.jenkins.plugins.copilotautopilot.core.output;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Review findings in the native JSON format of {@code edu.hm.hafner:analysis-model} ({@code {"issues": [...]}}), which
 * warnings-ng reads with {@code recordIssues(tools: [issues(pattern: …)])} and shows with its source view, trends and
 * quality gates.
 */
public final class IssuesFile {
    private static final ObjectMapper JSON = new ObjectMapper();

    private IssuesFile() {
    }

    private static String html(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** The file's content for {@code findings} (their paths relative to the workspace). */
    public static byte[] of(List<Finding> findings) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode issues = root.putArray("issues");
        for (Finding f : findings) {
            ObjectNode issue = issues.addObject();
            issue.put("fileName", f.path());
            issue.put("lineStart", f.line());
            issue.put("lineEnd", f.endLine());
            issue.put("severity", f.severity().analysisModel());
            issue.put("message", html(f.message())); // warnings-ng shows the message as (sanitised) HTML: the agent's is text
            if (f.category() != null) {
                issue.put("category", f.category());
            }
            if (f.rule() != null) {
                issue.put("type", f.rule());
            }
            issue.put("origin", "copilot-autopilot");
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
