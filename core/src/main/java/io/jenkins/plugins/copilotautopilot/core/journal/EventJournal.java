package io.jenkins.plugins.copilotautopilot.core.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The recorded session: every line the CLI printed on stdout, ephemeral events included, one JSON object
 * per line, with secrets masked. Event lines are kept as the CLI wrote them; everything else is wrapped
 * in records of our own, whose types start with {@value #OWN_TYPE_PREFIX}:
 * <ul>
 *   <li>{@code autopilot.run_started}: what was run (first line)</li>
 *   <li>{@code autopilot.cli_output}: a stdout line that was not an event, or an event line too long to keep</li>
 *   <li>{@code autopilot.stderr}: a line the CLI wrote on stderr</li>
 *   <li>{@code autopilot.usage}: what a model call used (turn, model, tokens, premium requests)</li>
 *   <li>{@code autopilot.stopping}: the session is being stopped (abort, a limit, a budget): calls still running
 *   are cut off</li>
 *   <li>{@code autopilot.changes}: what the agent changed in the git work tree</li>
 *   <li>{@code autopilot.warning}: a warning the log gave (a budget that could not be enforced)</li>
 *   <li>{@code autopilot.run_finished}: the outcome (last line)</li>
 * </ul>
 */
public final class EventJournal implements Closeable {
    public static final String OWN_TYPE_PREFIX = "autopilot.";
    public static final String RUN_STARTED = "autopilot.run_started";
    public static final String CLI_OUTPUT = "autopilot.cli_output";
    public static final String STDERR = "autopilot.stderr";
    public static final String RUN_FINISHED = "autopilot.run_finished";
    /** What one model call used (from the CLI's session state, which stdout does not carry). */
    public static final String USAGE = "autopilot.usage";
    /** The CLI is being stopped, and why: what the tools report from here on was cut off by the stop. */
    public static final String STOPPING = "autopilot.stopping";
    /** Something the log warned of (a budget that could not be enforced, say). */
    public static final String WARNING = "autopilot.warning";
    /** What the agent changed in the git work tree: the files and the patch (before the last record). */
    public static final String CHANGES = "autopilot.changes";
    /** An answer checked against the session's schema: its round, whether it followed it, its length and the errors. */
    public static final String OUTPUT_CHECKED = "autopilot.output_checked";
    /** A call waits for a person ({@code approveTools}): id, tool, arguments, pattern, requestedAt, deadline. */
    public static final String APPROVAL_REQUESTED = "autopilot.approval_requested";
    /** What became of it: the request's fields and verdict, by (who, or null), at. */
    public static final String APPROVAL_DECIDED = "autopilot.approval_decided";
    /** A running tool's output so far, repeated in full each time (deprecated by the CLI, still printed). */
    private static final String SNAPSHOT = "tool.execution_partial_result";
    private static final String SNAPSHOT_FIELD = "partialOutput";
    /** Longest excerpt kept of a line that was too long to read. */
    static final int TRUNCATED_EXCERPT = 4096;

    private static final ObjectMapper MAPPER = EventParser.mapper();

    private final Writer out;
    private final SecretMasker masker;
    private final DeltaMasker deltas;
    private long lines;
    private boolean closed;

    public EventJournal(OutputStream stream, SecretMasker masker) {
        this.out = new CompactUtf8Writer(stream); // memory only while it holds text: one journal per running session
        this.masker = masker;
        this.deltas = new DeltaMasker(masker, line -> writeEvent(line, null));
    }

    /** A journal written to {@code file} (created, or replaced). */
    public static EventJournal toFile(Path file, SecretMasker masker) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return new EventJournal(Files.newOutputStream(file), masker);
    }

    public synchronized void recordEvent(CliEvent event) {
        String streamedField = masker.isEmpty() ? null : DeltaMasker.textField(event.type());
        if (streamedField != null) {
            deltas.add(event, streamedField);
            return;
        }
        deltas.releaseAll();
        writeEvent(SNAPSHOT.equals(event.type()) && !masker.isEmpty() ? snapshotWithoutSecretTail(event) : event.raw(), event.type());
    }

    /**
     * A snapshot of a running tool's output so far, with its end masked where it is the beginning of a secret: the
     * next snapshot may hold the rest, and this one would keep the beginning.
     */
    private String snapshotWithoutSecretTail(CliEvent event) {
        String text = event.dataText(SNAPSHOT_FIELD);
        int[] tail = text == null ? null : masker.trailingSecretPrefixRange(text, DeltaMasker.MIN_SUSPICIOUS_PREFIX);
        if (tail == null) {
            return event.raw();
        }
        ObjectNode root = event.root().deepCopy();
        ((ObjectNode) root.path("data")).put(SNAPSHOT_FIELD, text.substring(0, tail[0]) + SecretMasker.MASK + text.substring(tail[1]));
        return root.toString();
    }

    /** An event line, masked; if masking broke its JSON (a cut through an escape), kept as text instead. */
    private void writeEvent(String raw, String type) {
        String masked = masker.mask(raw);
        if (masked != raw && !isJson(masked)) {
            writeOwn(CLI_OUTPUT, data().put("text", masked).put("eventType", type));
            return;
        }
        writeLine(masked);
    }

    public synchronized void recordPlainOutput(PlainOutput line) {
        deltas.releaseAll();
        ObjectNode record = data();
        if (line.truncated()) {
            record.put("truncated", true).put("bytes", line.originalBytes())
                    .put("text", line.raw().length() > TRUNCATED_EXCERPT ? line.raw().substring(0, TRUNCATED_EXCERPT) : line.raw());
            if (line.eventType() != null) {
                record.put("eventType", line.eventType());
            }
        } else {
            record.put("text", line.raw());
        }
        writeOwn(CLI_OUTPUT, record);
    }

    public synchronized void recordStderr(String line) {
        deltas.releaseAll();
        writeOwn(STDERR, data().put("text", line));
    }

    /** Writes one of our own records; {@code data} is masked like everything else. */
    /**
     * When the first stop was decided in the first {@code bytes} of the journal {@code journal} (its {@link #STOPPING}
     * record), or null: a follower resumed after a restart counts the session's turns as the one before it did.
     */
    public static Instant firstStopping(Path journal, long bytes) throws IOException {
        if (!Files.exists(journal)) {
            return null;
        }
        EventParser parser = new EventParser();
        try (java.io.InputStream in = new java.io.BufferedInputStream(Files.newInputStream(journal))) {
            java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
            long read = 0;
            for (int b = in.read(); b != -1 && read < bytes; b = in.read()) {
                read++;
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                String text = line.toString(java.nio.charset.StandardCharsets.UTF_8);
                line.reset();
                if (text.contains(STOPPING) && parser.parse(text) instanceof CliEvent event && STOPPING.equals(event.type())) {
                    return event.timestamp();
                }
            }
        }
        return null;
    }

    public synchronized void recordOwn(String type, JsonNode data) {
        deltas.releaseAll();
        writeOwn(type, data);
    }

    private void writeOwn(String type, JsonNode data) {
        ObjectNode record = MAPPER.createObjectNode();
        record.put("type", type);
        record.set("data", data);
        record.put("timestamp", Instant.now().toString());
        writeRaw(record);
    }

    public synchronized long lines() {
        return lines;
    }

    /**
     * Writes out everything taken so far, streamed pieces held back for masking included: a checkpoint counts
     * every event read as written, and a follower resumed from it does not read them again.
     */
    public synchronized void flush() {
        if (closed) {
            return;
        }
        deltas.releaseAll();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            deltas.releaseAll();
            closed = true;
            out.close();
        }
    }

    private static ObjectNode data() {
        return MAPPER.createObjectNode();
    }

    private void writeRaw(ObjectNode record) {
        String json;
        try {
            json = MAPPER.writeValueAsString(record);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String masked = masker.mask(json);
        if (masked != json && !isJson(masked)) {
            masked = "{\"type\":\"" + CLI_OUTPUT + "\",\"data\":{\"text\":\"" + SecretMasker.MASK + "\"}}";
        }
        writeLine(masked);
    }

    private synchronized void writeLine(String line) {
        if (closed) {
            return;
        }
        try {
            out.write(line);
            out.write('\n');
            lines++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isJson(String line) {
        try {
            MAPPER.readTree(line);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
