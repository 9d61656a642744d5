package io.jenkins.plugins.copilotautopilot.core.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.output.Finding;
import io.jenkins.plugins.copilotautopilot.core.result.Activity;
import io.jenkins.plugins.copilotautopilot.core.result.Answer;
import io.jenkins.plugins.copilotautopilot.core.result.Changes;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import io.jenkins.plugins.copilotautopilot.core.result.ModelUsage;
import io.jenkins.plugins.copilotautopilot.core.result.Verification;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * A session's result read back from its journal's closing record, which holds it as {@link SessionResult#toMap()} put
 * it: for a session that ended, and whose follower made its result, before the controller went down without recording
 * it. Everything the map holds comes back; the patch of the changes, which it does not hold, does not.
 */
public final class ClosingRecord {
    private ClosingRecord() {
    }

    /** The result {@code data} (a closing record's data) holds, or null when it names no outcome this version knows. */
    public static SessionResult read(JsonNode data) {
        Outcome outcome;
        try {
            outcome = Outcome.valueOf(data.path("outcome").asText(""));
        } catch (IllegalArgumentException e) {
            return null;
        }
        Ending ending = new Ending(outcome, text(data, "reason"), text(data, "summary"), text(data, "blocker"),
                failure(data.path("failure")), integer(data, "exitCode"), data.path("durationMillis").asLong(0),
                text(data, "sessionId"), text(data, "model"));
        Activity activity = new Activity(data.path("turns").asInt(0), data.path("toolCalls").asInt(0),
                data.path("failedToolCalls").asInt(0), data.path("deniedToolCalls").asInt(0),
                data.path("policyDeniedToolCalls").asInt(0), data.path("deniedFetches").asInt(0), texts(data.path("deniedUrls")),
                data.path("nudges").asInt(0));
        Verification verification = new Verification(data.path("verified").isBoolean() ? data.path("verified").asBoolean() : null,
                data.path("verifyRounds").asInt(0), integer(data, "verifyExitCode"));
        ModelUsage usage = new ModelUsage(decimal(data, "premiumRequests"), decimal(data, "aiCredits"), text(data, "aiCreditsStatus"),
                whole(data, "inputTokens"), whole(data, "outputTokens"), whole(data, "cacheReadTokens"));
        List<ChangedFile> files = new ArrayList<>();
        data.path("changedFiles").forEach(f -> files.add(new ChangedFile(text(f, "path"), text(f, "status"), whole(f, "linesAdded"),
                whole(f, "linesRemoved"))));
        Changes changes = new Changes(data.path("linesAdded").asLong(0), data.path("linesRemoved").asLong(0),
                data.path("filesModified").asInt(0), files, null, false);
        List<Finding> findings = new ArrayList<>();
        data.path("findings").forEach(f -> findings.add(Finding.of(f)));
        Answer answer = new Answer(json(data.get("output")), data.path("outputRounds").asInt(0), findings);
        return new SessionResult(ending, activity, usage, changes, verification, answer, texts(data.path("warnings")));
    }

    private static ServiceFailure failure(JsonNode f) {
        if (!f.isObject()) {
            return null;
        }
        try {
            return new ServiceFailure(ServiceFailure.Kind.valueOf(f.path("kind").asText("")), text(f, "errorCode"),
                    integer(f, "statusCode"), f.path("retryable").asBoolean(false), text(f, "action"));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String json(JsonNode output) {
        if (output == null || output.isNull() || output.isMissingNode()) {
            return null;
        }
        try {
            return EventParser.mapper().writeValueAsString(output);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static List<String> texts(JsonNode list) {
        List<String> texts = new ArrayList<>();
        list.forEach(t -> texts.add(t.asText()));
        return texts;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Integer integer(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isNumber() ? null : value.asInt();
    }

    private static Long whole(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isNumber() ? null : value.asLong();
    }

    private static Double decimal(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isNumber() ? null : value.asDouble();
    }
}
