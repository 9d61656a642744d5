package io.jenkins.plugins.copilotautopilot.core.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
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
    private static final int MIN_SUSPICIOUS_PREFIX = 3;

    private final SecretMasker masker;
    private final Consumer<String> out;
    private final Deque<Piece> held = new ArrayDeque<>();
    /** Per stream: the end of the text already written, to catch a secret that continues in the next piece. */
    private final Map<String, String> tails = new HashMap<>();

    DeltaMasker(SecretMasker masker, Consumer<String> out) {
        this.masker = masker;
        this.out = out;
    }

    /** A streamed piece: the key of its stream and the name of its text field, or null for other events. */
    static Stream streamOf(CliEvent event) {
        JsonNode data = event.data();
        return switch (event.type()) {
            case "assistant.message_delta" -> new Stream("m:" + data.path("messageId").asText(), "deltaContent");
            case "assistant.reasoning_delta" -> new Stream("r:" + data.path("reasoningId").asText(), "deltaContent");
            case "assistant.tool_call_delta" -> new Stream("t:" + data.path("toolCallId").asText(), "inputDelta");
            case "tool.shell_output" -> new Stream("s:" + data.path("toolCallId").asText() + ":" + data.path("stream").asText("stdout"), "text");
            default -> null;
        };
    }

    record Stream(String key, String field) {
    }

    /** Takes a streamed piece; writes whatever can be released. */
    void add(CliEvent event, Stream stream) {
        String text = event.data().path(stream.field()).asText("");
        held.addLast(new Piece(event, stream, text));
        while (!held.isEmpty() && (held.size() > MAX_HELD || enoughFollows(held.peekFirst()))) {
            release(held.pollFirst(), false);
        }
    }

    /** Writes every held piece (before another event, or at the end). */
    void releaseAll() {
        while (!held.isEmpty()) {
            Piece piece = held.pollFirst();
            release(piece, !moreOf(piece.stream.key()));
        }
    }

    private boolean enoughFollows(Piece first) {
        int need = Math.max(masker.longestSpelling() - 1, 0);
        int following = 0;
        boolean after = false;
        for (Piece p : held) {
            if (p == first) {
                after = true;
            } else if (after && p.stream.key().equals(first.stream.key())) {
                following += p.text.length();
                if (following >= need) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean moreOf(String key) {
        for (Piece p : held) {
            if (p.stream.key().equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** Masks the piece over its stream's known text (written tail, itself, the held pieces after it) and writes it. */
    private void release(Piece piece, boolean lastKnown) {
        String key = piece.stream.key();
        String tail = tails.getOrDefault(key, "");
        StringBuilder joined = new StringBuilder(tail).append(piece.text);
        int pieceStart = tail.length();
        int pieceEnd = joined.length();
        List<Piece> later = new java.util.ArrayList<>();
        for (Piece p : held) {
            if (p.stream.key().equals(key)) {
                later.add(p);
                joined.append(p.text);
            }
        }
        for (int[] range : masker.find(joined.toString())) {
            piece.flag(range[0] - pieceStart, range[1] - pieceStart);
            int offset = pieceEnd;
            for (Piece p : later) {
                p.flag(range[0] - offset, range[1] - offset);
                offset += p.text.length();
            }
        }
        if (lastKnown) {
            int suspicious = masker.trailingSecretPrefix(piece.text, MIN_SUSPICIOUS_PREFIX);
            piece.flag(piece.text.length() - suspicious, piece.text.length());
        }
        String written = tail + piece.text;
        int keep = Math.max(masker.longestSpelling() - 1, 0);
        tails.put(key, written.length() > keep ? written.substring(written.length() - keep) : written);
        out.accept(piece.maskedLine());
    }

    /** One held piece and which of its characters belong to a secret. */
    private static final class Piece {
        final CliEvent event;
        final Stream stream;
        final String text;
        final BitSet secret = new BitSet();

        Piece(CliEvent event, Stream stream, String text) {
            this.event = event;
            this.stream = stream;
            this.text = text;
        }

        void flag(int from, int to) {
            int start = Math.max(from, 0);
            int end = Math.min(to, text.length());
            if (start < end) {
                secret.set(start, end);
            }
        }

        /** The event line with the secret characters of its text replaced. */
        String maskedLine() {
            if (secret.isEmpty()) {
                return event.raw();
            }
            StringBuilder masked = new StringBuilder(text.length());
            int i = 0;
            while (i < text.length()) {
                if (secret.get(i)) {
                    masked.append(SecretMasker.MASK);
                    i = secret.nextClearBit(i);
                    if (i < 0) {
                        break;
                    }
                } else {
                    masked.append(text.charAt(i++));
                }
            }
            ObjectNode root = event.root().deepCopy();
            ((ObjectNode) root.path("data")).put(stream.field(), masked.toString());
            return root.toString();
        }
    }

    /** Pieces currently held, for tests. */
    int held() {
        return held.size();
    }
}
