package io.jenkins.plugins.copilotautopilot.core.parts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalDecision;
import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalRules;
import io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.render.LogLines;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Calls that wait for a person ({@code approveTools}): the approval hook's open requests taken from each look, the
 * decisions handed to the hook, a line in the log and a record in the journal for each request and what became of it
 * (the session page reads them).
 */
public final class ApprovalsPart implements SessionPart {
    private final PartContext context;
    private final ApprovalGate gate;
    /** Decisions handed to the hook, by request: handed again while a look still finds the request open. */
    private final Map<String, String> handedOver = new HashMap<>();

    private ApprovalsPart(PartContext context, ApprovalGate gate) {
        this.context = context;
        this.gate = gate;
        gate.addListener(new Records());
    }

    /** The part for {@code plan}, or null when it has no {@code approveTools}. */
    static ApprovalsPart of(SessionPlan plan, PartContext context) {
        ApprovalRules approving = ApprovalRules.approving(plan);
        return approving.isEmpty() ? null : new ApprovalsPart(context,
                new ApprovalGate(approving, ApprovalRules.denying(plan), ApprovalRules.timeout(plan), context.masker()::mask));
    }

    /** The calls that wait, for those who decide on them. */
    public ApprovalGate gate() {
        return gate;
    }

    /**
     * The hook's open requests as this look found them, and the decisions due: each handed to the hook, and handed again
     * while a later look still finds its request open (the first hand-over failed). A wait for a person is no stalled
     * agent.
     */
    @Override
    public boolean look(CliSession session, SessionPoll poll) throws InterruptedException {
        long now = System.currentTimeMillis();
        gate.open(poll.approvals(), now);
        Map<String, String> handOver = new LinkedHashMap<>();
        if (poll.approvals() != null) {
            Set<String> open = new HashSet<>();
            poll.approvals().forEach(r -> open.add(r.id()));
            handedOver.keySet().retainAll(open);
            handOver.putAll(handedOver);
        }
        for (ApprovalDecision decision : gate.due(now)) {
            handedOver.put(decision.id(), decision.hookOutput());
            handOver.put(decision.id(), decision.hookOutput());
        }
        for (Map.Entry<String, String> decision : handOver.entrySet()) {
            try {
                session.decide(decision.getKey(), decision.getValue());
            } catch (IOException e) {
                // handed again when a later look still finds the request open
            }
        }
        return gate.waiting();
    }

    @Override
    public void ended(SessionState state) {
        gate.sessionEnded(System.currentTimeMillis());
    }

    /** A call that waits, and its end: a line in the log, a record in the journal. */
    private final class Records implements ApprovalGate.Listener {
        @Override
        public void requested(PendingApproval call) {
            context.lines().line("Waiting for approval (approveTools " + call.pattern() + "): " + describe(call) + "; denied "
                    + Durations.describe(gate.timeout()) + " after it was asked unless someone decides");
            context.record(EventJournal.APPROVAL_REQUESTED, record(call));
        }

        @Override
        public void decided(PendingApproval call, ApprovalDecision decision) {
            String when = Instant.ofEpochMilli(decision.atMillis()).truncatedTo(ChronoUnit.SECONDS).toString();
            context.lines().line(switch (decision.verdict()) {
                case APPROVED -> "Approved by " + decision.by() + " at " + when + ": " + describe(call);
                case DENIED -> "Denied by " + decision.by() + " at " + when + ": " + describe(call);
                case TIMED_OUT -> "Denied: nobody decided in time (" + decision.reason().split(";")[0] + "): " + describe(call);
                case LEFT_TO_RULES -> "Not asked: denyTools matches it, the tool rules deny it: " + describe(call);
                case SESSION_ENDED -> "No longer waits: the session ended: " + describe(call);
            });
            ObjectNode data = record(call);
            data.put("verdict", decision.verdict().name());
            data.put("by", decision.by());
            data.put("at", Instant.ofEpochMilli(decision.atMillis()).toString());
            data.put("reason", decision.reason());
            context.record(EventJournal.APPROVAL_DECIDED, data);
        }

        private String describe(PendingApproval call) {
            return call.tool() + (context.lines().agentText() ? " " + Texts.truncate(Texts.oneLine(call.arguments()), LogLines.MAX_LINE)
                    : " (its arguments are on the session page)");
        }

        private ObjectNode record(PendingApproval call) {
            ObjectNode data = EventParser.mapper().createObjectNode();
            data.put("id", call.id());
            data.put("tool", call.tool());
            data.put("arguments", call.arguments());
            data.put("pattern", call.pattern());
            data.put("requestedAt", Instant.ofEpochMilli(call.requestedAtMillis()).toString());
            data.put("deadline", Instant.ofEpochMilli(call.deadlineMillis()).toString());
            return data;
        }
    }
}
