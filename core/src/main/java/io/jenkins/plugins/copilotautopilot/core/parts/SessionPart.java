package io.jenkins.plugins.copilotautopilot.core.parts;

import io.jenkins.plugins.copilotautopilot.core.outcome.ProcessEnd;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;

/**
 * One feature of a session (the answer, the acceptance check, approvals, budgets, usage, changes) with its own state,
 * its own lines in the log and its own piece of the result. It hears the session's events as a {@link SessionListener},
 * and the follower calls it at the session's defined points, in this order, on the follower's thread:
 * <ol>
 * <li>{@link #read} for what each read of the session's files brought (live, caught up after a restart, or drained);</li>
 * <li>{@link #look} once per look at a running session, before its end is judged;</li>
 * <li>{@link #stopReason} while it still runs, after the launch script was answered;</li>
 * <li>{@link #ended} and {@link #finalEnd} once it has ended, before the outcome is decided.</li>
 * </ol>
 * A new feature is a new part (and its setting), made by {@link SessionParts}.
 */
public interface SessionPart extends SessionListener {
    /** What a read of the session's files brought, whether live or not. */
    default void read(SessionPoll poll) {
    }

    /**
     * One look at the running session: whatever the part hands to it (a decision for a waiting call, say).
     *
     * @return whether the session waits for something that is no stalled agent (a person), so that its inactivity
     *         limit does not count this look
     */
    default boolean look(CliSession session, SessionPoll poll) throws InterruptedException {
        return false;
    }

    /** Why the session must be stopped now (a budget spent), as the reason of its OVER_BUDGET end; null while it may go on. */
    default String stopReason() {
        return null;
    }

    /** The session has ended: the part's last words (a warning), before the outcome is decided. */
    default void ended(SessionState state) {
    }

    /** How the session ended, as this part sees it: {@code end} itself unless the part knows better. */
    default ProcessEnd finalEnd(ProcessEnd end, SessionState state) {
        return end;
    }
}
