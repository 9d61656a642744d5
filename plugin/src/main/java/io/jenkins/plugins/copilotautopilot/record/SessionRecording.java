package io.jenkins.plugins.copilotautopilot.record;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.LiveSessions;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;

import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReportStore;
import java.io.IOException;

/** An ended session recorded on its build: the journal compressed, the session's record saved, the console's link to it. */
public final class SessionRecording {
    private SessionRecording() {
    }

    public static SessionRecord record(Run<?, ?> run, String invocationId, SessionResult result, boolean agentTextPrivate,
                                TaskListener listener) {
        String journalName = SessionFiles.journal(run, invocationId).getName();
        io.jenkins.plugins.copilotautopilot.core.report.SessionReport report = null;
        try {
            java.nio.file.Path compressed = SessionJournal.finish(run, invocationId);
            journalName = compressed.toFile().getName();
            report = SessionReportStore.get(compressed); // the session page's report, made now rather than at the first view
        } catch (IOException e) {
            listener.getLogger().println(Messages.SessionRecording_CannotCompressJournal(e.getMessage()));
        }
        SessionRecord record = new SessionRecord(invocationId, journalName, result, agentTextPrivate);
        if (report != null) {
            record.approvals(report.approvals());
            record.label(report.label());
        }
        try {
            CopilotAutopilotRunAction.record(run, record);
        } catch (IOException e) {
            listener.getLogger().println(Messages.SessionRecording_CannotSave(e.getMessage()));
        } finally {
            LiveSessions.ended(run, invocationId);
        }
        try {
            listener.hyperlink("/" + run.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/", Messages.SessionRecording_DetailsLink());
            listener.getLogger().println();
        } catch (IOException e) {
            listener.getLogger().println(Messages.SessionRecording_DetailsLink());
        }
        return record;
    }

    /** The build's failure message: the outcome and its reason, no stack trace. */
    public static String failureMessage(SessionResult result) {
        return failureMessage(result.outcome().name(), result.reason());
    }

    /** The build's failure message of a session that ended with {@code outcome} for {@code reason}. */
    public static String failureMessage(String outcome, String reason) {
        return Messages.SessionRecording_Failed(outcome, reason);
    }
}
