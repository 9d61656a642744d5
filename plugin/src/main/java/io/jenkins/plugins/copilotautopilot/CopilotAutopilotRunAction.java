package io.jenkins.plugins.copilotautopilot;

import hudson.model.BuildBadgeAction;
import hudson.model.Item;
import hudson.model.Run;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReport;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader;
import io.jenkins.plugins.copilotautopilot.core.report.TimelineSvg;
import io.jenkins.plugins.copilotautopilot.core.report.ToolCallReport;
import io.jenkins.plugins.copilotautopilot.core.report.TurnReport;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import jakarta.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jenkins.model.RunAction2;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * The Copilot sessions of one build, one {@link SessionRecord} per step invocation (several steps, also in
 * parallel branches, add to the same action). Shows a badge in the build history, a summary on the build
 * page and a session page ({@code copilot-autopilot/}) with each session's report, timeline and journal.
 * The journals are files in the build's {@value AutopilotStepRunner#JOURNAL_FOLDER} folder.
 */
@ExportedBean(defaultVisibility = 2)
public final class CopilotAutopilotRunAction implements RunAction2, BuildBadgeAction {
    static final String URL_NAME = "copilot-autopilot";
    private static final int TOOLTIP_SUMMARY = 200;
    /** Steps in parallel branches finish together: one at a time adds its record and saves the build. */
    private static final Object RECORD_LOCK = new Object();

    private final List<SessionRecord> sessions = new ArrayList<>();
    private transient Run<?, ?> run;

    /** Adds a finished session to the build's action (creating it) and saves the build. */
    static void record(Run<?, ?> run, SessionRecord session) throws IOException {
        synchronized (RECORD_LOCK) {
            CopilotAutopilotRunAction action = run.getAction(CopilotAutopilotRunAction.class);
            if (action == null) {
                action = new CopilotAutopilotRunAction();
                run.addAction(action);
            }
            synchronized (action.sessions) {
                action.sessions.add(session);
            }
            run.save();
        }
    }

    /** An id for the next Freestyle step invocation in this build: {@code build-step-1}, {@code build-step-2}... */
    static String nextBuildStepId(Run<?, ?> run) {
        CopilotAutopilotRunAction action = run.getAction(CopilotAutopilotRunAction.class);
        return "build-step-" + (action == null ? 1 : action.getSessions().size() + 1);
    }

    @Exported
    public List<SessionRecord> getSessions() {
        synchronized (sessions) {
            return List.copyOf(sessions);
        }
    }

    /** The outcome that says most about the build: the worst of its sessions. */
    @Exported
    public String getWorstOutcome() {
        return Outcomes.worst(getSessions().stream().map(SessionRecord::getOutcome).toList());
    }

    /** CSS class of the worst outcome. */
    public String getWorstOutcomeClass() {
        String worst = getWorstOutcome();
        return worst == null ? "" : Outcomes.cssClass(worst);
    }

    /** Plain text for the badge's tooltip (rendered as text, never as HTML). */
    public String getBadgeTooltip() {
        List<SessionRecord> all = getSessions();
        if (all.size() == 1) {
            SessionRecord s = all.get(0);
            String summary = s.getSummary() == null ? s.getReason() : s.getSummary();
            return Messages.CopilotAutopilotRunAction_BadgeOne(s.getOutcome(), Texts.truncate(Texts.oneLine(summary), TOOLTIP_SUMMARY));
        }
        return Messages.CopilotAutopilotRunAction_BadgeMany(all.size(), getWorstOutcome());
    }

    /** The badge's symbol, by the worst outcome. */
    public String getBadgeIcon() {
        return Outcomes.icon(getWorstOutcome());
    }

    public Run<?, ?> getRun() {
        return run;
    }

    @Override
    public void onAttached(Run<?, ?> r) {
        this.run = r;
    }

    @Override
    public void onLoad(Run<?, ?> r) {
        this.run = r;
    }

    @Override
    public String getIconFileName() {
        return Outcomes.ACTION_ICON;
    }

    @Override
    public String getDisplayName() {
        return Messages.CopilotAutopilotRunAction_DisplayName();
    }

    @Override
    public String getUrlName() {
        return URL_NAME;
    }

    /** The report of one session, read from its journal, or null when there is no such session or journal. */
    public SessionReport report(String invocationId) throws IOException {
        File journal = journal(invocationId);
        return journal == null ? null : SessionReportReader.read(journal.toPath());
    }

    /** The line that heads a turn on the session page. */
    public String turnHeader(TurnReport turn) {
        StringBuilder out = new StringBuilder("Turn ").append(turn.number());
        if (turn.durationMillis() >= 0) {
            out.append(" \u00b7 ").append(Durations.describe(Duration.ofMillis(turn.durationMillis())));
        }
        int calls = turn.toolCalls().size() + turn.omittedToolCalls();
        out.append(" \u00b7 ").append(calls).append(calls == 1 ? " tool call" : " tool calls");
        if (turn.afterNudge()) {
            out.append(" \u00b7 after an autopilot continuation");
        }
        if (!turn.errors().isEmpty()) {
            out.append(" \u00b7 error");
        }
        return out.toString();
    }

    /** A tool call's status in words: {@code ok in 1.2s}, {@code denied}... */
    public String callStatus(ToolCallReport call) {
        String status = call.status().name().toLowerCase(Locale.ROOT);
        return call.durationMillis() < 0 ? status : status + " in " + Durations.describe(Duration.ofMillis(call.durationMillis()));
    }

    /** {@code timeline?id=...}: the session's SVG timeline. */
    public void doTimeline(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        SessionReport report = report(req.getParameter("id"));
        if (report == null) {
            rsp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        byte[] svg = TimelineSvg.render(report).getBytes(StandardCharsets.UTF_8);
        noActiveContent(rsp);
        rsp.setContentType("image/svg+xml;charset=UTF-8");
        rsp.setContentLength(svg.length);
        rsp.getOutputStream().write(svg);
    }

    /** {@code journal?id=...}: download the session's journal (secrets were masked when it was written). */
    public void doJournal(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        File journal = journal(req.getParameter("id"));
        if (journal == null) {
            rsp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        noActiveContent(rsp);
        rsp.setContentType("application/x-ndjson;charset=UTF-8");
        rsp.setHeader("Content-Disposition", "attachment; filename=\"copilot-" + journal.getName() + "\"");
        rsp.setContentLengthLong(journal.length());
        try (InputStream in = Files.newInputStream(journal.toPath())) {
            in.transferTo(rsp.getOutputStream());
        }
    }

    /** Only files this action recorded, in this build's folder; the id is matched, never used as a path. */
    private File journal(String invocationId) {
        if (run == null || invocationId == null) {
            return null;
        }
        run.getParent().checkPermission(Item.READ);
        for (SessionRecord session : getSessions()) {
            if (session.getInvocationId().equals(invocationId)) {
                File file = new File(new File(run.getRootDir(), AutopilotStepRunner.JOURNAL_FOLDER), session.getJournalFile());
                return file.isFile() ? file : null;
            }
        }
        return null;
    }

    /** Served files are data: no script may run from them, even opened directly. */
    private static void noActiveContent(StaplerResponse2 rsp) {
        rsp.setHeader("X-Content-Type-Options", "nosniff");
        rsp.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    }
}
