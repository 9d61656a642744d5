package io.jenkins.plugins.copilotautopilot.core.outcome;

import java.util.Locale;

/** What an INCOMPLETE outcome makes of a build; the other outcomes are fixed. */
public enum ResultWhenIncomplete {
    FAILURE, UNSTABLE, SUCCESS;

    /** Parses a user's value (any case); null or blank gives the default, FAILURE. */
    public static ResultWhenIncomplete parse(String value) {
        if (value == null || value.isBlank()) {
            return FAILURE;
        }
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("resultWhenIncomplete must be FAILURE, UNSTABLE or SUCCESS; was '" + value + "'.");
        }
    }
}
