package io.jenkins.plugins.copilotautopilot.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A secret that a tool prints in two pieces, with the CLI's other events in between, never reaches the journal: not
 * in the streamed output ({@code tool.shell_output}), not in the snapshots of the output so far
 * ({@code tool.execution_partial_result}), not in streamed model text ({@code assistant.message_delta}); plain,
 * base64-encoded (as {@code base64} prints a key, over two lines) and JSON-escaped (a tool that prints JSON); split
 * anywhere, with or without a line break at the split. At most the first {@value #LEAK_BOUND} characters of a piece
 * cut right after them can be told from ordinary text, which is no secret.
 */
class SplitSecretJournalTest {
    /** A released piece's end is taken for a secret's beginning from 3 characters on: 2 may be written. */
    private static final int LEAK_BOUND = DeltaMasker.MIN_SUSPICIOUS_PREFIX - 1;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Text around the secret, from characters that no spelling of it uses, so that any match is a leak. */
    private static final String FILLER = " .,;:!?";
    private static final String SECRET_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private enum Form { PLAIN, BASE64, JSON_ESCAPED }

    private enum Stream { SHELL_OUTPUT, MESSAGE_DELTA }

    @Test
    void aSecretSplitAcrossTwoOutputsIsMaskedInEveryRecord() throws Exception {
        Random random = new Random(20261201);
        int cases = 0;
        for (int round = 0; round < 700; round++) {
            for (Form form : Form.values()) {
                for (Stream stream : Stream.values()) {
                    check(random, form, stream);
                    cases++;
                }
            }
        }
        assertThat(cases).isEqualTo(700 * 6);
    }

    @Test
    void theReportedCaseAKeyBase64EncodedOverTwoLinesAndThePlainKeyInTwoPieces() throws Exception {
        String key = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c";
        String base64 = Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
        int half = base64.length() / 2;
        String journal = journal(key, List.of(
                shellOutput(base64.substring(0, half) + "\n", 0), snapshot(base64.substring(0, half) + "\n"),
                shellOutput(base64.substring(half) + "\n", 1), snapshot(base64.substring(0, half) + "\n" + base64.substring(half) + "\n"),
                shellOutput(key.substring(0, 20), 2), snapshot(base64.substring(0, half) + "\n" + base64.substring(half) + "\n" + key.substring(0, 20)),
                shellOutput(key.substring(20) + "\n", 3)));
        assertThat(journal).doesNotContain(base64.substring(0, half)).doesNotContain(key.substring(0, 20))
                .doesNotContain(base64.substring(half)).doesNotContain(key.substring(20));
    }

    private void check(Random random, Form form, Stream stream) throws Exception {
        String secret = secret(random, form);
        String printed = switch (form) {
            case PLAIN -> secret;
            case BASE64 -> Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8));
            case JSON_ESCAPED -> JSON.writeValueAsString(secret).substring(1, JSON.writeValueAsString(secret).length() - 1);
        };
        int cut = 1 + random.nextInt(printed.length() - 1);
        String first = filler(random) + printed.substring(0, cut) + (random.nextBoolean() ? "\n" : "");
        String second = printed.substring(cut) + filler(random) + "\n";
        List<String> events = new ArrayList<>();
        if (stream == Stream.SHELL_OUTPUT) {
            events.add(shellOutput(first, 0));
            events.add(snapshot(first));
            maybeInterleave(random, events);
            events.add(shellOutput(second, 1));
            events.add(snapshot(first + second));
            events.add(complete(first + second));
        } else {
            events.add(delta("m1", first));
            maybeInterleave(random, events);
            events.add(delta("m1", second));
            events.add(message("m1", first + second));
        }
        String journal = journal(secret, events);
        String decoded = decodedStrings(journal);
        // of a base64 encoding, the characters made of the secret's bits only (not its last one and the padding)
        String secretPart = form == Form.BASE64 ? printed.substring(0, secret.length() * 8 / 6) : printed;
        for (int i = 0; i + LEAK_BOUND + 1 <= secretPart.length(); i++) {
            String piece = secretPart.substring(i, i + LEAK_BOUND + 1);
            assertThat(decoded).as("%s %s cut at %d: %s", form, stream, cut, journal).doesNotContain(piece);
        }
    }

    private static void maybeInterleave(Random random, List<String> events) {
        if (random.nextBoolean()) {
            events.add(delta("other", " ... "));
        }
        if (random.nextBoolean()) {
            events.add(line("{\"type\":\"tool.execution_progress\",\"data\":{\"toolCallId\":\"c1\",\"progressMessage\":\"working\"},"
                    + "\"ephemeral\":true}"));
        }
    }

    private static String secret(Random random, Form form) {
        StringBuilder s = new StringBuilder();
        int length = 24 + random.nextInt(20);
        for (int i = 0; i < length; i++) {
            s.append(SECRET_CHARS.charAt(random.nextInt(SECRET_CHARS.length())));
        }
        if (form == Form.JSON_ESCAPED) {
            s.insert(1 + random.nextInt(length - 2), '"');
            s.insert(1 + random.nextInt(length - 2), '\\');
        }
        return s.toString();
    }

    private static String filler(Random random) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            s.append(FILLER.charAt(random.nextInt(FILLER.length())));
        }
        return s.toString();
    }

    private static String journal(String secret, List<String> lines) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EventParser parser = new EventParser();
        try (EventJournal journal = new EventJournal(out, SecretMasker.of(List.of(secret)))) {
            for (String l : lines) {
                journal.recordEvent((CliEvent) parser.parse(l));
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * Every string in the records' data, decoded, with line breaks taken out (where a split secret rejoins); not the
     * records' ids and times, which the filler does not keep apart from the secret's characters.
     */
    private static String decodedStrings(String journal) throws Exception {
        StringBuilder all = new StringBuilder();
        for (String l : journal.split("\n")) {
            collect(JSON.readTree(l).path("data"), all);
        }
        return all.toString().replace("\n", "").replace("\r", "");
    }

    private static void collect(JsonNode node, StringBuilder into) {
        if (node.isTextual()) {
            into.append(node.asText()).append('\u0000');
        }
        node.elements().forEachRemaining(child -> collect(child, into));
    }

    private static String shellOutput(String text, int sequence) {
        return event("tool.shell_output", data().put("toolCallId", "c1").put("stream", "stdout").put("text", text).put("sequence", sequence));
    }

    private static String snapshot(String soFar) {
        return event("tool.execution_partial_result", data().put("toolCallId", "c1").put("partialOutput", soFar));
    }

    private static String complete(String output) {
        ObjectNode d = data().put("toolCallId", "c1").put("success", true);
        d.putObject("result").put("content", output).put("detailedContent", output);
        return event("tool.execution_complete", d);
    }

    private static String delta(String messageId, String text) {
        return event("assistant.message_delta", data().put("messageId", messageId).put("deltaContent", text));
    }

    private static String message(String messageId, String content) {
        return event("assistant.message", data().put("messageId", messageId).put("content", content));
    }

    private static ObjectNode data() {
        return JSON.createObjectNode();
    }

    private static String event(String type, ObjectNode data) {
        ObjectNode root = JSON.createObjectNode().put("type", type);
        root.set("data", data);
        root.put("id", "e").put("timestamp", "2026-12-01T10:00:00.000Z");
        return root.toString();
    }

    private static String line(String json) {
        return json;
    }
}
