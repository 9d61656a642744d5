package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import java.io.Serializable;
import java.time.Duration;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * How a session ended, as a build keeps it in {@code build.xml} ({@link Ending}): the outcome by name (a record of
 * another version may hold one this version does not know: see {@link Outcomes#parse}), the reason, the agent's summary
 * and blocker (cut at {@value RecordTexts#MAX_TEXT} characters), why the service refused it, and the process's end.
 */
@ExportedBean(defaultVisibility = 4)
public final class EndingRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String outcome;
    private final String reason;
    /** The agent's summary: agent text, for the readers {@link CopilotAutopilotRunAction#getSessions()} says. */
    private final String summary;
    /** What the agent said blocks it (a BLOCKED session), or null; agent text like the summary. */
    private final String blocker;
    private final FailureRecord failure;
    private final Integer exitCode;
    private final long durationMillis;
    private final String sessionId;
    private final String model;

    EndingRecord(Ending e) {
        this(e.outcome().name(), RecordTexts.cut(e.reason()), RecordTexts.cut(e.summary()), RecordTexts.cut(e.blocker()),
                e.failure() == null ? null : new FailureRecord(e.failure()), e.exitCode(), e.durationMillis(), e.sessionId(),
                e.model());
    }

    /** As a version before the parts saved it ({@link FlatSessionRecord}): what that form lacks is null or 0. */
    static EndingRecord flat(String outcome, String reason, String summary, String blocker, FailureRecord failure, Integer exitCode,
                             long durationMillis, String sessionId, String model) {
        return new EndingRecord(outcome, reason, summary, blocker, failure, exitCode, durationMillis, sessionId, model);
    }

    private EndingRecord(String outcome, String reason, String summary, String blocker, FailureRecord failure, Integer exitCode,
                         long durationMillis, String sessionId, String model) {
        this.outcome = outcome;
        this.reason = reason;
        this.summary = summary;
        this.blocker = blocker;
        this.failure = failure;
        this.exitCode = exitCode;
        this.durationMillis = durationMillis;
        this.sessionId = sessionId;
        this.model = model;
    }

    /** Without what the agent wrote: its summary and blocker. */
    EndingRecord withoutAgentText() {
        return new EndingRecord(outcome, reason, null, null, failure, exitCode, durationMillis, sessionId, model);
    }

    /** COMPLETED, INCOMPLETE, FAILED, TIMED_OUT, STALLED, ABORTED... as stored, or null in a damaged record. */
    @Exported
    public String getOutcome() {
        return outcome;
    }

    @Exported
    public String getReason() {
        return reason;
    }

    /** The agent's summary, or null (none, or not for this reader). */
    @Exported
    public String getSummary() {
        return summary;
    }

    @Exported
    public String getBlocker() {
        return blocker;
    }

    /** Why GitHub's service refused the session (a rate limit, a used-up quota, a refused token…), or null. */
    @Exported
    public FailureRecord getFailure() {
        return failure;
    }

    /** The CLI's exit code, or null when it never exited by itself. */
    @Exported
    public Integer getExitCode() {
        return exitCode;
    }

    @Exported
    public long getDurationMillis() {
        return durationMillis;
    }

    @Exported
    public String getSessionId() {
        return sessionId;
    }

    @Exported
    public String getModel() {
        return model;
    }

    /** CSS class for the outcome (derived from the outcome name only). */
    public String getOutcomeClass() {
        return Outcomes.cssClass(outcome);
    }

    public String getDurationText() {
        return Durations.describe(Duration.ofMillis(durationMillis));
    }

    /** What the session came to in the agent's words or the reason: the blocker, else the summary, else the reason. */
    public String getGist() {
        return blocker != null ? blocker : summary != null ? summary : reason;
    }
}
