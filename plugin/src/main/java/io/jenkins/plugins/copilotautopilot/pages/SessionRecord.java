package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.Messages;

import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * What one step invocation left in the build: its outcome, the agent's summary (masked) and the numbers,
 * plus the name of its journal file. Kept small: it is saved in {@code build.xml}, so the summary and the reason
 * are cut at {@value #MAX_TEXT} characters (the journal keeps the whole text). Read back from older or newer
 * versions, any field may be missing (null or 0) and the outcome may be a name this version does not know;
 * the pages cope with both.
 */
@ExportedBean(defaultVisibility = 3)
public final class SessionRecord implements Serializable {
    private static final long serialVersionUID = 1L;
    static final int MAX_FILES = 100;

    /** The longest summary or reason kept in {@code build.xml}, in characters. */
    static final int MAX_TEXT = 10_000;

    private final String invocationId;
    private final String journalFile;
    private final String outcome;
    private final String reason;
    private final String summary;
    /** What the agent said blocks it (a BLOCKED session), or null; agent text like the summary. */
    private final String blocker;
    private final int turns;
    private final int toolCalls;
    private final int failedToolCalls;
    private final int deniedToolCalls;
    /** Denied tool calls after the organisation's policy overrode the step's permissions (0 in older records). */
    private final int policyDeniedToolCalls;
    /** Why GitHub's service refused the session, or null (also in older records). */
    private final FailureRecord failure;
    /** Tool calls the policy refused for a URL (0 in records of older versions). */
    private final int deniedFetches;
    /** Whether the acceptance check passed last; null without one (or in an older record). */
    private final Boolean verified;
    private final int verifyRounds;
    private final Integer verifyExitCode;
    /** The URLs refused (from the agent's commands: agent text, like the summary); null in older records. */
    private final ArrayList<String> deniedUrls;
    private final int nudges;
    private final Double premiumRequests;
    /** The AI credits the model calls reported; null when none did (and in records of older versions). */
    private final Double aiCredits;
    /** complete, partial or unavailable, as the model calls reported credits; null without usage records. */
    private final String aiCreditsStatus;
    private final long durationMillis;
    private final String sessionId;
    private final Integer exitCode;
    private final String model;
    private final long linesAdded;
    private final long linesRemoved;
    private final int filesModified;
    private final Long inputTokens;
    private final Long outputTokens;
    private final Long cacheReadTokens;
    /** The first {@value #MAX_FILES} files the agent changed in the git work tree (the journal has them all). */
    private final ArrayList<ChangedFileRecord> changedFiles;
    /** What the agent wrote was kept out of the console: only readers of the workspace see its summary and words. */
    private final boolean agentTextPrivate;
    /** What the log warned of (a budget that could not be enforced), one line each. */
    private final ArrayList<String> warnings;
    /** The agent's answer that followed the schema, as indented JSON (cut), or null. */
    private final String output;
    private final int outputRounds;
    /** The first {@value #MAX_FINDINGS} review findings, held to the workspace (the journal has the answer whole). */
    private final ArrayList<FindingRecord> findings;
    static final int MAX_FINDINGS = 1_000;
    /** The calls that waited for a person and what became of them (from the journal, as the session was recorded). */
    private ArrayList<ApprovalRecord> approvals;
    /** The step's {@code label}, or null (records kept before it was recorded have none). */
    private String label;

    public SessionRecord(String invocationId, String journalFile, SessionResult r) {
        this(invocationId, journalFile, r, false);
    }

    public SessionRecord(String invocationId, String journalFile, SessionResult r, boolean agentTextPrivate) {
        this.invocationId = invocationId;
        this.journalFile = journalFile;
        this.outcome = r.outcome().name();
        this.reason = cut(r.reason());
        this.summary = cut(r.summary());
        this.blocker = cut(r.ending().blocker());
        this.turns = r.activity().turns();
        this.toolCalls = r.activity().toolCalls();
        this.failedToolCalls = r.activity().failedToolCalls();
        this.deniedToolCalls = r.activity().deniedToolCalls();
        this.policyDeniedToolCalls = r.activity().policyDeniedToolCalls();
        this.failure = r.ending().failure() == null ? null : new FailureRecord(r.ending().failure());
        this.deniedFetches = r.activity().deniedFetches();
        this.verified = r.verification().verified();
        this.verifyRounds = r.verification().rounds();
        this.verifyExitCode = r.verification().exitCode();
        this.deniedUrls = new ArrayList<>();
        r.activity().deniedUrls().forEach(u -> deniedUrls.add(cut(u)));
        this.nudges = r.activity().nudges();
        this.premiumRequests = r.usage().premiumRequests();
        this.aiCredits = r.usage().aiCredits();
        this.aiCreditsStatus = r.usage().aiCreditsStatus();
        this.durationMillis = r.ending().durationMillis();
        this.sessionId = r.ending().sessionId();
        this.exitCode = r.ending().exitCode();
        this.model = r.ending().model();
        this.linesAdded = r.changes().linesAdded();
        this.linesRemoved = r.changes().linesRemoved();
        this.filesModified = r.changes().filesModified();
        this.inputTokens = r.usage().inputTokens();
        this.outputTokens = r.usage().outputTokens();
        this.cacheReadTokens = r.usage().cacheReadTokens();
        this.changedFiles = new ArrayList<>();
        for (ChangedFile file : r.changes().files()) {
            if (changedFiles.size() < MAX_FILES) {
                changedFiles.add(new ChangedFileRecord(file));
            }
        }
        this.agentTextPrivate = agentTextPrivate;
        this.warnings = new ArrayList<>();
        r.warnings().forEach(w -> warnings.add(cut(w)));
        this.output = cut(indented(r.answer().output()));
        this.outputRounds = r.answer().rounds();
        this.findings = new ArrayList<>();
        r.answer().findings().stream().limit(MAX_FINDINGS).forEach(f -> findings.add(new FindingRecord(f)));
    }

    private static String indented(String json) {
        if (json == null) {
            return null;
        }
        try {
            com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(mapper.readTree(json));
        } catch (java.io.IOException e) {
            return json;
        }
    }

    private SessionRecord(SessionRecord r, String summary, String blocker, ArrayList<String> deniedUrls, String output,
                          ArrayList<FindingRecord> findings) {
        this.invocationId = r.invocationId;
        this.journalFile = r.journalFile;
        this.outcome = r.outcome;
        this.reason = r.reason;
        this.summary = summary;
        this.blocker = blocker;
        this.turns = r.turns;
        this.toolCalls = r.toolCalls;
        this.failedToolCalls = r.failedToolCalls;
        this.deniedToolCalls = r.deniedToolCalls;
        this.policyDeniedToolCalls = r.policyDeniedToolCalls;
        this.failure = r.failure;
        this.deniedFetches = r.deniedFetches;
        this.verified = r.verified;
        this.verifyRounds = r.verifyRounds;
        this.verifyExitCode = r.verifyExitCode;
        this.deniedUrls = deniedUrls;
        this.nudges = r.nudges;
        this.premiumRequests = r.premiumRequests;
        this.aiCredits = r.aiCredits;
        this.aiCreditsStatus = r.aiCreditsStatus;
        this.durationMillis = r.durationMillis;
        this.sessionId = r.sessionId;
        this.exitCode = r.exitCode;
        this.model = r.model;
        this.linesAdded = r.linesAdded;
        this.linesRemoved = r.linesRemoved;
        this.filesModified = r.filesModified;
        this.inputTokens = r.inputTokens;
        this.outputTokens = r.outputTokens;
        this.cacheReadTokens = r.cacheReadTokens;
        this.changedFiles = r.changedFiles;
        this.agentTextPrivate = r.agentTextPrivate;
        this.warnings = r.warnings;
        this.output = output;
        this.outputRounds = r.outputRounds;
        this.findings = findings;
        this.approvals = r.approvals == null ? null : new ArrayList<>(r.approvals.stream().map(ApprovalRecord::withoutArguments).toList());
        this.label = r.label;
    }

    /** Takes the calls that waited for a person from the session's report (before the record is saved). */
    public void approvals(List<io.jenkins.plugins.copilotautopilot.core.report.ApprovalReport> reports) {
        this.approvals = reports.isEmpty() ? null : new ArrayList<>(reports.stream().map(ApprovalRecord::new).toList());
    }

    /** Takes the step's label from the session's report (before the record is saved). */
    public void label(String value) {
        this.label = value == null || value.isBlank() ? null : value;
    }

    /** The step's {@code label}, as Pipeline views show the step, or null. */
    @Exported
    public String getLabel() {
        return label;
    }

    /** The calls that waited for a person ({@code approveTools}), or empty. */
    @Exported
    public List<ApprovalRecord> getApprovals() {
        return approvals == null ? List.of() : Collections.unmodifiableList(approvals);
    }

    /** This session as shown to a reader who may not see what the agent wrote: without its summary and blocker. */
    SessionRecord withoutAgentText() {
        return new SessionRecord(this, null, null, null, null, null);
    }

    public boolean isAgentTextPrivate() {
        return agentTextPrivate;
    }

    /** The answer that followed the schema, as indented JSON, or null (none, or not for this reader). */
    @Exported
    public String getOutput() {
        return output;
    }

    @Exported
    public int getOutputRounds() {
        return outputRounds;
    }

    /** The review findings, or empty (none, or not for this reader). */
    @Exported
    public List<FindingRecord> getFindings() {
        return findings == null ? List.of() : Collections.unmodifiableList(findings);
    }

    @Exported
    public List<String> getWarnings() {
        return warnings == null ? List.of() : Collections.unmodifiableList(warnings);
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

    @Exported
    public String getInvocationId() {
        return invocationId;
    }

    /** The journal's file name inside the build's {@code copilot-autopilot} folder. */
    public String getJournalFile() {
        return journalFile;
    }

    /** COMPLETED, INCOMPLETE, FAILED, TIMED_OUT, STALLED or ABORTED (as stored: see {@link Outcomes#parse}). */
    @Exported
    public String getOutcome() {
        return outcome;
    }

    @Exported
    public String getReason() {
        return reason;
    }

    @Exported
    public String getSummary() {
        return summary;
    }

    @Exported
    public String getBlocker() {
        return blocker;
    }

    @Exported
    public int getTurns() {
        return turns;
    }

    @Exported
    public int getToolCalls() {
        return toolCalls;
    }

    @Exported
    public int getFailedToolCalls() {
        return failedToolCalls;
    }

    @Exported
    public Boolean getVerified() {
        return verified;
    }

    @Exported
    public int getVerifyRounds() {
        return verifyRounds;
    }

    @Exported
    public Integer getVerifyExitCode() {
        return verifyExitCode;
    }

    @Exported
    public int getDeniedFetches() {
        return deniedFetches;
    }

    /** The URLs the policy refused, or an empty list (none, an older record, or a reader who may not see agent text). */
    public List<String> getDeniedUrls() {
        return deniedUrls == null ? List.of() : java.util.Collections.unmodifiableList(deniedUrls);
    }

    /** {@link #getDeniedUrls()} on one line. */
    public String getDeniedUrlsText() {
        return String.join(" ", getDeniedUrls());
    }

    public int getDeniedToolCalls() {
        return deniedToolCalls;
    }

    @Exported
    public int getPolicyDeniedToolCalls() {
        return policyDeniedToolCalls;
    }

    /** Why GitHub's service refused the session (a rate limit, a used-up quota, a refused token…), or null. */
    @Exported
    public FailureRecord getFailure() {
        return failure;
    }

    @Exported
    public int getNudges() {
        return nudges;
    }

    @Exported
    public Double getPremiumRequests() {
        return premiumRequests;
    }

    /** The AI credits GitHub billed for the session's model calls, or null when they reported none (unknown, not 0). */
    @Exported
    public Double getAiCredits() {
        return aiCredits;
    }

    /** {@code complete}, {@code partial} or {@code unavailable}; null without usage records. */
    @Exported
    public String getAiCreditsStatus() {
        return aiCreditsStatus;
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
    public Integer getExitCode() {
        return exitCode;
    }

    @Exported
    public String getModel() {
        return model;
    }

    @Exported
    public long getLinesAdded() {
        return linesAdded;
    }

    @Exported
    public long getLinesRemoved() {
        return linesRemoved;
    }

    @Exported
    public int getFilesModified() {
        return filesModified;
    }

    /** Input tokens of the model calls, or null when the CLI recorded no usage. */
    @Exported
    public Long getInputTokens() {
        return inputTokens;
    }

    @Exported
    public Long getOutputTokens() {
        return outputTokens;
    }

    @Exported
    public Long getCacheReadTokens() {
        return cacheReadTokens;
    }

    /** The files the agent changed in the git work tree, at most {@value #MAX_FILES} (none for records made before). */
    @Exported
    public List<ChangedFileRecord> getChangedFiles() {
        return changedFiles == null ? List.of() : List.copyOf(changedFiles);
    }

    /** {@code 1,234 in / 56 out}, or null without usage records. */
    public String getTokensText() {
        return inputTokens == null ? null : String.format(java.util.Locale.ROOT, "%,d in / %,d out", inputTokens,
                java.util.Objects.requireNonNullElse(outputTokens, 0L));
    }

    /** CSS class for the outcome (derived from the outcome name only). */
    public String getOutcomeClass() {
        return Outcomes.cssClass(outcome);
    }

    public String getDurationText() {
        return Durations.describe(Duration.ofMillis(durationMillis));
    }

    /** As the pages write them: {@code 2.5}, {@code at least 2.5} when some calls reported none, {@code not reported}. */
    public String getAiCreditsText() {
        if (aiCreditsStatus == null) {
            return "?";
        }
        if (aiCredits == null) {
            return Messages.SessionRecord_CreditsNotReported();
        }
        String amount = io.jenkins.plugins.copilotautopilot.core.session.AiCredits.format(aiCredits);
        return "partial".equals(aiCreditsStatus) ? Messages.SessionRecord_CreditsAtLeast(amount) : amount;
    }

    public String getPremiumRequestsText() {
        return premiumRequests == null ? "?" : Texts.number(premiumRequests);
    }
}
