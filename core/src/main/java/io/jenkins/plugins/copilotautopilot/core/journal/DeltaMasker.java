package io.jenkins.plugins.copilotautopilot.core.journal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Masks secrets in streamed fragments. The CLI streams model output and shell output in small pieces
 * ({@code assistant.message_delta}, {@code assistant.tool_call_delta}, {@code assistant.reasoning_delta},
 * {@code tool.shell_output}); a secret split over two pieces is in neither line alone. So pieces of one stream
 * are held back until enough text follows them to see any secret that starts in them, masked over the joined
 * text, and then written. Any other event first releases every held piece, so the journal keeps the CLI's
 * order of events. A piece released before its stream could be seen in full has a trailing beginning of a
 * secret masked as a precaution.
 */
final class DeltaMasker {
    /** Held pieces at most, whatever the streams; beyond, the oldest is released. */
    static final int MAX_HELD = 512;
    /** Streams remembered (for a secret continuing after a release); the least recent is forgotten. */
    static final int MAX_STREAMS = 64;
    /** The shortest end of a released piece taken for the beginning of a secret (shorter ones are no secret). */
    static final int MIN_SUSPICIOUS_PREFIX = 3;

    private final SecretMasker masker;
    private final Consumer<String> out;
    private final int need;
    private final Deque<Piece> held = new ArrayDeque<>();
    private final Map<String, StreamState> streams = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, StreamState> eldest) {
            return size() > MAX_STREAMS && eldest.getValue().pieces.isEmpty();
        }
    };

    DeltaMasker(SecretMasker masker, Consumer<String> out) {
        this.masker = masker;
        this.out = out;
        this.need = Math.max(masker.longestSpelling() - 1, 0);
    }

    /** The name of the text field of a streamed piece, or null for other events. */
    static String textField(String type) {
        return switch (type) {
            case "assistant.message_delta", "assistant.reasoning_delta" -> "deltaContent";
            case "assistant.tool_call_delta" -> "inputDelta";
            case "tool.shell_output" -> "text";
            default -> null;
        };
    }

    private static String streamKey(CliEvent event) {
        return switch (event.type()) {
            case "assistant.message_delta" -> event.dataText("messageId");
            case "assistant.reasoning_delta" -> event.dataText("reasoningId");
            case "assistant.tool_call_delta" -> event.dataText("toolCallId");
            default -> event.dataText("toolCallId") + "/" + event.dataText("stream");
        };
    }

    /** Takes a streamed piece ({@link #textField} is not null for its type); writes whatever can be released. */
    void add(CliEvent event, String field) {
        String text = event.dataText(field);
        String key = String.valueOf(streamKey(event));
        Piece piece = new Piece(event, key, field, text == null ? "" : text);
        StreamState stream = streams.computeIfAbsent(key, k -> new StreamState());
        stream.pieces.addLast(piece);
        stream.heldChars += piece.text.length();
        held.addLast(piece);
        while (!held.isEmpty()) {
            Piece head = held.peekFirst();
            StreamState headStream = streams.get(head.key);
            if (held.size() > MAX_HELD || headStream.heldChars - head.text.length() >= need) {
                release(held.pollFirst(), false);
            } else {
                break;
            }
        }
    }

    /** Writes every held piece (before another event, or at the end). */
    void releaseAll() {
        while (!held.isEmpty()) {
            release(held.pollFirst(), true);
        }
    }

    /** Masks the piece over its stream's known text (written tail, itself, the held pieces after it) and writes it. */
    private void release(Piece piece, boolean flushing) {
        StreamState stream = streams.computeIfAbsent(piece.key, k -> new StreamState());
        stream.pieces.pollFirst();
        stream.heldChars -= piece.text.length();
        String tail = stream.tail;
        StringBuilder joined = new StringBuilder(tail.length() + piece.text.length() + stream.heldChars).append(tail).append(piece.text);
        for (Piece p : stream.pieces) {
            joined.append(p.text);
        }
        int pieceStart = tail.length();
        for (int[] range : masker.find(joined.toString())) {
            piece.flag(range[0] - pieceStart, range[1] - pieceStart);
            int offset = pieceStart + piece.text.length();
            for (Piece p : stream.pieces) {
                p.flag(range[0] - offset, range[1] - offset);
                offset += p.text.length();
            }
        }
        if (flushing && stream.pieces.isEmpty()) {
            // the stream may go on with the rest of a secret (after a line break, too): its beginning goes masked
            int[] suspicious = masker.trailingSecretPrefixRange(joined.toString(), MIN_SUSPICIOUS_PREFIX);
            if (suspicious != null) {
                piece.flag(suspicious[0] - pieceStart, suspicious[1] - pieceStart);
            }
        }
        String written = tail + piece.text;
        stream.tail = written.length() > need ? written.substring(written.length() - need) : written;
        out.accept(piece.maskedLine());
    }

    /** Pieces currently held, for tests. */
    int held() {
        return held.size();
    }

    /** One stream's held pieces and the end of what was already written of it. */
    private static final class StreamState {
        final Deque<Piece> pieces = new ArrayDeque<>();
        int heldChars;
        String tail = "";
    }

    /** One held piece and which of its characters belong to a secret. */
    private static final class Piece {
        final CliEvent event;
        final String key;
        final String field;
        final String text;
        BitSet secret;

        Piece(CliEvent event, String key, String field, String text) {
            this.event = event;
            this.key = key;
            this.field = field;
            this.text = text;
        }

        void flag(int from, int to) {
            int start = Math.max(from, 0);
            int end = Math.min(to, text.length());
            if (start < end) {
                if (secret == null) {
                    secret = new BitSet(text.length());
                }
                secret.set(start, end);
            }
        }

        /** The event line with the secret characters of its text replaced. */
        String maskedLine() {
            if (secret == null) {
                return event.raw();
            }
            StringBuilder masked = new StringBuilder(text.length());
            int i = 0;
            while (i < text.length()) {
                if (secret.get(i)) {
                    masked.append(SecretMasker.MASK);
                    i = secret.nextClearBit(i);
                } else {
                    masked.append(text.charAt(i++));
                }
            }
            ObjectNode root = event.root().deepCopy();
            ((ObjectNode) root.path("data")).put(field, masked.toString());
            return root.toString();
        }
    }
}
