package io.jenkins.plugins.copilotautopilot.pages;

import hudson.model.Run;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReport;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The sessions running now, per build, for the live session page: each one's journal (written as the session goes)
 * and the settings it runs with. In memory only: a restarted controller adds a session again when it follows it again.
 */
public final class LiveSessions {
    private static final Logger LOGGER = Logger.getLogger(LiveSessions.class.getName());
    /** A live page reads the journal again at most this often, however many look at it. */
    static final long REREAD_MILLIS = Long.getLong(LiveSessions.class.getName() + ".rereadMillis", 3_000);
    /** Larger journals are not read while the session runs (the finished page's report is made once, at the end). */
    static final long MAX_LIVE_JOURNAL_BYTES = Long.getLong(LiveSessions.class.getName() + ".maxJournalBytes", 64L << 20);

    private static final Map<String, Map<String, LiveSession>> RUNNING = new ConcurrentHashMap<>();

    private LiveSessions() {
    }

    /** One running session: where its journal is and what it runs with. */
    public static final class LiveSession {
        private final String invocationId;
        private final File journal;
        private final SessionPlan plan;
        private final long startedAtMillis;
        private SessionReport report;
        private volatile String trouble;
        private volatile io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate approvals;
        private long readAtMillis;
        private long readLength = -1;

        LiveSession(String invocationId, File journal, SessionPlan plan, long startedAtMillis) {
            this.invocationId = invocationId;
            this.journal = journal;
            this.plan = plan;
            this.startedAtMillis = startedAtMillis;
        }

        public String getInvocationId() {
            return invocationId;
        }

        /** What the session runs with. */
        SessionPlan plan() {
            return plan;
        }

        public boolean isAgentTextPrivate() {
            return !plan.get(SessionSettings.AGENT_TEXT_IN_CONSOLE);
        }

        /** The step's {@code label}, or null. */
        public String getLabel() {
            return plan.get(SessionSettings.LABEL);
        }

        /** Its journal, as it is being written. */
        File journal() {
            return journal;
        }

        public long getStartedAtMillis() {
            return startedAtMillis;
        }

        /** The calls that wait for a person now, oldest first. */
        public List<io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval> getPendingApprovals() {
            io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate gate = approvals;
            return gate == null ? List.of() : gate.pending();
        }

        /** The session's gate, or null when it has no {@code approveTools}. */
        public io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate approvals() {
            return approvals;
        }

        /** Why the session cannot be followed right now (its agent is unreachable), or null. */
        public String getTrouble() {
            return trouble;
        }

        /** The session so far, read from its journal at most every {@link #REREAD_MILLIS}; null when too large or unreadable. */
        synchronized SessionReport report() {
            long now = System.currentTimeMillis();
            if (report != null && now - readAtMillis < REREAD_MILLIS) {
                return report;
            }
            long length = journal.length();
            if (length > MAX_LIVE_JOURNAL_BYTES) {
                return null;
            }
            if (report == null || length != readLength) {
                try {
                    report = SessionReportReader.read(journal.toPath());
                    readLength = length;
                } catch (IOException | RuntimeException e) {
                    LOGGER.log(Level.FINE, "cannot read the live journal " + journal, e);
                }
            }
            readAtMillis = now;
            return report;
        }
    }

    /** A session of the build started (or is followed again after a restart), with this plan, at this time. */
    public static void started(Run<?, ?> run, String invocationId, File journal, SessionPlan plan, long startedAtMillis) {
        RUNNING.computeIfAbsent(run.getExternalizableId(), k -> new ConcurrentHashMap<>())
                .put(invocationId, new LiveSession(invocationId, journal, plan, startedAtMillis));
    }

    /** The calls of a running session that wait for a person ({@code approveTools}): decided on its page. */
    public static void approvals(Run<?, ?> run, String invocationId, io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate gate) {
        Map<String, LiveSession> sessions = RUNNING.get(run.getExternalizableId());
        LiveSession session = sessions == null ? null : sessions.get(invocationId);
        if (session != null) {
            session.approvals = gate;
        }
    }

    /** The build's running session of that invocation, or null. */
    static LiveSession find(Run<?, ?> run, String invocationId) {
        return of(run).stream().filter(s -> s.getInvocationId().equals(invocationId)).findFirst().orElse(null);
    }

    /** The session cannot be followed right now, for {@code why}; null: it can again. */
    public static void trouble(Run<?, ?> run, String invocationId, String why) {
        Map<String, LiveSession> sessions = RUNNING.get(run.getExternalizableId());
        LiveSession session = sessions == null ? null : sessions.get(invocationId);
        if (session != null) {
            session.trouble = why;
        }
    }

    public static void ended(Run<?, ?> run, String invocationId) {
        Map<String, LiveSession> sessions = RUNNING.get(run.getExternalizableId());
        if (sessions != null) {
            sessions.remove(invocationId);
            if (sessions.isEmpty()) {
                RUNNING.remove(run.getExternalizableId(), sessions);
            }
        }
    }

    /** Jenkins stops: what it followed in memory goes (a Jenkins started again in the same JVM, as tests do, starts empty). */
    @hudson.init.Terminator
    public static void clear() {
        RUNNING.clear();
    }

    /** The build's running sessions, in the order they started; none once the build has finished. */
    static List<LiveSession> of(Run<?, ?> run) {
        Map<String, LiveSession> sessions = RUNNING.get(run.getExternalizableId());
        if (sessions == null) {
            return List.of();
        }
        if (!run.isBuilding()) {
            RUNNING.remove(run.getExternalizableId());
            return List.of();
        }
        List<LiveSession> list = new ArrayList<>(sessions.values());
        list.sort((a, b) -> Long.compare(a.getStartedAtMillis(), b.getStartedAtMillis()));
        return list;
    }
}
