package io.jenkins.plugins.copilotautopilot.core.mask;

/** How a string looks inside a JSON string literal, as the CLI's serializer may write it. */
final class JsonEscapes {
    private JsonEscapes() {
    }

    /**
     * @param escapeNonAscii also write every non-ASCII character as {@code \\uXXXX}
     */
    static String escape(String value, boolean escapeNonAscii) {
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || (escapeNonAscii && c > 0x7e)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
