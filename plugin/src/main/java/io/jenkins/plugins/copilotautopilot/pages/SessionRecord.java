package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.report.ApprovalReport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * What one step invocation left in the build: its result's parts as the build keeps them (how it ended, what the agent
 * did, what the model calls used, what changed, the acceptance check, the answer; each made once from the result's part
 * of the same name), what the log warned of, the calls that waited for a person, and the name of its journal file. Kept
 * small: it is saved in {@code build.xml}, so texts are cut at {@value RecordTexts#MAX_TEXT} characters and lists
 * bounded (the journal keeps them whole). The REST API nests the parts: {@code sessions[].activity.turns}.
 *
 * <p>Read back from older or newer versions, any field may be missing (null or 0) and the outcome may be a name this
 * version does not know; the pages cope with both. A build saved before the parts existed holds the flat form
 * ({@code FlatSessionRecord}): it is made into the parts as it is read.
 */
@ExportedBean(defaultVisibility = 3)
public final class SessionRecord extends FlatSessionRecord {
    private static final long serialVersionUID = 1L;

    private final String invocationId;
    private final String journalFile;
    private final EndingRecord ending;
    private final ActivityRecord activity;
    private final ModelUsageRecord usage;
    private final ChangesRecord changes;
    private final VerificationRecord verification;
    private final AnswerRecord answer;
    /** What the agent wrote was kept out of the console: only readers of the workspace see its summary and words. */
    private final boolean agentTextPrivate;
    /** What the log warned of (a budget that could not be enforced), one line each. */
    private final ArrayList<String> warnings;
    /** The calls that waited for a person and what became of them (from the journal, as the session was recorded). */
    private ArrayList<ApprovalRecord> approvals;
    /** The step's {@code label}, or null (records kept before it was recorded have none). */
    private String label;

    public SessionRecord(String invocationId, String journalFile, SessionResult r) {
        this(invocationId, journalFile, r, false);
    }

    public SessionRecord(String invocationId, String journalFile, SessionResult r, boolean agentTextPrivate) {
        this(invocationId, journalFile, new EndingRecord(r.ending()), new ActivityRecord(r.activity()), new ModelUsageRecord(r.usage()),
                new ChangesRecord(r.changes()), new VerificationRecord(r.verification()), new AnswerRecord(r.answer()), agentTextPrivate,
                new ArrayList<>(r.warnings().stream().map(RecordTexts::cut).toList()), null, null);
    }

    private SessionRecord(String invocationId, String journalFile, EndingRecord ending, ActivityRecord activity, ModelUsageRecord usage,
                          ChangesRecord changes, VerificationRecord verification, AnswerRecord answer, boolean agentTextPrivate,
                          ArrayList<String> warnings, ArrayList<ApprovalRecord> approvals, String label) {
        this.invocationId = invocationId;
        this.journalFile = journalFile;
        this.ending = ending;
        this.activity = activity;
        this.usage = usage;
        this.changes = changes;
        this.verification = verification;
        this.answer = answer;
        this.agentTextPrivate = agentTextPrivate;
        this.warnings = warnings;
        this.approvals = approvals;
        this.label = label;
    }

    /** A build saved before the parts existed (the flat form), or a part missing: the parts, made of what there is. */
    private Object readResolve() {
        if (ending != null && activity != null && usage != null && changes != null && verification != null && answer != null) {
            return this;
        }
        return new SessionRecord(invocationId, journalFile, ending != null ? ending : flatEnding(),
                activity != null ? activity : flatActivity(), usage != null ? usage : flatUsage(),
                changes != null ? changes : flatChanges(), verification != null ? verification : flatVerification(),
                answer != null ? answer : flatAnswer(), agentTextPrivate, warnings, approvals, label);
    }

    /** Takes the calls that waited for a person from the session's report (before the record is saved). */
    public void approvals(List<ApprovalReport> reports) {
        this.approvals = reports.isEmpty() ? null : new ArrayList<>(reports.stream().map(ApprovalRecord::new).toList());
    }

    /** Takes the step's label from the session's report (before the record is saved). */
    public void label(String value) {
        this.label = value == null || value.isBlank() ? null : value;
    }

    /**
     * This session as shown to a reader who may not see what the agent wrote: without its summary and blocker, the URLs
     * it tried, its answer and findings, and the arguments of the calls that waited for a person.
     */
    SessionRecord withoutAgentText() {
        return new SessionRecord(invocationId, journalFile, ending.withoutAgentText(), activity.withoutAgentText(), usage, changes,
                verification, answer.withoutAgentText(), agentTextPrivate, warnings,
                approvals == null ? null : new ArrayList<>(approvals.stream().map(ApprovalRecord::withoutArguments).toList()), label);
    }

    @Exported
    public String getInvocationId() {
        return invocationId;
    }

    /** The journal's file name inside the build's {@code copilot-autopilot} folder. */
    public String getJournalFile() {
        return journalFile;
    }

    public boolean isAgentTextPrivate() {
        return agentTextPrivate;
    }

    /** The step's {@code label}, as Pipeline views show the step, or null. */
    @Exported
    public String getLabel() {
        return label;
    }

    /** How the session ended: the outcome, the reason, the agent's summary, the process's end. */
    @Exported
    public EndingRecord getEnding() {
        return ending;
    }

    /** What the agent did: turns, tool calls, refusals, nudges. */
    @Exported
    public ActivityRecord getActivity() {
        return activity;
    }

    /** What the model calls used: premium requests, AI credits, tokens. */
    @Exported
    public ModelUsageRecord getUsage() {
        return usage;
    }

    /** What the agent changed in the work tree. */
    @Exported
    public ChangesRecord getChanges() {
        return changes;
    }

    /** The acceptance check. */
    @Exported
    public VerificationRecord getVerification() {
        return verification;
    }

    /** The agent's answer and review findings. */
    @Exported
    public AnswerRecord getAnswer() {
        return answer;
    }

    @Exported
    public List<String> getWarnings() {
        return warnings == null ? List.of() : Collections.unmodifiableList(warnings);
    }

    /** The calls that waited for a person ({@code approveTools}), or empty. */
    @Exported
    public List<ApprovalRecord> getApprovals() {
        return approvals == null ? List.of() : Collections.unmodifiableList(approvals);
    }
}
