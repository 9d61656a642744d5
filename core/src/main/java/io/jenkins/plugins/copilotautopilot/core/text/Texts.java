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

    public static boolean isBlank(String text) {
        return text == null || text.isBlank();
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
