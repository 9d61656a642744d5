package io.jenkins.plugins.copilotautopilot.core.outcome;

import java.util.Locale;

/** What an INCOMPLETE (or a BLOCKED) outcome makes of a build; the other outcomes are fixed. */
public enum ResultWhenIncomplete {
    FAILURE, UNSTABLE, SUCCESS;

    /** Parses a user's value (any case); null or blank gives the default, FAILURE. */
    public static ResultWhenIncomplete parse(String value) {
        return parse(value, "resultWhenIncomplete", FAILURE);
    }

    /** Parses the value of {@code setting} (any case); null or blank gives {@code otherwise}. */
    public static ResultWhenIncomplete parse(String value, String setting, ResultWhenIncomplete otherwise) {
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(setting + " must be FAILURE, UNSTABLE or SUCCESS; was '" + value + "'.");
        }
    }
}
