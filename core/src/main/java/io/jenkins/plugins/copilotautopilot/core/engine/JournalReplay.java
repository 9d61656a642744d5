package io.jenkins.plugins.copilotautopilot.core.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A session known only from its journal (its files cannot be read again: the agent has not answered since the
 * controller restarted, or the folder is gone): the journal's lines up to a checkpoint, read as the CLI's files, so
 * that a follower resumed from it knows the turns, tool calls and model calls the session had, and ends it with them.
 * The CLI's event lines come back as its standard output, its other lines ({@code autopilot.cli_output}) as the text
 * they were, {@code autopilot.stderr} as its standard error, and each {@code autopilot.usage} record as the session
 * state's {@code session.usage_record} it was made of, under the turn it was counted in. Everything is read once, in
 * order, streamed from the file: {@link #checkpoint()} says how much there is, so that the follower reads it all in
 * silence. Nothing runs: stopping and cleaning up do nothing.
 */
public final class JournalReplay implements CliSession {
    private static final ObjectMapper MAPPER = EventParser.mapper();
    private static final String TURN_START = "assistant.turn_start";

    private final EventParser parser = new EventParser();
    private final Path journal;
    private final long journalBytes;
    private final Checkpoint checkpoint;
    private BufferedReader reader;
    private long outputRead;
    private long stderrRead;
    private long usageRead;
    /** The id of each turn's start event, in order: a usage record names the one of its turn. */
    private final List<String> turnStarts = new ArrayList<>();
    private byte[][] pending;
    private boolean ended;

    private JournalReplay(Path journal, long journalBytes, Checkpoint checkpoint) {
        this.journal = journal;
        this.journalBytes = journalBytes;
        this.checkpoint = checkpoint;
    }

    /**
     * The first {@code journalBytes} of {@code journal} (a checkpoint's count: what follows it was written by a follower
     * whose checkpoint did not count it, and is cut off when the journal is continued). A missing journal is an empty one.
     */
    public static JournalReplay of(Path journal, long journalBytes) throws IOException {
        JournalReplay counting = new JournalReplay(journal, journalBytes, null);
        long output = 0;
        long stderr = 0;
        long usage = 0;
        for (byte[][] streams = counting.next(); streams != null; streams = counting.next()) {
            output += streams[0].length;
            stderr += streams[1].length;
            usage += streams[2].length;
        }
        counting.close();
        return new JournalReplay(journal, journalBytes, new Checkpoint(output, stderr, journalBytes, usage));
    }

    /** Where a follower that has read all of it stands: the journal continues after the lines replayed. */
    public Checkpoint checkpoint() {
        return checkpoint;
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException {
        return poll(outputOffset, stderrOffset, usageRead, maxBytes);
    }

    /** The next lines, whole, up to about {@code maxBytes} of each stream; read in order from where the last poll ended. */
    @Override
    public synchronized SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes) throws IOException {
        if (outputOffset != outputRead || stderrOffset != stderrRead || usageOffset != usageRead) {
            throw new IOException("a journal is replayed once, in order: asked for " + outputOffset + "/" + stderrOffset + "/"
                    + usageOffset + " after " + outputRead + "/" + stderrRead + "/" + usageRead);
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        ByteArrayOutputStream usage = new ByteArrayOutputStream();
        while (true) {
            byte[][] streams = pending != null ? pending : next();
            pending = null;
            if (streams == null) {
                break;
            }
            boolean any = output.size() + stderr.size() + usage.size() > 0;
            if (any && (output.size() + streams[0].length > maxBytes || stderr.size() + streams[1].length > maxBytes
                    || usage.size() + streams[2].length > maxBytes)) {
                pending = streams; // the next poll's first line: a line longer than maxBytes comes alone
                break;
            }
            output.writeBytes(streams[0]);
            stderr.writeBytes(streams[1]);
            usage.writeBytes(streams[2]);
        }
        outputRead += output.size();
        stderrRead += stderr.size();
        usageRead += usage.size();
        return new SessionPoll(output.toByteArray(), stderr.toByteArray(), null, false, null, usage.toByteArray(), usage.size(), null);
    }

    /** The next journal line as what the CLI wrote of it on each stream (stdout, stderr, usage); null at the end. */
    private byte[][] next() throws IOException {
        if (ended) {
            return null;
        }
        if (reader == null) {
            InputStream in = Files.exists(journal) ? new BoundedInputStream(Files.newInputStream(journal), journalBytes)
                    : InputStream.nullInputStream();
            reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        String line;
        while ((line = reader.readLine()) != null) {
            byte[][] streams = streamsOf(line);
            if (streams != null) {
                return streams;
            }
        }
        close();
        ended = true;
        return null;
    }

    private byte[][] streamsOf(String line) {
        if (!(parser.parse(line) instanceof CliEvent event)) {
            return null; // blank, or the last line, cut by a controller that died while writing it
        }
        String type = event.type();
        if (!type.startsWith(EventJournal.OWN_TYPE_PREFIX)) {
            if (TURN_START.equals(type) && !event.fromSubAgent() && event.dataText("parentToolCallId") == null) {
                turnStarts.add(event.id() == null ? "" : event.id()); // a turn as the tracker counts them
            }
            return streams(line + "\n", null, null);
        }
        JsonNode data = event.data();
        return switch (type) {
            case EventJournal.CLI_OUTPUT -> data.path("text").isTextual() ? streams(data.path("text").asText() + "\n", null, null) : null;
            case EventJournal.STDERR -> data.path("text").isTextual() ? streams(null, data.path("text").asText() + "\n", null) : null;
            case EventJournal.USAGE -> streams(null, null, usageRecord(data) + "\n");
            default -> null; // our own records (the start, a warning, the changes...) are not the CLI's
        };
    }

    /** The session state's record an {@code autopilot.usage} record was made of (see {@code UsageRecord}). */
    private String usageRecord(JsonNode journaled) {
        ObjectNode usage = MAPPER.createObjectNode();
        if (journaled.path("model").isTextual()) {
            usage.put("model", journaled.path("model").asText());
        }
        usage.put("inputTokens", journaled.path("inputTokens").asLong(0));
        usage.put("outputTokens", journaled.path("outputTokens").asLong(0));
        usage.put("cacheReadTokens", journaled.path("cacheReadTokens").asLong(0));
        usage.put("cacheWriteTokens", journaled.path("cacheWriteTokens").asLong(0));
        usage.put("cost", journaled.path("premiumRequests").asDouble(0));
        usage.put("initiator", "user"); // the premium requests journaled are those counted: the user's calls'
        if (journaled.path("durationMs").canConvertToLong() && journaled.path("durationMs").asLong() >= 0) {
            usage.put("duration", journaled.path("durationMs").asLong());
        }
        if (journaled.path("auto").asBoolean(false)) {
            usage.put("isAuto", true);
        }
        if (journaled.path("aiCredits").isNumber()) {
            usage.putObject("copilotUsage").put("totalNanoAiu", Math.round(journaled.path("aiCredits").asDouble() * 1e9));
            usage.put("aiCreditsStatus", "complete");
        } else {
            usage.put("aiCreditsStatus", "unavailable");
        }
        ObjectNode record = MAPPER.createObjectNode();
        record.put("type", "session.usage_record");
        int turn = journaled.path("turn").asInt(0);
        if (turn >= 1 && turn <= turnStarts.size()) {
            record.put("parentId", turnStarts.get(turn - 1));
        }
        record.putObject("data").set("usage", usage);
        return record.toString();
    }

    private static byte[][] streams(String output, String stderr, String usage) {
        return new byte[][] {bytes(output), bytes(stderr), bytes(usage)};
    }

    private static byte[] bytes(String text) {
        return text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void stop() {
    }

    @Override
    public synchronized void cleanup() throws IOException {
        close();
    }

    private void close() throws IOException {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }

    /** The first bytes of a stream. */
    private static final class BoundedInputStream extends java.io.FilterInputStream {
        private long left;

        BoundedInputStream(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = super.read();
            if (b >= 0) {
                left--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = super.read(b, off, (int) Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }
    }
}
