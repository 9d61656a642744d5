package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.Messages;

/** How a session's record keeps text in {@code build.xml}: bounded, the journal keeping the whole of it. */
final class RecordTexts {
    /** The longest summary, reason or other text kept in {@code build.xml}, in characters. */
    static final int MAX_TEXT = 10_000;

    private RecordTexts() {
    }

    /**
     * The text, or its first {@value #MAX_TEXT} characters followed by a note of how many were cut (never
     * splitting a surrogate pair).
     */
    static String cut(String text) {
        if (text == null || text.length() <= MAX_TEXT) {
            return text;
        }
        int end = MAX_TEXT;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + Messages.SessionRecord_Cut(text.length() - end);
    }
}
