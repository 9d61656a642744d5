package io.jenkins.plugins.copilotautopilot.core.events;

import com.fasterxml.jackson.core.StreamReadConstraints;
import java.util.Arrays;

/**
 * A strict, allocation-light JSON validator for one event line (RFC 8259, one object, nothing after it), which
 * on the way notes the top-level {@code type}, {@code ephemeral} and {@code timestamp} and where the plain
 * fields of {@code data} are. Most event lines are streaming noise that only needs to be validated and
 * recorded; building a tree for each of them was the pipeline's hot spot. Trees are still built, lazily, for
 * the events the tracker follows, so a line must be an event exactly when Jackson can read it: the scanner
 * also applies Jackson's read limits (nesting depth, number, name and string lengths) and reads escaped keys
 * as Jackson does. Checked against Jackson by a randomized test. (One Jackson streaming pass instead was
 * measured 20-30 % slower, behind the Node.js peer of the benchmark.) Long because a hand-written scanner is: one
 * method per JSON production, kept together for the randomized comparison with Jackson.
 */
final class JsonLineScanner {
    private static final StreamReadConstraints LIMITS = EventParser.mapper().getFactory().streamReadConstraints();
    /** Jackson's limits: nesting depth, digits of a number, characters of a name and of a string. */
    static final int MAX_DEPTH = LIMITS.getMaxNestingDepth();
    private static final int MAX_NUMBER = LIMITS.getMaxNumberLength();
    private static final int MAX_NAME = LIMITS.getMaxNameLength();
    private static final int MAX_STRING = LIMITS.getMaxStringLength();
    private static final int TOP = 0;
    private static final int DATA = 1;
    private static final int OTHER = 2;

    private String s;
    private int n;
    private String type;
    private boolean ephemeral;
    private String timestamp;
    private boolean subAgent;
    /** The event's {@code id} when it is a string, else null; {@link #idNotText} when it is there but not a string. */
    private String id;
    private boolean idNotText;
    /** Per plain field of {@code data}: name start, name end, value start, value end (strings: inside the quotes), string? */
    private int[] spans = new int[40];
    private int fields;
    /** Whether the string {@link #string} last read had an escape. */
    private boolean escaped;

    /** Scans a line; returns the event, or null when the line is not a valid JSON object with a string type. */
    CliEvent scan(String line) {
        s = line;
        n = line.length();
        type = null;
        ephemeral = false;
        timestamp = null;
        subAgent = false;
        id = null;
        idNotText = false;
        fields = 0;
        int i = ws(0);
        if (i >= n || s.charAt(i) != '{') {
            return null;
        }
        i = object(i, 1, TOP);
        if (i < 0 || ws(i) != n || type == null) {
            return null;
        }
        return new CliEvent(type, line, ephemeral, timestamp, subAgent, id, idNotText,
                fields == 0 ? DataTexts.NONE : new DataTexts(line, Arrays.copyOf(spans, fields * 5), fields));
    }

    private void note(int nameStart, int nameEnd, int valueStart, int valueEnd, boolean string) {
        int at = fields * 5;
        if (at + 5 > spans.length) {
            spans = Arrays.copyOf(spans, spans.length * 2);
        }
        spans[at] = nameStart;
        spans[at + 1] = nameEnd;
        spans[at + 2] = valueStart;
        spans[at + 3] = valueEnd;
        spans[at + 4] = string ? 1 : 0;
        fields++;
    }

    /** Index just after the value at {@code i}, or -1. */
    private int value(int i, int depth) {
        char c = s.charAt(i);
        switch (c) {
            case '"':
                return string(i);
            case '{':
                return object(i, depth + 1, OTHER);
            case '[':
                return array(i, depth + 1);
            case 't':
                return literal(i, "true");
            case 'f':
                return literal(i, "false");
            case 'n':
                return literal(i, "null");
            default:
                return c == '-' || (c >= '0' && c <= '9') ? number(i) : -1;
        }
    }

