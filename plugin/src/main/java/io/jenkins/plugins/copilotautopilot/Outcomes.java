package io.jenkins.plugins.copilotautopilot;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import java.util.List;
import java.util.Locale;

/** How outcomes look in the UI: icons (ionicons symbols) and CSS classes derived from the outcome name only. */
final class Outcomes {
    static final String ACTION_ICON = "symbol-sparkles-outline plugin-ionicons-api";

    private Outcomes() {
    }

    /** The worst of the given outcome names, or null for none. */
    static String worst(List<String> outcomes) {
        Outcome worst = Outcome.worst(outcomes.stream().map(Outcome::valueOf).toList());
        return worst == null ? null : worst.name();
    }

    static String icon(String outcome) {
        if (outcome == null) {
            return ACTION_ICON;
        }
        return switch (Outcome.valueOf(outcome)) {
            case COMPLETED -> "symbol-checkmark-circle-outline plugin-ionicons-api";
            case INCOMPLETE -> "symbol-alert-circle-outline plugin-ionicons-api";
            case ABORTED -> "symbol-stop-circle-outline plugin-ionicons-api";
            case FAILED, TIMED_OUT, STALLED -> "symbol-close-circle-outline plugin-ionicons-api";
        };
    }

    /** {@code copilot-outcome-timed-out}, made from the enum name only (never from user text). */
    static String cssClass(String outcome) {
        return "copilot-outcome-" + Outcome.valueOf(outcome).name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
