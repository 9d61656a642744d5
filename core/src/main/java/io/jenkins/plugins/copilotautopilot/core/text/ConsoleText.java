package io.jenkins.plugins.copilotautopilot.core.text;

/**
 * Makes untrusted text (agent messages, tool output, CLI output) safe to print on a terminal or in a
 * build log: ANSI escape sequences are removed, other control characters and bidirectional overrides
 * become U+FFFD. Line feeds and tabs stay.
 */
public final class ConsoleText {
    private static final char ESC = 0x1b;
    private static final char REPLACEMENT = '\uFFFD';

    private ConsoleText() {
    }

    public static String clean(String text) {
        if (text == null) {
            return null;
        }
        if (isClean(text)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ESC) {
                i = skipEscape(text, i);
                continue;
            }
            out.append(isUnsafe(c) ? REPLACEMENT : c);
            i++;
        }
        return out.toString();
    }

    private static boolean isClean(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ESC || isUnsafe(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isUnsafe(char c) {
        if (c < 0x20) {
            return c != '\n' && c != '\t';
        }
        return c == 0x7f || (c >= 0x80 && c <= 0x9f) // C1 controls (incl. the 8-bit CSI)
                || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069); // bidi overrides
    }

    /** Index just after the escape sequence that starts at {@code at}. */
    private static int skipEscape(String text, int at) {
        int i = at + 1;
        if (i >= text.length()) {
            return i;
        }
        char kind = text.charAt(i);
        if (kind == '[') { // CSI: parameters and intermediates, then one final byte 0x40-0x7e
            i++;
            while (i < text.length()) {
                char c = text.charAt(i++);
                if (c >= 0x40 && c <= 0x7e) {
                    break;
                }
            }
            return i;
        }
        if (kind == ']' || kind == 'P' || kind == '_' || kind == '^') { // OSC/DCS/APC/PM: until BEL or ESC \
            i++;
            while (i < text.length()) {
                char c = text.charAt(i);
                if (c == 0x07) {
                    return i + 1;
                }
                if (c == ESC && i + 1 < text.length() && text.charAt(i + 1) == '\\') {
                    return i + 2;
                }
                i++;
            }
            return i;
        }
        return i + 1; // two-character escape
    }
}
