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
        char[] flat = new char[text.length()];
        int[] origin = new int[text.length()];
        int n = squeezeInto(text, keepEscapedBackslashes, flat, origin);
        return new Squeezed(new String(flat, 0, n), origin);
    }

    /**
     * Only the text of {@link #squeeze(String, boolean)}, without where its characters came from: what a search
     * needs first. Nearly every event line with text has escaped breaks and almost none holds a secret, so the
     * mapping back (four bytes a character) is made only for a line where a search hit.
     */
    static String flatten(String text, boolean keepEscapedBackslashes) {
        char[] flat = new char[text.length()];
        return new String(flat, 0, squeezeInto(text, keepEscapedBackslashes, flat, null));
    }

    /** Writes the squeezed text into {@code flat} and, unless null, each character's origin; returns its length. */
    private static int squeezeInto(String text, boolean keepEscapedBackslashes, char[] flat, int[] origin) {
        int n = 0;
        int i = 0;
        int length = text.length();
        while (i < length) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                i++;
                continue;
            }
            if (c == '\\') {
                int after = afterBackslashes(text, i);
                int run = after - i;
                boolean breakEscape = after < length && isBreakLetter(text.charAt(after));
                int keep = !breakEscape ? run : keepEscapedBackslashes ? Math.max(0, run - (run % 2 == 1 ? 1 : 2)) : 0;
                for (int k = 0; k < keep; k++) {
                    if (origin != null) {
                        origin[n] = i + k;
                    }
                    flat[n++] = '\\';
                }
                i = breakEscape ? after + 1 : after;
                continue;
            }
            int end = i + 1; // a run of ordinary characters, copied at once
            while (end < length && !isSpecial(text.charAt(end))) {
                end++;
            }
            text.getChars(i, end, flat, n);
            if (origin != null) {
                for (int k = i; k < end; k++) {
                    origin[n++] = k;
                }
            } else {
                n += end - i;
            }
            i = end;
        }
        return n;
    }

    private static int afterBackslashes(String text, int at) {
        int i = at;
        while (i < text.length() && text.charAt(i) == '\\') {
            i++;
        }
        return i;
    }

    private static boolean isSpecial(char c) {
        return c == '\\' || c == '\n' || c == '\r';
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
