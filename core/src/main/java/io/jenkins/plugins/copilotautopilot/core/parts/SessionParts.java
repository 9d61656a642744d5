package io.jenkins.plugins.copilotautopilot.core.parts;

import io.jenkins.plugins.copilotautopilot.core.outcome.ProcessEnd;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The parts of one session, made once from its plan, each listening to the session's tracker, and called in this order
 * at each of the points {@link SessionPart} names. The features a plan does not ask for have no part (null).
 */
public final class SessionParts {
    private final AnswerPart answer;
    private final ApprovalsPart approvals;
    private final VerifyPart verify;
    private final BudgetsPart budgets;
    private final UsagePart usage;
    private final ChangesPart changes;
    private final List<SessionPart> all;
    /** The parts with a hook of their own for each read, each look, and a reason to stop: called at every look. */
    private final SessionPart[] readers;
    private final SessionPart[] lookers;
    private final SessionPart[] stoppers;

    private SessionParts(SessionPlan plan, PartContext context) {
        this.answer = AnswerPart.of(plan, context);
        this.approvals = ApprovalsPart.of(plan, context);
        this.verify = VerifyPart.of(plan, context);
        this.budgets = new BudgetsPart(plan, context);
        this.usage = new UsagePart(plan, context);
        this.changes = new ChangesPart(context);
        List<SessionPart> parts = new ArrayList<>(List.of(new PolicyPart(context), budgets, usage, changes));
        parts.add(0, verify);
        parts.add(0, approvals);
        parts.add(0, answer);
        parts.removeIf(Objects::isNull);
        this.all = Collections.unmodifiableList(parts);
        this.readers = withOwn(parts, Hooks.READ);
        this.lookers = withOwn(parts, Hooks.LOOK);
        this.stoppers = withOwn(parts, Hooks.STOP_REASON);
    }

    /**
     * The parts, in order, whose class has its own {@code hook} rather than the interface's default (which does
     * nothing): the follower calls these hooks at every look of every session, most parts take none of them, and a
     * call through the interface to one of many part classes is not free.
     */
    private static SessionPart[] withOwn(List<SessionPart> parts, int hook) {
        return parts.stream().filter(p -> Hooks.OWN.get(p.getClass())[hook]).toArray(SessionPart[]::new);
    }

    /** Which of the hooks called at every look a part class has its own of, found once per class. */
    private static final class Hooks {
        static final int READ = 0;
        static final int LOOK = 1;
        static final int STOP_REASON = 2;
        static final ClassValue<boolean[]> OWN = new ClassValue<>() {
            @Override
            protected boolean[] computeValue(Class<?> type) {
                return new boolean[] {own(type, "read", SessionPoll.class), own(type, "look", CliSession.class, SessionPoll.class),
                        own(type, "stopReason")};
            }
        };

        private Hooks() {
        }

        private static boolean own(Class<?> type, String name, Class<?>... parameters) {
            try {
                return type.getMethod(name, parameters).getDeclaringClass() != SessionPart.class;
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(e); // every part has the interface's hooks
            }
        }
    }

    /** The parts for {@code plan}, listening to the tracker of {@code context}. */
    public static SessionParts of(SessionPlan plan, PartContext context) {
        SessionParts parts = new SessionParts(plan, context);
        parts.all.forEach(context.tracker()::addListener);
        return parts;
    }

    /** The answer's part, or null when the session asks for none. */
    public AnswerPart answer() {
        return answer;
    }

    /** The approvals' part, or null when the session has no {@code approveTools}. */
    public ApprovalsPart approvals() {
        return approvals;
    }

    /** The acceptance check's part, or null when the session has none. */
    public VerifyPart verify() {
        return verify;
    }

    public BudgetsPart budgets() {
        return budgets;
    }

    public ChangesPart changes() {
        return changes;
    }

    /** What a read of the session's files brought, to each part. */
    public void read(SessionPoll poll) {
        for (SessionPart part : readers) {
            part.read(poll);
        }
    }

    /** One look at the running session, to each part: whether one of them waits for something that is no stalled agent. */
    public boolean look(CliSession session, SessionPoll poll) throws InterruptedException {
        boolean waiting = false;
        for (SessionPart part : lookers) {
            waiting |= part.look(session, poll);
        }
        return waiting;
    }

    /** The first part's reason to stop the session now, or null. */
    public String stopReason() {
        for (SessionPart part : stoppers) {
            String reason = part.stopReason();
            if (reason != null) {
                return reason;
            }
        }
        return null;
    }

    /** The session has ended: each part's last words, then how it ended as the parts see it. */
    public ProcessEnd ended(ProcessEnd end, SessionState state) {
        all.forEach(p -> p.ended(state));
        ProcessEnd finalEnd = end;
        for (SessionPart part : all) {
            finalEnd = part.finalEnd(finalEnd, state);
        }
        return finalEnd;
    }
}
