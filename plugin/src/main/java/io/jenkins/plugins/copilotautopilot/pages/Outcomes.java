package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.BuildVerdict;
import io.jenkins.plugins.copilotautopilot.core.outcome.ResultWhenIncomplete;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;

import edu.umd.cs.findbugs.annotations.CheckForNull;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How outcomes look in the UI: icons (ionicons symbols) and CSS classes derived from the outcome name only.
 * Outcomes are stored as names in {@code build.xml}; a name this version does not know (renamed, or from a newer
 * version) or a missing one gets a neutral look and never breaks a page.
 */
public final class Outcomes {
    public static final String ACTION_ICON = "symbol-sparkles-outline plugin-ionicons-api";
    /** The badge while a session runs. */
    static final String RUNNING_ICON = "symbol-play-circle-outline plugin-ionicons-api";
    static final String UNKNOWN_CLASS = "copilot-outcome-unknown";

    private Outcomes() {
    }

    /** The outcome with this name, or null for null and for names this version does not know. */
    @CheckForNull
    /** What the outcome makes of the build, with the settings the session ran with (null: none known, FAILURE for INCOMPLETE). */
    public static BuildVerdict verdict(SessionResult result, SessionPlan plan) {
        return verdict(result.outcome(), plan);
    }

    /** What {@code outcome} makes of the build, with the settings the session ran with (null: none known). */
    public static BuildVerdict verdict(Outcome outcome, SessionPlan plan) {
        ResultWhenIncomplete whenIncomplete = plan == null ? ResultWhenIncomplete.FAILURE
                : ResultWhenIncomplete.parse(plan.get(SessionSettings.RESULT_WHEN_INCOMPLETE));
        ResultWhenIncomplete whenBlocked = plan == null ? whenIncomplete : ResultWhenIncomplete.parse(plan.resultWhenBlocked());
        return BuildVerdict.of(outcome, whenIncomplete, whenBlocked);
    }

    public static Outcome parse(@CheckForNull String name) {
        if (name == null) {
            return null;
        }
        try {
            return Outcome.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The worst of the given outcome names; unknown names count only when there is no known one (then the first
     * of them is returned as it is). Null for none.
     */
    @CheckForNull
    public static String worst(List<String> outcomes) {
        Outcome worst = Outcome.worst(outcomes.stream().map(Outcomes::parse).filter(Objects::nonNull).toList());
        if (worst != null) {
            return worst.name();
        }
        return outcomes.stream().filter(Objects::nonNull).findFirst().orElse(null);
    }

    static String icon(@CheckForNull String outcome) {
        Outcome known = parse(outcome);
        if (known == null) {
            return ACTION_ICON;
        }
        return switch (known) {
            case COMPLETED -> "symbol-checkmark-circle-outline plugin-ionicons-api";
            case INCOMPLETE, NOT_VERIFIED, OUTPUT_INVALID -> "symbol-alert-circle-outline plugin-ionicons-api";
            case BLOCKED -> "symbol-hand-left-outline plugin-ionicons-api";
            case ABORTED -> "symbol-stop-circle-outline plugin-ionicons-api";
            case FAILED, TIMED_OUT, STALLED, OVER_BUDGET -> "symbol-close-circle-outline plugin-ionicons-api";
        };
    }

    /** {@code copilot-outcome-timed-out}, made from the enum name only (never from stored or user text). */
    static String cssClass(@CheckForNull String outcome) {
        Outcome known = parse(outcome);
        return known == null ? UNKNOWN_CLASS : "copilot-outcome-" + known.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
