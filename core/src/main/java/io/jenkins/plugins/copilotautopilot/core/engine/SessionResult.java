package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.output.Finding;
import io.jenkins.plugins.copilotautopilot.core.result.Activity;
import io.jenkins.plugins.copilotautopilot.core.result.Answer;
import io.jenkins.plugins.copilotautopilot.core.result.Changes;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import io.jenkins.plugins.copilotautopilot.core.result.ModelUsage;
import io.jenkins.plugins.copilotautopilot.core.result.Verification;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a finished run reports, made of its parts' records: how it ended, what the agent did, what the model calls used,
 * what changed, the acceptance check, the answer, and what the log warned of. All text is already masked. Each part maps
 * itself into {@link #toMap()} (the Pipeline step's return value and the journal's closing record).
 *
 * @param warnings what the log warned of that the result should carry too (a budget that could not be enforced, say),
 *                 one line each
 */
public record SessionResult(Ending ending, Activity activity, ModelUsage usage, Changes changes, Verification verification,
                            Answer answer, List<String> warnings) {

    public SessionResult {
        activity = activity == null ? Activity.NONE : activity;
        usage = usage == null ? ModelUsage.NONE : usage;
        changes = changes == null ? Changes.NONE : changes;
        verification = verification == null ? Verification.NONE : verification;
        answer = answer == null ? Answer.NONE : answer;
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /** A result that says only how the session ended. */
    public SessionResult(Ending ending) {
        this(ending, null, null, null, null, null, null);
    }

    public Outcome outcome() {
        return ending.outcome();
    }

    public String reason() {
        return ending.reason();
    }

    public String summary() {
        return ending.summary();
    }

    public boolean completed() {
        return ending.outcome() == Outcome.COMPLETED;
    }

    /** This result with other findings (the same held to the workspace, say). */
    public SessionResult withFindings(List<Finding> heldFindings) {
        return new SessionResult(ending, activity, usage, changes, verification, answer.withFindings(heldFindings), warnings);
    }

    /**
     * The result as a map of plain JDK values (String, Boolean, Integer, Long, Double, lists and maps of them, or
     * null), e.g. for a Jenkins Pipeline step's return value.
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        ending.putInto(map);
        activity.putInto(map);
        verification.putInto(map);
        usage.putInto(map);
        changes.putInto(map);
        map.put("warnings", new ArrayList<>(warnings));
        answer.putInto(map);
        return map;
    }
}
