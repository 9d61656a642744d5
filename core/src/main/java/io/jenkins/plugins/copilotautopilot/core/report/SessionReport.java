package io.jenkins.plugins.copilotautopilot.core.report;

import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import java.time.Instant;
import java.util.List;

/**
 * What one step invocation did, for people: built from its journal by {@link SessionReportReader}, shown on the
 * build's session page and drawn by {@link TimelineSvg}. All text is masked already (the journal is) but not
 * escaped: renderers escape.
 *
 * @param prompt           the task (bounded)
 * @param model            the model, when known
 * @param cliVersion       the CLI version, when known
 * @param startedAt        when the run started (our clock), or null
 * @param endedAt          when the run ended (our clock), or null
 * @param outcome          COMPLETED, INCOMPLETE, FAILED, TIMED_OUT, STALLED or ABORTED; null when the journal has no end record
 * @param reason           the outcome's reason
 * @param summary          the agent's summary, or null
 * @param durationMillis   wall-clock duration of the run, or -1
 * @param turns            the turns (bounded in number)
 * @param omittedTurns     turns not kept in detail because of the bound
 * @param totals           the numbers
 * @param changes          what the agent changed in the git work tree, or null when not recorded
 * @param approvals        the calls that waited for a person, and what became of them
 * @param label            the step's label, or null
 * @param failure          why the service refused the session, or null (also in reports kept before it was recorded)
 */
public record SessionReport(String prompt, String model, String cliVersion, Instant startedAt, Instant endedAt,
                            String outcome, String reason, String summary, long durationMillis, List<TurnReport> turns,
                            int omittedTurns, Totals totals, WorkTreeChanges changes, List<ApprovalReport> approvals,
                            String label, ServiceFailure failure)
        implements java.io.Serializable {
    public SessionReport {
        approvals = approvals == null ? List.of() : approvals; // a report kept before approvals were recorded
    }

    /** A report of a session without a service failure. */
    public SessionReport(String prompt, String model, String cliVersion, Instant startedAt, Instant endedAt,
                         String outcome, String reason, String summary, long durationMillis, List<TurnReport> turns,
                         int omittedTurns, Totals totals, WorkTreeChanges changes, List<ApprovalReport> approvals, String label) {
        this(prompt, model, cliVersion, startedAt, endedAt, outcome, reason, summary, durationMillis, turns, omittedTurns,
                totals, changes, approvals, label, null);
    }

    /** A report of a session without a label. */
    public SessionReport(String prompt, String model, String cliVersion, Instant startedAt, Instant endedAt,
                         String outcome, String reason, String summary, long durationMillis, List<TurnReport> turns,
                         int omittedTurns, Totals totals, WorkTreeChanges changes, List<ApprovalReport> approvals) {
        this(prompt, model, cliVersion, startedAt, endedAt, outcome, reason, summary, durationMillis, turns, omittedTurns,
                totals, changes, approvals, null);
    }

    public SessionReport(String prompt, String model, String cliVersion, Instant startedAt, Instant endedAt,
                         String outcome, String reason, String summary, long durationMillis, List<TurnReport> turns,
                         int omittedTurns, Totals totals, WorkTreeChanges changes) {
        this(prompt, model, cliVersion, startedAt, endedAt, outcome, reason, summary, durationMillis, turns, omittedTurns,
                totals, changes, List.of());
    }

    /** A report without recorded changes. */
    public SessionReport(String prompt, String model, String cliVersion, Instant startedAt, Instant endedAt,
                         String outcome, String reason, String summary, long durationMillis, List<TurnReport> turns,
                         int omittedTurns, Totals totals) {
        this(prompt, model, cliVersion, startedAt, endedAt, outcome, reason, summary, durationMillis, turns, omittedTurns,
                totals, null);
    }


    /**
     * The same report without what the agent wrote (the task, its messages and summary, its tools' arguments, outputs
     * and errors): the session's course, for readers who may not see the agent's text.
     */
    public SessionReport withoutAgentText() {
        List<TurnReport> course = turns.stream().map(t -> new TurnReport(t.number(), t.afterNudge(), t.startedAt(),
                t.durationMillis(), List.of(), t.toolCalls().stream().map(c -> new ToolCallReport(c.name(), "", c.status(),
                c.startedAt(), c.durationMillis(), null, null, c.approval(), c.approvalWaitMillis())).toList(), t.omittedToolCalls(),
                List.of(), t.inputTokens(), t.outputTokens())).toList();
        return new SessionReport(null, model, cliVersion, startedAt, endedAt, outcome, reason, null, durationMillis, course,
                omittedTurns, totals, changes, approvals.stream().map(ApprovalReport::withoutArguments).toList(), label, failure);
    }

    /**
     * Totals of a session.
     *
     * @param turns            turns taken
     * @param toolCalls        tool calls made
     * @param failedToolCalls  failed tool calls
     * @param deniedToolCalls  denied tool calls
     * @param nudges           autopilot continuations
     * @param premiumRequests  premium requests, or null when unknown
     * @param inputTokens      input tokens, or null when unknown
     * @param outputTokens     output tokens, or null when unknown
     * @param linesAdded       lines added by the agent's edits
     * @param linesRemoved     lines removed
     * @param filesModified    files modified
     * @param events           event lines in the journal
     * @param aiCredits        AI credits the model calls reported, or null when none did (unknown, not zero)
     * @param aiCreditsStatus  {@code complete}, {@code partial} or {@code unavailable}; null without usage records
     */
    public record Totals(int turns, int toolCalls, int failedToolCalls, int deniedToolCalls, int nudges,
                         Double premiumRequests, Long inputTokens, Long outputTokens, long linesAdded, long linesRemoved,
                         int filesModified, long events, Double aiCredits, String aiCreditsStatus) implements java.io.Serializable {

        /** Totals without AI credits. */
        public Totals(int turns, int toolCalls, int failedToolCalls, int deniedToolCalls, int nudges,
                      Double premiumRequests, Long inputTokens, Long outputTokens, long linesAdded, long linesRemoved,
                      int filesModified, long events) {
            this(turns, toolCalls, failedToolCalls, deniedToolCalls, nudges, premiumRequests, inputTokens, outputTokens,
                    linesAdded, linesRemoved, filesModified, events, null, null);
        }
    }
}