    /**
     * Index just after the object at {@code i}, or -1. The event object itself ({@code TOP}) and its {@code data}
     * object ({@code DATA}) note what the event needs on the way; deeper objects are only validated.
     */
    private int object(int i, int depth, int role) {
        if (depth > MAX_DEPTH) {
            return -1;
        }
        i = ws(i + 1);
        if (i < n && s.charAt(i) == '}') {
            return i + 1;
        }
        while (true) {
            if (i >= n || s.charAt(i) != '"') {
                return -1;
            }
            int nameStart = i + 1;
            i = string(i);
            if (i < 0) {
                return -1;
            }
            int nameEnd = i - 1;
            boolean escapedName = escaped;
            if (nameEnd - nameStart > MAX_NAME && !jacksonReads("{" + s.substring(nameStart - 1, nameEnd + 1) + ":0}")) {
                return -1;
            }
            i = ws(i);
            if (i >= n || s.charAt(i) != ':') {
                return -1;
            }
            i = ws(i + 1);
            if (i >= n) {
                return -1;
            }
            char c = s.charAt(i);
            int valueStart = i;
            boolean data = role == TOP && is(nameStart, nameEnd, escapedName, "data");
            if (data) {
                fields = 0; // the last "data" counts, as in a tree
            }
            if (data && c == '{') {
                i = object(i, depth + 1, DATA);
            } else {
                i = value(i, depth);
            }
            if (i < 0) {
                return -1;
            }
            if (role == TOP) {
                noteTop(nameStart, nameEnd, escapedName, c, valueStart, i);
            } else if (role == DATA && c != '{' && c != '[' && c != 'n') {
                note(nameStart, nameEnd, c == '"' ? valueStart + 1 : valueStart, c == '"' ? i - 1 : i, c == '"');
            }
            i = ws(i);
            if (i >= n) {
                return -1;
            }
            char next = s.charAt(i);
            if (next == '}') {
                return i + 1;
            }
            if (next != ',') {
                return -1;
            }
            i = ws(i + 1);
        }
    }

    /** A member of the event object: {@code type}, {@code ephemeral}, {@code timestamp}, {@code agentId} and {@code id} matter. */
    private void noteTop(int nameStart, int nameEnd, boolean escapedName, char first, int valueStart, int valueEnd) {
        if (is(nameStart, nameEnd, escapedName, "type")) {
            type = first == '"' ? decode(s, valueStart + 1, valueEnd - 1) : null;
        } else if (is(nameStart, nameEnd, escapedName, "ephemeral")) {
            ephemeral = first == 't';
        } else if (is(nameStart, nameEnd, escapedName, "timestamp")) {
            timestamp = first == '"' ? decode(s, valueStart + 1, valueEnd - 1) : null;
        } else if (is(nameStart, nameEnd, escapedName, "agentId")) {
            subAgent = first != 'n';
        } else if (is(nameStart, nameEnd, escapedName, "id")) {
            id = first == '"' ? decode(s, valueStart + 1, valueEnd - 1) : null;
            idNotText = first != '"';
        }
    }

    private int array(int i, int depth) {
        if (depth > MAX_DEPTH) {
            return -1;
        }
        i = ws(i + 1);
        if (i < n && s.charAt(i) == ']') {
            return i + 1;
        }
        while (true) {
            if (i >= n) {
                return -1;
            }
            i = value(i, depth);
            if (i < 0) {
                return -1;
            }
            i = ws(i);
            if (i >= n) {
                return -1;
            }
            char next = s.charAt(i);
            if (next == ']') {
                return i + 1;
            }
            if (next != ',') {
                return -1;
            }
            i = ws(i + 1);
        }
    }

