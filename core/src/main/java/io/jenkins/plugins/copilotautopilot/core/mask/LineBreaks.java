package io.jenkins.plugins.copilotautopilot.core.mask;

/**
 * Line breaks that may split a secret: real ones ({@code \n}, {@code \r}) and their JSON escapes at any
 * depth, a run of backslashes before {@code n} or {@code r} ({@code \\n} inside a raw event line, {@code \\\\n}
 * when a tool printed JSON there). Taking out a run that was an escaped backslash before a plain letter only
 * lets the search see a secret split around it; the direct search still runs on the text as it is.
 */
final class LineBreaks {
    private LineBreaks() {
    }

    static boolean containsAny(String text) {
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            return true;
        }
        int at = text.indexOf('\\');
        while (at >= 0) {
            int after = afterBackslashes(text, at);
            if (after < text.length() && isBreakLetter(text.charAt(after))) {
                return true;
            }
            at = text.indexOf('\\', after);
        }
        return false;
    }

    /** The text without line breaks, and where each remaining character came from. */
    static Squeezed squeeze(String text) {
        StringBuilder flat = new StringBuilder(text.length());
        int[] origin = new int[text.length()];
        int n = 0;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                i++;
                continue;
            }
            if (c == '\\') {
                int after = afterBackslashes(text, i);
                if (after < text.length() && isBreakLetter(text.charAt(after))) {
                    i = after + 1;
                    continue;
                }
                for (; i < after; i++) {
                    flat.append('\\');
                    origin[n++] = i;
                }
                continue;
            }
            flat.append(c);
            origin[n++] = i;
            i++;
        }
        return new Squeezed(flat.toString(), origin);
    }

    private static int afterBackslashes(String text, int at) {
        int i = at;
        while (i < text.length() && text.charAt(i) == '\\') {
            i++;
        }
        return i;
    }

    private static boolean isBreakLetter(char c) {
        return c == 'n' || c == 'r';
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
