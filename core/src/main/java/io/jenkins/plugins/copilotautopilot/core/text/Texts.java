package io.jenkins.plugins.copilotautopilot.core.text;

/** Small text helpers shared by the tracker and the renderers. */
public final class Texts {
    private Texts() {
    }

    /** At most {@code max} characters; a cut is marked with an ellipsis. */
    public static String truncate(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int cut = max - 1;
        if (cut > 0 && Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--;
        }
        return text.substring(0, Math.max(cut, 0)) + "…";
    }

    /** Line breaks and tabs become single spaces, runs of whitespace collapse. */
    public static String oneLine(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
                space = true;
            } else {
                if (space && out.length() > 0) {
                    out.append(' ');
                }
                space = false;
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Whether the text shows nothing: null, empty, or only whitespace (also U+00A0, U+2007, U+202F, U+3000),
     * control characters (NUL, ESC, C1), format characters (U+200B, U+FEFF, bidi marks, U+00AD), fillers
     * and variation selectors, unassigned code points and lone surrogates.
     */
    public static boolean isBlank(String text) {
        if (text == null) {
            return true;
        }
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (!isInvisible(c)) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }

    private static boolean isInvisible(int c) {
        if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
            return true;
        }
        switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.UNASSIGNED:
                return true;
            default:
                break;
        }
        // default-ignorable letters and marks that render as nothing: Hangul fillers, variation selectors,
        // the Mongolian vowel separator, the combining grapheme joiner, the Braille blank
        return c == 0x034F || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 || (c >= 0x180B && c <= 0x180F)
                || c == 0x2800 || c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFFA0
                || (c >= 0xE0000 && c <= 0xE0FFF);
    }

    /** Line breaks become spaces; everything else stays. */
    public static String singleLine(String text) {
        if (text == null || (text.indexOf('\n') < 0 && text.indexOf('\r') < 0)) {
            return text;
        }
        return text.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
    }

    /** {@code 3.0} → {@code 3}, {@code 1.25} → {@code 1.25}. */
    public static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return String.valueOf((long) value);
        }
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /**
     * AI credits as the log and the pages write them: thousands separated, at most two decimals (a credit is a cent),
     * and an amount too small to show as {@code <0.01} rather than 0.
     */
    public static String credits(double credits) {
        java.math.BigDecimal rounded = java.math.BigDecimal.valueOf(credits).setScale(2, java.math.RoundingMode.HALF_UP);
        if (rounded.signum() == 0 && credits > 0) {
            return "<0.01";
        }
        return new java.text.DecimalFormat("#,##0.##", java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT)).format(rounded);
    }

    /** The non-blank entries, stripped, in a new (mutable) list; null gives an empty list. */
    public static java.util.List<String> nonBlank(java.util.List<String> entries) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (entries != null) {
            for (String entry : entries) {
                if (entry != null && !entry.isBlank()) {
                    out.add(entry.strip());
                }
            }
        }
        return out;
    }

    /** {@code 1536} → {@code 1.5 KB}, {@code 197462848} → {@code 188.3 MB}. */
    public static String bytes(long count) {
        if (count < 1024) {
            return count + " B";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double value = count;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(java.util.Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
