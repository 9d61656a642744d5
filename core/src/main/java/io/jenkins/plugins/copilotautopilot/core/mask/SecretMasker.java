package io.jenkins.plugins.copilotautopilot.core.mask;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Replaces secret values with {@value #MASK} in any text: the live log, the journal, the summary,
 * error messages.
 *
 * <p>Each secret is looked for in several spellings: literal, JSON-escaped (up to three levels deep: a tool
 * that prints JSON holding the secret, inside the event's JSON line, escapes a quote or backslash twice),
 * URL-encoded and base64
 * (standard and URL-safe alphabets, at the three possible byte alignments, so that a token inside a
 * longer base64 blob such as {@code user:token} is found too). A secret split across lines — by a
 * real line break or by a JSON {@code \n} escape — is found as well: the search runs over the text
 * with line breaks taken out and maps each hit back onto the original text.
 *
 * <p>Values shorter than {@value #MIN_SECRET_LENGTH} characters are not masked: they are not real
 * credentials and masking them would mangle ordinary output.
 */
public final class SecretMasker {
    public static final String MASK = "****";
    public static final int MIN_SECRET_LENGTH = 4;

    private static final SecretMasker NONE = new SecretMasker(List.of());

    /** Spellings to search for, longest first so that a longer spelling wins over its prefix. */
    private final String[] patterns;
    private final List<String> secrets;

    private SecretMasker(List<String> secrets) {
        this.secrets = List.copyOf(secrets);
        Set<String> spellings = new LinkedHashSet<>();
        for (String secret : secrets) {
            spellings.addAll(SecretSpellings.of(secret));
        }
        List<String> sorted = new ArrayList<>(spellings);
        sorted.removeIf(s -> s.length() < MIN_SECRET_LENGTH);
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        this.patterns = sorted.toArray(new String[0]);
    }

    public static SecretMasker none() {
        return NONE;
    }

    /** A masker for the given values; nulls, blanks and too-short values are ignored. */
    public static SecretMasker of(Collection<String> secretValues) {
        List<String> usable = new ArrayList<>();
        for (String value : secretValues) {
            if (value != null && value.strip().length() >= MIN_SECRET_LENGTH && !usable.contains(value)) {
                usable.add(value);
            }
        }
        return usable.isEmpty() ? NONE : new SecretMasker(usable);
    }

    /** A masker that knows these secrets and also {@code more}. */
    public SecretMasker with(Collection<String> more) {
        List<String> all = new ArrayList<>(secrets);
        all.addAll(more);
        return of(all);
    }

    public boolean isEmpty() {
        return patterns.length == 0;
    }

    /** The text with every secret spelling replaced; the same instance when nothing matched. */
    public String mask(String text) {
        if (text == null || patterns.length == 0 || text.isEmpty()) {
            return text;
        }
        Ranges hits = collect(text);
        return hits == null ? text : hits.replaceIn(text, MASK);
    }

    /** Whether {@link #mask} would change the text. */
    public boolean containsSecret(String text) {
        return text != null && patterns.length > 0 && collect(text) != null;
    }

    /**
     * Where secrets are in {@code text}: sorted, merged {@code [start, end)} character ranges (a secret split
     * by a line break spans the break).
     */
    public List<int[]> find(String text) {
        if (text == null || patterns.length == 0 || text.isEmpty()) {
            return List.of();
        }
        Ranges hits = collect(text);
        return hits == null ? List.of() : hits.merged();
    }

    /** The length of the longest spelling searched for: no secret match spans more characters (line breaks aside). */
    public int longestSpelling() {
        return patterns.length == 0 ? 0 : patterns[0].length();
    }

    /**
     * The length of the longest end of {@code text} that is the beginning of a secret spelling, when it is at
     * least {@code minLength} characters long; else 0. Text cut there may continue with the rest of a secret.
     */
    public int trailingSecretPrefix(String text, int minLength) {
        int best = 0;
        for (String pattern : patterns) {
            int max = Math.min(pattern.length() - 1, text.length());
            for (int len = max; len >= Math.max(minLength, best + 1); len--) {
                if (text.regionMatches(text.length() - len, pattern, 0, len)) {
                    best = len;
                    break;
                }
            }
        }
        return best;
    }

    /**
     * Where {@code text} ends with the beginning of a secret spelling of at least {@code minLength} characters, line
     * breaks not counted (a secret printed over two lines, cut after the first): the {@code [start, end)} range of
     * that beginning, the breaks after it left out; else null. Text cut there may continue with the rest of a secret.
     */
    public int[] trailingSecretPrefixRange(String text, int minLength) {
        if (patterns.length == 0 || text.isEmpty()) {
            return null;
        }
        if (!LineBreaks.containsAny(text)) {
            int len = trailingSecretPrefix(text, minLength);
            return len == 0 ? null : new int[] {text.length() - len, text.length()};
        }
        LineBreaks.Squeezed squeezed = LineBreaks.squeeze(text);
        String flat = squeezed.text();
        int len = trailingSecretPrefix(flat, minLength);
        return len == 0 ? null : new int[] {squeezed.originalStart(flat.length() - len), squeezed.originalEnd(flat.length())};
    }

    private Ranges collect(String text) {
        Ranges hits = null;
        for (String pattern : patterns) {
            int from = 0;
            int at;
            while ((at = text.indexOf(pattern, from)) >= 0) {
                if (hits == null) {
                    hits = new Ranges();
                }
                hits.add(at, at + pattern.length());
                from = at + pattern.length();
            }
        }
        // A secret may also be split by a line break; a break may also be part of a secret's spelling
        // (a backslash before an "n"), so the direct search above always runs as well.
        if (LineBreaks.containsAny(text)) {
            String flat = LineBreaks.flatten(text, false);
            if (containsAnyPattern(flat)) {
                hits = collectSqueezed(LineBreaks.squeeze(text, false), hits);
            }
            // a break right after a secret's escaped backslash: the backslash is the secret's, not the break's (only
            // a run of three or more backslashes before a break keeps any: "\n" and "\\n" are breaks alone)
            if (text.contains("\\\\\\")) {
                String keeping = LineBreaks.flatten(text, true);
                if (!keeping.equals(flat) && containsAnyPattern(keeping)) {
                    hits = collectSqueezed(LineBreaks.squeeze(text, true), hits);
                }
            }
        }
        return hits;
    }

    private boolean containsAnyPattern(String text) {
        for (String pattern : patterns) {
            if (text.contains(pattern)) {
                return true;
            }
        }
        return false;
    }

    private Ranges collectSqueezed(LineBreaks.Squeezed squeezed, Ranges hits) {
        String flat = squeezed.text();
        for (String pattern : patterns) {
            int from = 0;
            int at;
            while ((at = flat.indexOf(pattern, from)) >= 0) {
                if (hits == null) {
                    hits = new Ranges();
                }
                hits.add(squeezed.originalStart(at), squeezed.originalEnd(at + pattern.length()));
                from = at + pattern.length();
            }
        }
        return hits;
    }

    /** The spellings of one secret that may appear in CLI output. */
    static final class SecretSpellings {
        private SecretSpellings() {
        }

        /** JSON escaping levels looked for: a tool may print JSON that holds JSON, inside the event's JSON line. */
        static final int MAX_JSON_DEPTH = 3;

        static Set<String> of(String secret) {
            Set<String> out = new LinkedHashSet<>();
            out.add(secret);
            Set<String> level = new LinkedHashSet<>();
            level.add(JsonEscapes.escape(secret, false));
            level.add(JsonEscapes.escape(secret, true));
            level.add(JsonEscapes.escape(secret, false).replace("/", "\\/"));
            level.add(JsonEscapes.escape(secret, true).replace("/", "\\/"));
            level.add(upperHexEscapes(JsonEscapes.escape(secret, true)));
            out.addAll(level);
            for (int depth = 2; depth <= MAX_JSON_DEPTH; depth++) {
                Set<String> deeper = new LinkedHashSet<>();
                for (String spelling : level) {
                    deeper.add(JsonEscapes.escape(spelling, false));
                    deeper.add(JsonEscapes.escape(spelling, true));
                }
                out.addAll(deeper);
                level = deeper;
            }
            out.add(java.net.URLEncoder.encode(secret, StandardCharsets.UTF_8));
            out.add(java.net.URLEncoder.encode(secret, StandardCharsets.UTF_8).replace("+", "%20"));
            byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
            for (int offset = 0; offset < 3; offset++) {
                String core = base64Core(bytes, offset);
                out.add(core);
                out.add(core.replace('+', '-').replace('/', '_'));
            }
            return out;
        }

        /** {@code \u00f6} → {@code \u00F6}: the other spelling of a unicode escape. */
        private static String upperHexEscapes(String escaped) {
            StringBuilder out = new StringBuilder(escaped.length());
            for (int i = 0; i < escaped.length(); i++) {
                char c = escaped.charAt(i);
                out.append(c);
                if (c == '\\' && i + 1 < escaped.length()) {
                    char next = escaped.charAt(i + 1);
                    if (next == 'u' && i + 5 < escaped.length()) {
                        out.append('u').append(escaped.substring(i + 2, i + 6).toUpperCase(java.util.Locale.ROOT));
                        i += 5;
                    } else {
                        out.append(next);
                        i++;
                    }
                }
            }
            return out.toString();
        }

        /**
         * The base64 characters that depend only on the secret's bytes when the secret starts
         * {@code offset} bytes into the encoded data.
         */
        static String base64Core(byte[] secret, int offset) {
            byte[] data = new byte[offset + secret.length];
            System.arraycopy(secret, 0, data, offset, secret.length);
            String encoded = Base64.getEncoder().withoutPadding().encodeToString(data);
            int start = (offset * 8 + 5) / 6;
            int end = (data.length * 8) / 6;
            return start < end ? encoded.substring(start, end) : "";
        }
    }
}
