package io.jenkins.plugins.copilotautopilot.core.process;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * When the place a session runs in hands what is new over to its follower: at once when it holds something a person
 * waits for — an event that is not a piece of a stream (a turn or a tool that starts or ends, a message, the task's
 * completion, an error, anything not in {@link #STREAMED}), errors, usage records (a budget is enforced on them), a
 * change of the open approval requests — and otherwise, when all it holds is pieces of streamed text (an answer written
 * delta by delta, a tool's output line by line), once the first of them has waited {@link #holdMillis}: nothing in the
 * build's log comes of those pieces, only the journal keeps them, and a hand-over each time a tool prints a line
 * would cost the controller a hand-over per line.
 *
 * <p>Only whole lines are judged; the part of a line still being written waits for its end (or for the hold). A line
 * that is not an event whose {@code type} comes first counts as something to hand over at once.
 */
public final class HandOverTiming {
    /** The events that are pieces of a stream: each of them alone shows nothing (copilot-events.md, "ephemeral"). */
    public static final Set<String> STREAMED = Set.of("assistant.message_delta", "assistant.reasoning_delta",
            "assistant.tool_call_delta", "assistant.streaming_delta", "tool.execution_partial_result", "tool.shell_output",
            "tool.execution_progress", "assistant.server_tool_progress", "hook.progress");
    private static final byte[] TYPE = "\"type\"".getBytes(StandardCharsets.US_ASCII);

    private final long holdNanos;
    /** How far the log holds streamed pieces only (whole lines), as a position in the log. */
    private long judgedUpTo;
    /** When the first piece held now was found; -1: nothing held. */
    private long heldSinceNanos = -1;

    public HandOverTiming(long holdMillis, long logPosition) {
        this.holdNanos = TimeUnit.MILLISECONDS.toNanos(holdMillis);
        this.judgedUpTo = logPosition;
    }

    /**
     * Whether to hand over now what was read: {@code output} (the log from {@code outputStart}, held bytes included),
     * with {@code urgent} set when something beside the log must go at once (errors, usage records, approvals, a full
     * chunk).
     */
    public boolean handOverNow(long outputStart, byte[] output, boolean urgent, long nowNanos) {
        if (urgent) {
            return true;
        }
        if (output.length == 0) {
            return false;
        }
        int from = (int) Math.max(0, Math.min(output.length, judgedUpTo - outputStart));
        int lineStart = from;
        for (int i = from; i < output.length; i++) {
            if (output[i] != '\n') {
                continue;
            }
            if (!isStreamedPiece(output, lineStart, i)) {
                return true;
            }
            lineStart = i + 1;
            judgedUpTo = outputStart + lineStart;
        }
        if (heldSinceNanos < 0) {
            heldSinceNanos = nowNanos;
        }
        return nowNanos - heldSinceNanos >= holdNanos;
    }

    /** What was read is handed over, up to {@code logPosition}: nothing is held any more. */
    public void handedOver(long logPosition) {
        heldSinceNanos = -1;
        judgedUpTo = Math.max(judgedUpTo, logPosition);
    }

    /** The hold of the bytes waiting now, in milliseconds (0: none wait). */
    public long heldMillis(long nowNanos) {
        return heldSinceNanos < 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(nowNanos - heldSinceNanos);
    }

    /** Whether the line {@code [start, end)} is an event of a {@link #STREAMED} type, its {@code type} coming first. */
    static boolean isStreamedPiece(byte[] line, int start, int end) {
        int i = skipSpaces(line, start, end);
        if (i >= end || line[i] != '{') {
            return false;
        }
        i = skipSpaces(line, i + 1, end);
        if (end - i < TYPE.length || !regionEquals(line, i, TYPE)) {
            return false;
        }
        i = skipSpaces(line, i + TYPE.length, end);
        if (i >= end || line[i] != ':') {
            return false;
        }
        i = skipSpaces(line, i + 1, end);
        if (i >= end || line[i] != '"') {
            return false;
        }
        int nameStart = i + 1;
        int nameEnd = nameStart;
        while (nameEnd < end && line[nameEnd] != '"') {
            if (line[nameEnd] == '\\') {
                return false; // no streamed type is spelled with an escape
            }
            nameEnd++;
        }
        return nameEnd < end && STREAMED.contains(new String(line, nameStart, nameEnd - nameStart, StandardCharsets.US_ASCII));
    }

    private static int skipSpaces(byte[] bytes, int i, int end) {
        while (i < end && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r')) {
            i++;
        }
        return i;
    }

    private static boolean regionEquals(byte[] bytes, int at, byte[] expected) {
        for (int k = 0; k < expected.length; k++) {
            if (bytes[at + k] != expected[k]) {
                return false;
            }
        }
        return true;
    }
}
