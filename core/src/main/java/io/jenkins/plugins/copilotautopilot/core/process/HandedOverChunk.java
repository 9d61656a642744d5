package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.Serializable;
import java.io.StreamCorruptedException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What the place a session runs in hands its follower at once: new bytes of the CLI's events, its errors and the usage
 * records of its model calls, each with the position it starts at (so that the follower can tell bytes it already has
 * from new ones, after a reconnection or a restart); and, at the end, why the CLI could not start and what the agent
 * changed. Only JDK types.
 *
 * <p>Its wire form is written out field by field ({@link #writeTo}, read back by {@link #HandedOverChunk(DataInput)}):
 * the fields in a fixed order, byte arrays and strings with their lengths (-1 for null). While a session runs, chunks
 * cross the channel as frames of one stream ({@link ChunkFrames}); the last, which the plugin's one call at the end
 * carries, inside an {@code Externalizable} of the plugin's ({@code SessionChunk.Wire}), so that the call's stream
 * holds one class descriptor without fields. The benchmark measures both forms.
 */
public class HandedOverChunk implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final byte[] NONE = new byte[0];
    /** Byte arrays up to this long are read at once; longer ones in pieces of it. */
    public static final int PIECE = 1024 * 1024;

    public final long outputStart;
    public final byte[] output;
    public final long stderrStart;
    public final byte[] stderr;
    public final long usageStart;
    /** The usage record lines found. */
    public final byte[] usage;
    /** How far the session state was read (whole lines, records or not). */
    public final long usageConsumed;
    /** Why the launch script could not start the CLI, or null; set on the last chunk only. */
    public String launchError;
    /** What the launch script recorded of the agent's changes, or nulls; set on the last chunk only. */
    public byte[] changesStatus;
    public byte[] changesNumstat;
    public byte[] changesPatch;
    /** The session's state packed for a later build ({@code session}), or null; its size when it was too large to hand over. */
    public byte[] keptSession;
    public long keptSessionSize;
    /** The CLI's OpenTelemetry file ({@code otel}), at most {@code SpanFile.MAX_BYTES}, or null; set on the last chunk only. */
    public byte[] spans;
    /** The approval hook's open requests, all of them, by id and text; null when the set did not change. */
    public String[] approvalIds;
    public String[] approvalTexts;
    /**
     * Sent after the end, once the agent has deleted the session's folders itself: whether they are gone, or why not
     * (null); a chunk of neither says nothing of them.
     */
    public boolean foldersDeleted;
    public String foldersNotDeleted;

    public HandedOverChunk(long outputStart, byte[] output, long stderrStart, byte[] stderr, long usageStart, byte[] usage,
                           long usageConsumed) {
        this.outputStart = outputStart;
        this.output = output;
        this.stderrStart = stderrStart;
        this.stderr = stderr;
        this.usageStart = usageStart;
        this.usage = usage;
        this.usageConsumed = usageConsumed;
    }

    /**
     * Reads a chunk as {@link #writeTo} wrote it; a stream cut short, or a length it does not hold, is an error, and a
     * length is never reserved before its bytes are there (an agent's stream may say anything).
     */
    protected HandedOverChunk(DataInput in) throws IOException {
        outputStart = in.readLong();
        output = readBytes(in);
        stderrStart = in.readLong();
        stderr = readBytes(in);
        usageStart = in.readLong();
        usage = readBytes(in);
        usageConsumed = in.readLong();
        if (output == null || stderr == null || usage == null) {
            throw new InvalidObjectException("a session chunk without its output, errors or usage");
        }
        launchError = readString(in);
        changesStatus = readBytes(in);
        changesNumstat = readBytes(in);
        changesPatch = readBytes(in);
        keptSession = readBytes(in);
        keptSessionSize = in.readLong();
        spans = readBytes(in);
        approvalIds = readStrings(in);
        approvalTexts = readStrings(in);
        foldersDeleted = in.readBoolean();
        foldersNotDeleted = readString(in);
    }

    /** The chunk's wire form. */
    public final void writeTo(DataOutput out) throws IOException {
        out.writeLong(outputStart);
        writeBytes(out, output);
        out.writeLong(stderrStart);
        writeBytes(out, stderr);
        out.writeLong(usageStart);
        writeBytes(out, usage);
        out.writeLong(usageConsumed);
        writeString(out, launchError);
        writeBytes(out, changesStatus);
        writeBytes(out, changesNumstat);
        writeBytes(out, changesPatch);
        writeBytes(out, keptSession);
        out.writeLong(keptSessionSize);
        writeBytes(out, spans);
        writeStrings(out, approvalIds);
        writeStrings(out, approvalTexts);
        out.writeBoolean(foldersDeleted);
        writeString(out, foldersNotDeleted);
    }

    /** Whether it tells what became of the session's folders after the end. */
    public boolean tellsOfFolders() {
        return foldersDeleted || foldersNotDeleted != null;
    }

    /** Nothing new: no bytes, no usage read, no news of approvals. */
    public boolean isEmpty() {
        return output.length == 0 && stderr.length == 0 && usageConsumed == 0 && approvalIds == null;
    }

    /** Sets the open approval requests. */
    public void approvals(List<ApprovalGate.Request> open) {
        approvalIds = open.stream().map(ApprovalGate.Request::id).toArray(String[]::new);
        approvalTexts = open.stream().map(ApprovalGate.Request::text).toArray(String[]::new);
    }

    /** The open approval requests, or null when this chunk does not tell. */
    public List<ApprovalGate.Request> approvals() {
        if (approvalIds == null) {
            return null;
        }
        List<ApprovalGate.Request> open = new ArrayList<>();
        for (int i = 0; i < approvalIds.length; i++) {
            open.add(new ApprovalGate.Request(approvalIds[i], approvalTexts[i]));
        }
        return open;
    }

    private static void writeBytes(DataOutput out, byte[] bytes) throws IOException {
        if (bytes == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }

    private static byte[] readBytes(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < -1) {
            throw new StreamCorruptedException("a negative length in a session chunk: " + length);
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
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(PIECE);
        byte[] piece = new byte[PIECE];
        for (int left = length; left > 0; left -= PIECE) {
            int n = Math.min(left, PIECE);
            in.readFully(piece, 0, n);
            bytes.write(piece, 0, n);
        }
        return bytes.toByteArray();
    }

    private static void writeString(DataOutput out, String text) throws IOException {
        writeBytes(out, text == null ? null : text.getBytes(StandardCharsets.UTF_8));
    }

    private static String readString(DataInput in) throws IOException {
        byte[] bytes = readBytes(in);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static void writeStrings(DataOutput out, String[] texts) throws IOException {
        if (texts == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(texts.length);
        for (String text : texts) {
            writeString(out, text);
        }
    }

    private static String[] readStrings(DataInput in) throws IOException {
        int count = in.readInt();
        if (count < -1) {
            throw new StreamCorruptedException("a negative count in a session chunk: " + count);
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
