package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.Messages;

import hudson.model.Action;
import hudson.model.BuildBadgeAction;
import hudson.model.Item;
import hudson.model.Run;
import io.jenkins.plugins.copilotautopilot.core.journal.JournalFiles;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReport;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReportStore;
import io.jenkins.plugins.copilotautopilot.core.report.TimelineSvg;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import jakarta.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import jenkins.model.RunAction2;
import jenkins.tasks.SimpleBuildStep;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * The Copilot sessions of one build, one {@link SessionRecord} per step invocation (several steps, also in
 * parallel branches, add to the same action). Shows a badge in the build history, a summary on the build
 * page and a session page ({@code copilot-autopilot/}) with each session's report, timeline and journal.
 * The journals are files in the build's {@value SessionFiles#FOLDER} folder.
 *
 * <p>Who sees what: what the agent wrote (its messages, its tools' arguments and output excerpts, its summary) is seen
 * by whoever may read the console, where it is printed too ({@link Item#READ}), and so are the outline of each session
 * (outcome, reason, numbers, timeline) and its conversation here. A session run with
 * {@code agentTextInConsole: false} kept its words out of the console; here they are then shown only to users who may
 * read the workspace ({@link Item#WORKSPACE}). The journal download and the diffs of the changed files are the
 * workspace's contents, in full: {@link Item#WORKSPACE} always.
 *
 * <p>As a {@link SimpleBuildStep.LastBuildAction} it puts the Copilot trend on the job page (Freestyle and
 * Pipeline alike), through core's factory for the last successful build; {@link CopilotAutopilotTrendCarrier}
 * keeps the trend there after builds that ran no session.
 */
@ExportedBean(defaultVisibility = 2)
public final class CopilotAutopilotRunAction implements RunAction2, BuildBadgeAction, SimpleBuildStep.LastBuildAction {
    public static final String URL_NAME = "copilot-autopilot";
    private static final int TOOLTIP_SUMMARY = 200;
    /** Steps in parallel branches finish together: one at a time adds its record and saves the build. */
    private static final Object RECORD_LOCK = new Object();

    /** Copy-on-write: pages and the REST API read it while a step adds to it and another thread saves the build. */
    private CopyOnWriteArrayList<SessionRecord> sessions = new CopyOnWriteArrayList<>();
    /** How many Freestyle invocation ids this build handed out; see {@link #nextBuildStepId}. */
    private int buildStepIds;
    private transient Run<?, ?> run;

    /** Adds a finished session to the build's action (creating it) and saves the build. */
    public static void record(Run<?, ?> run, SessionRecord session) throws IOException {
        synchronized (RECORD_LOCK) {
            attachedTo(run).sessions.add(session);
            run.save();
        }
    }

    /**
     * Reserves the id of a Freestyle step invocation in this build: {@code build-step-1}, {@code build-step-2}...
     * Each call returns a new id, also for steps running at the same time (parallel {@code step(...)} calls), so
     * that no two invocations share a journal file. Call it once, when the invocation starts.
     */
    public static String nextBuildStepId(Run<?, ?> run) {
        synchronized (RECORD_LOCK) {
            CopilotAutopilotRunAction action = attachedTo(run);
            // builds recorded before ids were reserved have only their sessions to count
            action.buildStepIds = Math.max(action.buildStepIds, action.sessions.size()) + 1;
            return "build-step-" + action.buildStepIds;
        }
    }

    /** Makes the session page and its link exist while a first session runs (it is saved with the build later). */
    public static void showLive(Run<?, ?> run) {
        synchronized (RECORD_LOCK) {
            attachedTo(run);
        }
    }

    private static CopilotAutopilotRunAction attachedTo(Run<?, ?> run) {
        CopilotAutopilotRunAction action = run.getAction(CopilotAutopilotRunAction.class);
        if (action == null) {
            action = new CopilotAutopilotRunAction();
            run.addAction(action);
        }
        return action;
    }

    /** Builds saved by older versions (a plain list) or without the field at all. */
    private Object readResolve() {
        if (sessions == null) {
            sessions = new CopyOnWriteArrayList<>();
        }
        return this;
    }

    /**
     * The sessions, as the current user may see them: a session whose agent text was kept out of the console
     * ({@code agentTextInConsole: false}) shows its summary only to users who may read the workspace.
     */
    @Exported
    public List<SessionRecord> getSessions() {
        boolean workspace = isWorkspaceVisible();
        List<SessionRecord> visible = new ArrayList<>(sessions.size());
        for (SessionRecord s : sessions) {
            visible.add(s.isAgentTextPrivate() && !workspace ? s.withoutAgentText() : s);
        }
        return Collections.unmodifiableList(visible);
    }

    /** False while the build's first session has not finished yet (its id may be reserved already). */
    public boolean hasSessions() {
        return !sessions.isEmpty();
    }

    /** The sessions running now (not recorded yet), for the live page, the build page and the badge. */
    public List<LiveSessions.LiveSession> getLiveSessions() {
        if (run == null) {
            return List.of();
        }
        List<LiveSessions.LiveSession> live = new ArrayList<>();
        for (LiveSessions.LiveSession s : LiveSessions.of(run)) {
            if (sessions.stream().noneMatch(r -> r.getInvocationId().equals(s.getInvocationId()))) {
                live.add(s);
            }
        }
        return live;
    }

    public boolean hasLiveSessions() {
        return !getLiveSessions().isEmpty();
    }

    /**
     * A running session so far (read from its journal at most every few seconds), as the current user may see it; null
     * when it cannot be shown yet.
     */
    public SessionReport liveReport(LiveSessions.LiveSession session) {
        run.getParent().checkPermission(Item.READ);
        SessionReport report = session.report();
        return report == null || isWorkspaceVisible() || !session.isAgentTextPrivate() ? report : report.withoutAgentText();
    }

    /** The outcome that says most about the build: the worst of its sessions. */
    @Exported
    public String getWorstOutcome() {
        return Outcomes.worst(getSessions().stream().map(s -> s.getEnding().getOutcome()).toList());
    }

    /** CSS class of the worst outcome. */
    public String getWorstOutcomeClass() {
        return Outcomes.cssClass(getWorstOutcome());
    }

    /** Plain text for the badge's tooltip (rendered as text, never as HTML). */
    public String getBadgeTooltip() {
        int live = getLiveSessions().size();
        if (live > 0) {
            return Messages.CopilotAutopilotRunAction_BadgeRunning(live);
        }
        List<SessionRecord> all = getSessions();
        if (all.size() == 1) {
            EndingRecord ending = all.get(0).getEnding();
            return Messages.CopilotAutopilotRunAction_BadgeOne(ending.getOutcome(), Texts.truncate(Texts.oneLine(ending.getGist()), TOOLTIP_SUMMARY));
        }
        return Messages.CopilotAutopilotRunAction_BadgeMany(all.size(), getWorstOutcome());
    }

    /**
     * What the sessions came to, after their outcome on the job page: the one session's summary (or blocker, or reason),
     * else how many sessions there were.
     */
    public String getOutcomeText() {
        List<SessionRecord> all = getSessions();
        if (all.size() == 1) {
            return Texts.truncate(Texts.oneLine(all.get(0).getEnding().getGist()), TOOLTIP_SUMMARY);
        }
        return Messages.CopilotAutopilotRunAction_Sessions(all.size());
    }

    /** The badge's symbol, by the worst outcome. */
    public String getBadgeIcon() {
        if (hasLiveSessions()) {
            return Outcomes.RUNNING_ICON;
        }
        return Outcomes.icon(getWorstOutcome());
    }

    /** How the session page words a session's turns, calls, limits and changes. */
    public SessionPageText getText() {
        return SessionPageText.INSTANCE;
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

    /** The trend on the job page, while this is the last successful build (and it ran a session). */
    @Override
    public Collection<? extends Action> getProjectActions() {
        return run == null || sessions.isEmpty() ? List.of() : List.of(new CopilotAutopilotProjectAction(run.getParent()));
    }

    /** In the side panel from the moment a session starts. */
    @Override
    public String getIconFileName() {
        return sessions.isEmpty() && !hasLiveSessions() ? null : Outcomes.ACTION_ICON;
    }

    @Override
    public String getDisplayName() {
        return Messages.CopilotAutopilotRunAction_DisplayName();
    }

    @Override
    public String getUrlName() {
        return URL_NAME;
    }

    /** Whether the current user may read the workspace: the journal, the diffs, and words kept out of the console. */
    public boolean isWorkspaceVisible() {
        return run != null && run.getParent().hasPermission(Item.WORKSPACE);
    }

    /**
     * The report of one session, or null when there is no such session or journal: read from its journal once, then
     * kept beside it and in memory ({@link SessionReportStore}), so that a page view costs little whatever its size.
     * Without what the agent wrote for a user who may not see it (see {@link #getSessions()}).
     */
    public SessionReport report(String invocationId) throws IOException {
        File journal = journal(invocationId);
        if (journal == null) {
            return null;
        }
        SessionReport report = SessionReportStore.get(journal.toPath());
        boolean hidden = !isWorkspaceVisible() && sessions.stream()
                .anyMatch(s -> s.getInvocationId().equals(invocationId) && s.isAgentTextPrivate());
        return report == null || !hidden ? report : report.withoutAgentText();
    }

    /** Whether the current user may approve or deny the calls that wait in this running session ({@link Approvers}). */
    public boolean canApprove(LiveSessions.LiveSession session) {
        return Approvers.mayApprove(run, session.plan());
    }

    /**
     * {@code decide} (POST, with a crumb): approves or denies a call that waits ({@code invocation}, {@code call},
     * {@code decision} = {@code approve} or {@code deny}), for those {@link #canApprove} lets; back to the page.
     */
    @org.kohsuke.stapler.verb.POST
    public void doDecide(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        if (run == null) {
            rsp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        run.getParent().checkPermission(Item.READ);
        LiveSessions.LiveSession session = LiveSessions.find(run, String.valueOf(req.getParameter("invocation")));
        io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate gate = session == null ? null : session.approvals();
        if (gate == null) {
            rsp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        if (!canApprove(session)) {
            rsp.sendError(HttpServletResponse.SC_FORBIDDEN, Messages.CopilotAutopilotRunAction_MayNotApprove());
            return;
        }
        String decision = req.getParameter("decision");
        if (!"approve".equals(decision) && !"deny".equals(decision)) {
            rsp.sendError(HttpServletResponse.SC_BAD_REQUEST);
            return;
        }
        hudson.model.User user = hudson.model.User.current();
        String by = user == null ? jenkins.model.Jenkins.getAuthentication2().getName() : user.getId();
        if (!gate.decide(String.valueOf(req.getParameter("call")), "approve".equals(decision), by, System.currentTimeMillis())) {
            rsp.sendError(HttpServletResponse.SC_CONFLICT, Messages.CopilotAutopilotRunAction_NoLongerWaits());
            return;
        }
        rsp.sendRedirect2(".");
    }

    /** {@code timeline?id=...}: the session's SVG timeline (tool names and arguments, no output). */
    public void doTimeline(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        SessionReport report = report(req.getParameter("id"));
        if (report == null) {
            rsp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        boolean running = LiveSessions.find(run, req.getParameter("id")) != null;
        byte[] svg = TimelineSvg.render(report, running ? java.time.Instant.now() : null).getBytes(StandardCharsets.UTF_8);
        noActiveContent(rsp);
        rsp.setContentType("image/svg+xml;charset=UTF-8");
        rsp.setContentLength(svg.length);
        rsp.getOutputStream().write(svg);
    }

    /**
     * {@code journal?id=...}: download the session's journal (secrets were masked when it was written). It holds
     * tool output, so it needs the permission to read the workspace.
     */
    public void doJournal(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        if (run == null) {
            rsp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        run.getParent().checkPermission(Item.WORKSPACE);
        File journal = journal(req.getParameter("id"));
        if (journal == null) {
            rsp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        noActiveContent(rsp);
        rsp.setContentType("application/x-ndjson;charset=UTF-8");
        String name = journal.getName();
        if (name.endsWith(JournalFiles.COMPRESSED_SUFFIX)) {
            name = name.substring(0, name.length() - JournalFiles.COMPRESSED_SUFFIX.length()); // served as the lines it holds
        } else {
            rsp.setContentLengthLong(journal.length());
        }
        rsp.setHeader("Content-Disposition", "attachment; filename=\"copilot-" + name + "\"");
        try (InputStream in = JournalFiles.open(journal.toPath())) {
            in.transferTo(rsp.getOutputStream());
        }
    }

    /** Whether the session kept the CLI's OpenTelemetry spans ({@code otel}). */
    public boolean hasSpans(String invocationId) {
        return spansFile(invocationId) != null;
    }

    /**
     * {@code spans?id=...}: download the CLI's OpenTelemetry spans and metrics of the session (JSON lines, masked, under
     * the build's trace); the same permission as the journal.
     */
    public void doSpans(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        if (run == null) {
            rsp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        run.getParent().checkPermission(Item.WORKSPACE);
        File spans = spansFile(req.getParameter("id"));
        if (spans == null) {
            rsp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        noActiveContent(rsp);
        rsp.setContentType("application/x-ndjson;charset=UTF-8");
        rsp.setContentLengthLong(spans.length());
        rsp.setHeader("Content-Disposition", "attachment; filename=\"copilot-" + spans.getName() + "\"");
        java.nio.file.Files.copy(spans.toPath(), rsp.getOutputStream());
    }

    /** A recorded session's span file, or null; the id is matched against the recorded sessions, never used as a path. */
    private File spansFile(String invocationId) {
        if (run == null || invocationId == null || sessions.stream().noneMatch(s -> s.getInvocationId().equals(invocationId))) {
            return null;
        }
        File file = SessionFiles.spans(run, invocationId).toFile();
        return file.isFile() ? file : null;
    }

    /** Only files this action recorded, in this build's folder; the id is matched, never used as a path. */
    private File journal(String invocationId) {
        if (run == null || invocationId == null) {
            return null;
        }
        run.getParent().checkPermission(Item.READ);
        for (SessionRecord session : sessions) {
            if (invocationId.equals(session.getInvocationId()) && session.getJournalFile() != null) {
                File file = new File(new File(run.getRootDir(), SessionFiles.FOLDER), session.getJournalFile());
                return file.isFile() ? file : null;
            }
        }
        LiveSessions.LiveSession live = LiveSessions.find(run, invocationId); // a running session's, as far as it goes
        return live != null && live.journal().isFile() ? live.journal() : null;
    }

    /** Served files are data: no script may run from them, even opened directly. */
    private static void noActiveContent(StaplerResponse2 rsp) {
        rsp.setHeader("X-Content-Type-Options", "nosniff");
        rsp.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    }
}
