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

    /**
     * The text without line breaks, and where each remaining character came from. A run of backslashes before an
     * {@code n} or {@code r} goes as a whole (a break escaped at some depth).
     */
    static Squeezed squeeze(String text) {
        return squeeze(text, false);
    }

    /**
     * Like {@link #squeeze(String)}; with {@code keepEscapedBackslashes}, of such a run only the break's own escape
     * goes (one backslash of an odd run, two of an even one) and the backslashes before it stay: escaped backslashes,
     * which a secret may hold right before a break.
     */
    static Squeezed squeeze(String text, boolean keepEscapedBackslashes) {
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
                int run = after - i;
                boolean breakEscape = after < text.length() && isBreakLetter(text.charAt(after));
                int keep = !breakEscape ? run : keepEscapedBackslashes ? Math.max(0, run - (run % 2 == 1 ? 1 : 2)) : 0;
                for (int k = 0; k < keep; k++) {
                    flat.append('\\');
                    origin[n++] = i + k;
                }
                i = breakEscape ? after + 1 : after;
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