    /** {@code i} is at the opening quote; returns the index after the closing quote, or -1. */
    private int string(int i) {
        int start = ++i;
        escaped = false;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '"') {
                return i - start > MAX_STRING && !jacksonReads("[" + s.substring(start - 1, i + 1) + "]") ? -1 : i + 1;
            }
            if (c == '\\') {
                escaped = true;
                if (i + 1 >= n) {
                    return -1;
                }
                char e = s.charAt(i + 1);
                if (e == 'u') {
                    if (i + 5 >= n || !hex(s.charAt(i + 2)) || !hex(s.charAt(i + 3)) || !hex(s.charAt(i + 4)) || !hex(s.charAt(i + 5))) {
                        return -1;
                    }
                    i += 6;
                    continue;
                }
                if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') {
                    return -1;
                }
                i += 2;
                continue;
            }
            if (c < 0x20) {
                return -1;
            }
            i++;
        }
        return -1;
    }

    private int number(int i) {
        int start = i;
        if (s.charAt(i) == '-') {
            i++;
        }
        if (i >= n) {
            return -1;
        }
        char c = s.charAt(i);
        if (c == '0') {
            i++;
        } else if (c >= '1' && c <= '9') {
            i = digits(i);
        } else {
            return -1;
        }
        if (i < n && s.charAt(i) == '.') {
            int after = digits(i + 1);
            if (after == i + 1) {
                return -1;
            }
            i = after;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int after = digits(i);
            if (after == i) {
                return -1;
            }
            i = after;
        }
        if (i < n && isTokenChar(s.charAt(i))) {
            return -1; // e.g. "01", "1x"
        }
        // Jackson counts some of the characters of a number (and of a name or string) against its limit, never more
        // than all of them: only a longer one needs Jackson's own answer
        return i - start > MAX_NUMBER && !jacksonReads("[" + s.substring(start, i) + "]") ? -1 : i;
    }

    /** Whether Jackson reads {@code json} into a tree: for the rare value near its limits, its own answer. */
    private static boolean jacksonReads(String json) {
        try {
            EventParser.mapper().readTree(json);
            return true;
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean isTokenChar(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '-' || c == '+' || c == '_';
    }

    private int digits(int i) {
        while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        return i;
    }

    private int literal(int i, String word) {
        if (!s.startsWith(word, i)) {
            return -1;
        }
        int end = i + word.length();
        return end < n && isTokenChar(s.charAt(end)) ? -1 : end;
    }

    private int ws(int i) {
        while (i < n) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return i;
            }
            i++;
        }
        return i;
    }

    /** Whether the name in s[start, end) is {@code name}, escapes resolved ({@code "\\u0074ype"} is {@code type}). */
    private boolean is(int start, int end, boolean escapedName, String name) {
        if (escapedName) {
            return decode(s, start, end).equals(name);
        }
        return end - start == name.length() && s.startsWith(name, start);
    }

    private static boolean hex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** The text of a validated string's inside, escapes resolved. */
    static String decode(String s, int start, int end) {
        if (!hasBackslash(s, start, end)) {
            return s.substring(start, end);
        }
        StringBuilder out = new StringBuilder(end - start);
        int i = start;
        while (i < end) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                i++;
                continue;
            }
            char e = s.charAt(i + 1);
            switch (e) {
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    out.append((char) Integer.parseInt(s, i + 2, i + 6, 16));
                    i += 4;
                }
                default -> out.append(e);
            }
            i += 2;
        }
        return out.toString();
    }

    private static boolean hasBackslash(String s, int start, int end) {
        for (int i = start; i < end; i++) {
            if (s.charAt(i) == '\\') {
                return true;
            }
        }
        return false;
    }

    /** The plain fields of {@code data}, decoded when first asked for. */
    static final class DataTexts {
        static final DataTexts NONE = new DataTexts("", new int[0], 0);

        private final String line;
        private final int[] spans;
        private final int fields;

        DataTexts(String line, int[] spans, int fields) {
            this.line = line;
            this.spans = spans;
            this.fields = fields;
        }

        String get(String name) {
            String found = null;
            for (int f = 0; f < fields; f++) {
                int at = f * 5;
                int nameStart = spans[at];
                int nameEnd = spans[at + 1];
                String key = hasBackslash(line, nameStart, nameEnd) ? decode(line, nameStart, nameEnd) : null;
                boolean match = key != null ? key.equals(name)
                        : nameEnd - nameStart == name.length() && line.startsWith(name, nameStart);
                if (match) {
                    found = spans[at + 4] == 1 ? decode(line, spans[at + 2], spans[at + 3]) : line.substring(spans[at + 2], spans[at + 3]);
                }
            }
            return found;
        }
    }
}
