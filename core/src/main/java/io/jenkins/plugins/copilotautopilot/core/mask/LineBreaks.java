package io.jenkins.plugins.copilotautopilot.core.mask;

/**
 * Line breaks that may split a secret: real ones ({@code \n}, {@code \r}) and the two-character JSON
 * escapes ({@code \\n}, {@code \\r}) under which they appear inside a raw event line.
 */
final class LineBreaks {
    private LineBreaks() {
    }

    static boolean containsAny(String text) {
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            return true;
        }
        int at = text.indexOf('\\');
        while (at >= 0 && at + 1 < text.length()) {
            char next = text.charAt(at + 1);
            if (next == 'n' || next == 'r') {
                return true;
            }
            at = text.indexOf('\\', at + 2);
        }
        return false;
    }

    /** The text without line breaks, and where each remaining character came from. */
    static Squeezed squeeze(String text) {
        StringBuilder flat = new StringBuilder(text.length());
        int[] origin = new int[text.length()];
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                continue;
            }
            if (c == '\\' && i + 1 < text.length()) {
                char next = text.charAt(i + 1);
                if (next == 'n' || next == 'r') {
                    i++;
                    continue;
                }
            }
            flat.append(c);
            origin[n++] = i;
        }
        return new Squeezed(flat.toString(), origin);
    }

    record Squeezed(String text, int[] origin) {
        int originalStart(int flatIndex) {
            return origin[flatIndex];
        }

        int originalEnd(int flatEndExclusive) {
            return origin[flatEndExclusive - 1] + 1;
        }
    }
}
