package io.jenkins.plugins.copilotautopilot.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventJournalTest {
    private static final String SECRET = "sk-journal-secret-000111";
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final EventJournal journal = new EventJournal(out, SecretMasker.of(List.of(SECRET)));

    private List<JsonNode> lines() throws Exception {
        journal.close();
        List<JsonNode> lines = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            lines.add(json.readTree(line));
        }
        return lines;
    }

    @Test
    void theFirstStopIsFoundOnlyWithinTheCheckpointsBytes(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String before = "{\"type\":\"assistant.turn_start\",\"data\":{},\"timestamp\":\"2026-01-01T00:00:01Z\"}\n";
        String stop = "{\"type\":\"autopilot.stopping\",\"data\":{\"termination\":\"OVER_BUDGET\"},\"timestamp\":\"2026-01-01T00:01:00Z\"}\n";
        String later = "{\"type\":\"autopilot.stopping\",\"data\":{},\"timestamp\":\"2026-01-01T00:02:00Z\"}\n";
        Path journal = dir.resolve("s.jsonl");
        java.nio.file.Files.writeString(journal, before + stop + later);
        long upToTheStop = (before + stop).getBytes(StandardCharsets.UTF_8).length;

        assertThat(EventJournal.firstStopping(journal, upToTheStop)).isEqualTo(java.time.Instant.parse("2026-01-01T00:01:00Z"));
        assertThat(EventJournal.firstStopping(journal, upToTheStop - 1)).as("a record the checkpoint does not count whole").isNull();
        assertThat(EventJournal.firstStopping(dir.resolve("none.jsonl"), 100)).isNull();
    }

    @Test
    void keepsEventLinesAsWrittenButMasked() throws Exception {
        String raw = "{\"type\":\"tool.shell_output\",\"data\":{\"text\":\"key " + SECRET + "\\n\"},\"ephemeral\":true}";
        journal.recordEvent((CliEvent) new EventParser().parse(raw));
        journal.close();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("{\"type\":\"tool.shell_output\",\"data\":{\"text\":\"key ****\\n\"},\"ephemeral\":true}\n");
    }

    @Test
    void wrapsEverythingElseInOwnRecords() throws Exception {
        journal.recordPlainOutput(new PlainOutput("not json " + SECRET, 30, false, null));
        journal.recordPlainOutput(new PlainOutput("{\"type\":\"x\",\"data\":\"" + "y".repeat(10_000), 99_000_000L, true, "x"));
        journal.recordStderr("Error: " + SECRET);
        List<JsonNode> lines = lines();
        assertThat(lines.get(0).path("type").asText()).isEqualTo(EventJournal.CLI_OUTPUT);
        assertThat(lines.get(0).path("data").path("text").asText()).isEqualTo("not json ****");
        assertThat(lines.get(1).path("data").path("truncated").asBoolean()).isTrue();
        assertThat(lines.get(1).path("data").path("bytes").asLong()).isEqualTo(99_000_000L);
        assertThat(lines.get(1).path("data").path("eventType").asText()).isEqualTo("x");
        assertThat(lines.get(1).path("data").path("text").asText()).hasSize(EventJournal.TRUNCATED_EXCERPT);
        assertThat(lines.get(2).path("type").asText()).isEqualTo(EventJournal.STDERR);
        assertThat(lines.get(2).path("data").path("text").asText()).isEqualTo("Error: ****");
        assertThat(lines).allMatch(l -> l.has("timestamp"));
    }

    @Test
    void aMaskThatWouldBreakJsonFallsBackToText() throws Exception {
        // a secret that starts with "n" right after a backslash: masking it would leave a dangling escape
        EventJournal odd = new EventJournal(out, SecretMasker.of(List.of("nsecretvalue")));
        odd.recordEvent((CliEvent) new EventParser().parse("{\"type\":\"t\",\"data\":{\"p\":\"C:\\\\nsecretvalue\"}}"));
        odd.close();
        JsonNode line = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(line.toString()).doesNotContain("nsecretvalue");
    }

    @Test
    void ownRecordsAreMaskedToo() throws Exception {
        journal.recordOwn(EventJournal.RUN_FINISHED, new ObjectMapper().createObjectNode().put("summary", "used " + SECRET));
        assertThat(lines().get(0).path("data").path("summary").asText()).isEqualTo("used ****");
    }

    private static CliEvent delta(String messageId, String text) throws Exception {
        return (CliEvent) new EventParser().parse(new ObjectMapper().createObjectNode().put("type", "assistant.message_delta")
                .set("data", new ObjectMapper().createObjectNode().put("messageId", messageId).put("deltaContent", text)).toString());
    }

    private static CliEvent other(String type) {
        return (CliEvent) new EventParser().parse("{\"type\":\"" + type + "\",\"data\":{}}");
    }

    /** The deltas' text as the journal has it, joined per message, and the order of types. */
    private static String joinedDeltas(List<JsonNode> lines, String messageId) {
        StringBuilder out = new StringBuilder();
        for (JsonNode line : lines) {
            if (line.path("data").path("messageId").asText().equals(messageId)) {
                out.append(line.path("data").path("deltaContent").asText());
            }
        }
        return out.toString();
    }

    @Test
    void aSecretStreamedInSmallPiecesIsMaskedInEveryPiece() throws Exception {
        String streamed = "The key is " + SECRET + ", keep it safe.";
        for (int i = 0; i < streamed.length(); i += 4) {
            journal.recordEvent(delta("m1", streamed.substring(i, Math.min(streamed.length(), i + 4))));
        }
        journal.recordEvent(other("assistant.message"));
        List<JsonNode> lines = lines();
        assertThat(lines).hasSize((streamed.length() + 3) / 4 + 1);
        assertThat(lines.get(lines.size() - 1).path("type").asText()).isEqualTo("assistant.message");
        String joined = joinedDeltas(lines, "m1");
        assertThat(joined).startsWith("The key is ").endsWith(", keep it safe.").doesNotContain("journal-secret").contains("****");
        for (JsonNode line : lines) {
            assertThat(line.toString()).doesNotContain("0111").doesNotContain("secret-0");
        }
    }

    @Test
    void anotherEventInTheMiddleOfASecretStillLeavesNoPiece() throws Exception {
        journal.recordEvent(delta("m1", "token: " + SECRET.substring(0, 9)));
        journal.recordEvent(other("session.background_tasks_changed"));
        journal.recordEvent(delta("m1", SECRET.substring(9) + " done"));
        journal.recordEvent(other("assistant.message"));
        List<JsonNode> lines = lines();
        assertThat(lines).extracting(l -> l.path("type").asText()).containsExactly("assistant.message_delta",
                "session.background_tasks_changed", "assistant.message_delta", "assistant.message");
        String joined = joinedDeltas(lines, "m1");
        assertThat(joined).startsWith("token: ").endsWith(" done").doesNotContain(SECRET.substring(0, 9)).doesNotContain(SECRET.substring(9));
    }

    @Test
    void aFlushWritesTheHeldPiecesAndASecretAcrossItStaysMasked() throws Exception {
        journal.recordEvent(delta("m1", "token: " + SECRET.substring(0, 9)));
        journal.flush(); // a checkpoint: every event read so far is in the file
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("assistant.message_delta").doesNotContain(SECRET.substring(0, 9));
        journal.recordEvent(delta("m1", SECRET.substring(9) + " done"));
        List<JsonNode> lines = lines();
        assertThat(lines).hasSize(2);
        assertThat(joinedDeltas(lines, "m1")).startsWith("token: ").endsWith(" done").doesNotContain(SECRET.substring(9));
    }

    @Test
    void streamsAreKeptApartAndInOrder() throws Exception {
        journal.recordEvent(delta("a", "alpha one "));
        journal.recordEvent(delta("b", "beta " + SECRET.substring(0, 12)));
        journal.recordEvent(delta("a", "alpha two"));
        journal.recordEvent(delta("b", SECRET.substring(12)));
        journal.close();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            lines.add(new ObjectMapper().readTree(line));
        }
        assertThat(lines).extracting(l -> l.path("data").path("messageId").asText()).containsExactly("a", "b", "a", "b");
        assertThat(joinedDeltas(lines, "a")).isEqualTo("alpha one alpha two");
        assertThat(joinedDeltas(lines, "b")).isEqualTo("beta ********"); // each piece masks its part
    }

    @Test
    void withoutSecretsPiecesAreWrittenAtOnce() throws Exception {
        EventJournal plain = new EventJournal(out, SecretMasker.none());
        plain.recordEvent(delta("m", "hello"));
        plain.flush();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"deltaContent\":\"hello\"");
    }

    /** The secret of the issue: a quote and a backslash, so that every JSON level escapes it once more. */
    private static final String QUOTED = "Tok\"en\\Val";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A tool.execution_complete line as the CLI writes it, its result being {@code content}. */
    private static String toolResultLine(String content) throws Exception {
        var data = JSON.createObjectNode().put("toolCallId", "call_1").put("success", true);
        data.putObject("result").put("content", content).put("detailedContent", content);
        return JSON.createObjectNode().put("type", "tool.execution_complete").<com.fasterxml.jackson.databind.node.ObjectNode>set("data", data)
                .put("id", "1e2db6bd-94bd-4c08-8ff4-ac2ac6bf8ba3").put("timestamp", "2026-11-30T07:58:48.100Z").toString();
    }

    private static String shellOutputLine(String text) {
        return JSON.createObjectNode().put("type", "tool.shell_output").<com.fasterxml.jackson.databind.node.ObjectNode>set("data",
                JSON.createObjectNode().put("toolCallId", "call_1").put("stream", "stdout").put("text", text)).put("ephemeral", true).toString();
    }

    private static String json(String key, String value) throws Exception {
        return JSON.writeValueAsString(java.util.Map.of(key, value));
    }

    private String journalFor(SecretMasker masker, List<String> rawLines) throws Exception {
        EventJournal j = new EventJournal(out, masker);
        for (String raw : rawLines) {
            j.recordEvent((CliEvent) new EventParser().parse(raw));
        }
        j.close();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aSecretWithQuoteAndBackslashIsMaskedAtEveryJsonDepth() throws Exception {
        String once = json("k", QUOTED);                         // a tool printed {"k":"Tok\"en\\Val"}
        String twice = json("env", once);                        // a tool printed JSON holding that JSON
        String brokenLine = json("k", "Tok\"e\nn\\Val");          // a tool wrapped the secret inside its JSON string
        assertThat(toolResultLine(once)).contains("Tok\\\\\\\"en\\\\\\\\Val"); // two levels of escaping in the event line
        String journal = journalFor(SecretMasker.of(List.of(QUOTED)),
                List.of(toolResultLine(once), toolResultLine(twice), toolResultLine(brokenLine), toolResultLine(QUOTED)));

        assertThat(journal).doesNotContain("Tok").doesNotContain("Val");
        String[] lines = journal.split("\n");
        assertThat(lines).hasSize(4);
        assertThat(JSON.readTree(lines[0]).path("data").path("result").path("content").asText()).isEqualTo("{\"k\":\"****\"}");
        JsonNode inner = JSON.readTree(JSON.readTree(lines[1]).path("data").path("result").path("content").asText());
        assertThat(inner.path("env").asText()).isEqualTo("{\"k\":\"****\"}");
        assertThat(JSON.readTree(lines[2]).path("data").path("result").path("content").asText()).isEqualTo("{\"k\":\"****\"}");
        assertThat(JSON.readTree(lines[3]).path("data").path("result").path("content").asText()).isEqualTo("****");
    }

    @Test
    void aJsonEscapedSecretStreamedInPiecesIsMaskedInEveryPiece() throws Exception {
        String printed = "config: " + json("env", json("k", QUOTED)) + "\nnext " + json("k", QUOTED) + "\n";
        List<String> pieces = new ArrayList<>();
        for (int i = 0; i < printed.length(); i += 3) {
            pieces.add(shellOutputLine(printed.substring(i, Math.min(printed.length(), i + 3))));
        }
        pieces.add(toolResultLine("done"));
        String journal = journalFor(SecretMasker.of(List.of(QUOTED)), pieces);

        StringBuilder streamed = new StringBuilder();
        for (String line : journal.split("\n")) {
            JsonNode node = JSON.readTree(line);
            if (node.path("type").asText().equals("tool.shell_output")) {
                streamed.append(node.path("data").path("text").asText());
            }
        }
        assertThat(streamed.toString()).startsWith("config: {").contains("next {").doesNotContain("Tok").doesNotContain("Val")
                .doesNotContain("en\\");
    }

    @Test
    void safeFileNamesStayInsideTheirFolder() {
        assertThat(SafeFileNames.of("../../etc/passwd")).isEqualTo("_._.._etc_passwd");
        assertThat(SafeFileNames.of("/abs/path")).isEqualTo("_abs_path");
        assertThat(SafeFileNames.of("..")).isEqualTo("_.");
        assertThat(SafeFileNames.of("")).isEqualTo("_");
        assertThat(SafeFileNames.of("C:\\win\\x")).isEqualTo("C__win_x");
        assertThat(SafeFileNames.of("b47bbc09-5752-47c6.jsonl")).isEqualTo("b47bbc09-5752-47c6.jsonl");
        assertThat(SafeFileNames.of("x".repeat(500))).hasSize(100);
        Path folder = Path.of("/builds/1/copilot");
        for (String evil : new String[] {"../x", "..", ".", "/etc/passwd", "a/../../b", "\0"}) {
            assertThat(SafeFileNames.resolveInside(folder, evil).getParent()).isEqualTo(folder);
        }
    }
}
