package io.jenkins.plugins.copilotautopilot.agent;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;

/**
 * What the agent hands the controller of a running session at once: new bytes of the CLI's events, its errors and
 * the usage records of its model calls, each with the position it starts at (so that the controller can tell bytes
 * it already has from new ones, after a reconnection or a restart); and, at the end, why the CLI could not start and
 * what the agent changed. Only JDK types, so that it passes the controller's remoting class filter.
 *
 * <p>It crosses the channel as its {@link Wire} form, written out field by field: a chunk comes up to four times a
 * second for each running session, each call in a stream of its own, and default serialization would write and read
 * back the descriptor of all sixteen fields every time (README, "Performance").
 */
final class SessionChunk implements Serializable {
    private static final long serialVersionUID = 1L;
    static final byte[] NONE = new byte[0];

    final long outputStart;
    final byte[] output;
    final long stderrStart;
    final byte[] stderr;
    final long usageStart;
    /** The usage record lines found. */
    final byte[] usage;
    /** How far the session state was read (whole lines, records or not). */
    final long usageConsumed;
    /** Why the launch script could not start the CLI, or null; set on the last chunk only. */
    String launchError;
    /** What the launch script recorded of the agent's changes, or nulls; set on the last chunk only. */
    byte[] changesStatus;
    byte[] changesNumstat;
    byte[] changesPatch;
    /** The session's state packed for a later build ({@code session}), or null; its size when it was too large to hand over. */
    byte[] keptSession;
    long keptSessionSize;
    /** The CLI's OpenTelemetry file ({@code otel}), at most {@code SpanFile.MAX_BYTES}, or null; set on the last chunk only. */
    byte[] spans;
    /** The approval hook's open requests, all of them, by id and text; null when the set did not change. */
    String[] approvalIds;
    String[] approvalTexts;

    SessionChunk(long outputStart, byte[] output, long stderrStart, byte[] stderr, long usageStart, byte[] usage, long usageConsumed) {
        this.outputStart = outputStart;
        this.output = output;
        this.stderrStart = stderrStart;
        this.stderr = stderr;
        this.usageStart = usageStart;
        this.usage = usage;
        this.usageConsumed = usageConsumed;
    }

    /** What is serialized in its place. */
    private Object writeReplace() {
        return new Wire(this);
    }

    boolean isEmpty() {
        return output.length == 0 && stderr.length == 0 && usageConsumed == 0 && approvalIds == null;
    }

    /** Sets the open approval requests. */
    void approvals(java.util.List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> open) {
        approvalIds = open.stream().map(io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request::id).toArray(String[]::new);
        approvalTexts = open.stream().map(io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request::text).toArray(String[]::new);
    }

    /** The open approval requests, or null when this chunk does not tell. */
    java.util.List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> approvals() {
        if (approvalIds == null) {
            return null;
        }
        java.util.List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> open = new java.util.ArrayList<>();
        for (int i = 0; i < approvalIds.length; i++) {
            open.add(new io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request(approvalIds[i], approvalTexts[i]));
        }
        return open;
    }

    /**
     * The chunk on the wire: its fields in a fixed order, byte arrays and strings with their lengths (-1 for null), so
     * that the stream carries one class descriptor without fields. Read back as the {@link SessionChunk} it was.
     */
    static final class Wire implements Externalizable {
        private static final long serialVersionUID = 1L;
        /** Byte arrays up to this long are read at once; longer ones in pieces of it. */
        static final int PIECE = 1024 * 1024;
        private SessionChunk chunk;

        /** For deserialization only. */
        public Wire() {
        }

        Wire(SessionChunk chunk) {
            this.chunk = chunk;
        }

        @Override
        public void writeExternal(ObjectOutput out) throws IOException {
            SessionChunk c = chunk;
            out.writeLong(c.outputStart);
            writeBytes(out, c.output);
            out.writeLong(c.stderrStart);
            writeBytes(out, c.stderr);
            out.writeLong(c.usageStart);
            writeBytes(out, c.usage);
            out.writeLong(c.usageConsumed);
            writeString(out, c.launchError);
            writeBytes(out, c.changesStatus);
            writeBytes(out, c.changesNumstat);
            writeBytes(out, c.changesPatch);
            writeBytes(out, c.keptSession);
            out.writeLong(c.keptSessionSize);
            writeBytes(out, c.spans);
            writeStrings(out, c.approvalIds);
            writeStrings(out, c.approvalTexts);
        }

        @Override
        public void readExternal(ObjectInput in) throws IOException {
            long outputStart = in.readLong();
            byte[] output = readBytes(in);
            long stderrStart = in.readLong();
            byte[] stderr = readBytes(in);
            long usageStart = in.readLong();
            byte[] usage = readBytes(in);
            long usageConsumed = in.readLong();
            if (output == null || stderr == null || usage == null) {
                throw new java.io.InvalidObjectException("a session chunk without its output, errors or usage");
            }
            SessionChunk c = new SessionChunk(outputStart, output, stderrStart, stderr, usageStart, usage, usageConsumed);
            c.launchError = readString(in);
            c.changesStatus = readBytes(in);
            c.changesNumstat = readBytes(in);
            c.changesPatch = readBytes(in);
            c.keptSession = readBytes(in);
            c.keptSessionSize = in.readLong();
            c.spans = readBytes(in);
            c.approvalIds = readStrings(in);
            c.approvalTexts = readStrings(in);
            chunk = c;
        }

        private Object readResolve() {
            return chunk;
        }

        private static void writeBytes(ObjectOutput out, byte[] bytes) throws IOException {
            if (bytes == null) {
                out.writeInt(-1);
            } else {
                out.writeInt(bytes.length);
                out.write(bytes);
            }
        }

        private static byte[] readBytes(ObjectInput in) throws IOException {
            int length = in.readInt();
            if (length < -1) {
                throw new java.io.StreamCorruptedException("a negative length in a session chunk: " + length);
            }
            if (length == -1) {
                return null;
            }
            if (length <= PIECE) {
                byte[] bytes = length == 0 ? NONE : new byte[length];
                in.readFully(bytes);
                return bytes;
            }
            // larger (a kept session, spans): read in pieces, so that a length the stream does not hold fails at its end
            // instead of reserving that much memory first
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(PIECE);
            byte[] piece = new byte[PIECE];
            for (int left = length; left > 0; left -= PIECE) {
                int n = Math.min(left, PIECE);
                in.readFully(piece, 0, n);
                bytes.write(piece, 0, n);
            }
            return bytes.toByteArray();
        }

        private static void writeString(ObjectOutput out, String text) throws IOException {
            writeBytes(out, text == null ? null : text.getBytes(StandardCharsets.UTF_8));
        }

        private static String readString(ObjectInput in) throws IOException {
            byte[] bytes = readBytes(in);
            return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
        }

        private static void writeStrings(ObjectOutput out, String[] texts) throws IOException {
            if (texts == null) {
                out.writeInt(-1);
                return;
            }
            out.writeInt(texts.length);
            for (String text : texts) {
                writeString(out, text);
            }
        }

        private static String[] readStrings(ObjectInput in) throws IOException {
            int count = in.readInt();
            if (count < -1) {
                throw new java.io.StreamCorruptedException("a negative count in a session chunk: " + count);
            }
            if (count == -1) {
                return null;
            }
            String[] texts = new String[count];
            for (int i = 0; i < count; i++) {
                texts[i] = readString(in);
            }
            return texts;
        }
    }
}
