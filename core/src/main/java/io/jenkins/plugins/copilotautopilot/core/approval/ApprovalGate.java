package io.jenkins.plugins.copilotautopilot.core.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The calls of one session that wait for a person ({@code approveTools}), as its follower sees them: the approval
 * hook's open requests come in with each look ({@link #open}), a person decides from any thread ({@link #decide}), and
 * the follower writes what is due ({@link #due}) into the control folder, where the hook waits for it. Nothing here
 * waits or reads files.
 *
 * <p>The wait is the hook's, in the control folder: a follower that starts again (a restarted controller) finds the
 * open requests again, with the time they were asked at, so the deadline holds across the restart.
 */
public final class ApprovalGate {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The longest arguments shown for a call. */
    static final int MAX_ARGUMENT_CHARS = 2_000;

    /** Told of each call that starts to wait, and of each decision, on the follower's thread. */
    public interface Listener {
        void requested(PendingApproval call);

        void decided(PendingApproval call, ApprovalDecision decision);
    }

    /** One request as the hook left it: its id and the file's text (the rule's index, a line feed, the CLI's JSON). */
    public record Request(String id, String text) {
    }

    private final ApprovalRules approve;
    private final ApprovalRules deny;
    private final Duration timeout;
    private final UnaryOperator<String> mask;
    private final List<Listener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<String, PendingApproval> pending = new LinkedHashMap<>();
    private final Map<String, ApprovalDecision> queued = new LinkedHashMap<>();
    /** Every request seen, decided or not: seen again in a later look, it is not asked again. */
    private final Set<String> seen = new LinkedHashSet<>();
    private volatile Runnable wake = () -> { };

    public ApprovalGate(ApprovalRules approve, ApprovalRules deny, Duration timeout, UnaryOperator<String> mask) {
        this.approve = approve;
        this.deny = deny;
        this.timeout = timeout;
        this.mask = mask;
    }

    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    /** What to call when a person decided, so that the follower writes it soon (rather than at its next look). */
    public void onDecision(Runnable wake) {
        this.wake = wake;
    }

    public Duration timeout() {
        return timeout;
    }

    /**
     * The hook's open requests, as one look found them (null: the look could not tell). New ones start to wait, or are
     * left to the CLI's rules when {@code denyTools} matches them. One that is gone past its deadline was denied by the
     * hook itself (nobody handed it the follower's denial in time); one gone before it is taken as a look older than
     * the request (two ways of looking may cross), since the hook ends a wait early only when the session stops.
     */
    public void open(Collection<Request> requests, long nowMillis) {
        if (requests == null) {
            return;
        }
        List<PendingApproval> started = new ArrayList<>();
        List<Map.Entry<PendingApproval, ApprovalDecision>> ended = new ArrayList<>();
        synchronized (this) {
            Set<String> open = new LinkedHashSet<>();
            for (Request request : requests) {
                open.add(request.id());
                if (seen.add(request.id())) {
                    PendingApproval call = read(request, nowMillis);
                    pending.put(call.id(), call);
                    if (deny.firstMatch(call.tool(), rawInput(request.text())) != null) {
                        // nobody is asked: handed back to the CLI's rules, which deny it, at the next hand-over
                        queued.put(call.id(), new ApprovalDecision(call.id(), ApprovalDecision.Verdict.LEFT_TO_RULES, null, nowMillis,
                                "denyTools matches it"));
                    } else {
                        started.add(call);
                    }
                }
            }
            for (PendingApproval call : List.copyOf(pending.values())) {
                if (!open.contains(call.id()) && !queued.containsKey(call.id()) && nowMillis >= call.deadlineMillis()) {
                    pending.remove(call.id());
                    ApprovalDecision decision = new ApprovalDecision(call.id(), ApprovalDecision.Verdict.TIMED_OUT, null, nowMillis,
                            "the approval hook ended the wait itself");
                    ended.add(Map.entry(call, decision));
                }
            }
        }
        started.forEach(call -> listeners.forEach(l -> l.requested(call)));
        ended.forEach(e -> listeners.forEach(l -> l.decided(e.getKey(), e.getValue())));
    }

    /**
     * A person's decision on a waiting call; false when it does not wait (any more). Any thread; the follower writes
     * it at its next look.
     */
    public boolean decide(String id, boolean approved, String by, long nowMillis) {
        synchronized (this) {
            if (!pending.containsKey(id) || queued.containsKey(id)) {
                return false;
            }
            String reason = approved ? null : mask.apply("denied by " + (by == null ? "a person" : by) + ": do not run it,"
                    + " and do not try to reach the same end another way");
            queued.put(id, new ApprovalDecision(id, approved ? ApprovalDecision.Verdict.APPROVED : ApprovalDecision.Verdict.DENIED,
                    by, nowMillis, reason));
        }
        wake.run();
        return true;
    }

    /**
     * The decisions to hand the hook now: the ones made since the last call, and a denial for each call whose wait ran
     * out. Each is told to the listeners once, as it is handed over.
     */
    public List<ApprovalDecision> due(long nowMillis) {
        List<Map.Entry<PendingApproval, ApprovalDecision>> due = new ArrayList<>();
        synchronized (this) {
            for (PendingApproval call : pending.values()) {
                if (!queued.containsKey(call.id()) && nowMillis >= call.deadlineMillis()) {
                    queued.put(call.id(), new ApprovalDecision(call.id(), ApprovalDecision.Verdict.TIMED_OUT, null, nowMillis,
                            "nobody approved it within " + minutes(timeout) + "; do not run it, and do not try to reach the"
                                    + " same end another way"));
                }
            }
            for (ApprovalDecision decision : queued.values()) {
                due.add(Map.entry(pending.remove(decision.id()), decision));
            }
            queued.clear();
        }
        due.forEach(e -> listeners.forEach(l -> l.decided(e.getKey(), e.getValue())));
        return due.stream().map(Map.Entry::getValue).toList();
    }

    /** The session ended: what still waited is told to the listeners as ended (the hook denies it as the session stops). */
    public void sessionEnded(long nowMillis) {
        List<Map.Entry<PendingApproval, ApprovalDecision>> ended = new ArrayList<>();
        synchronized (this) {
            for (PendingApproval call : pending.values()) {
                ApprovalDecision decision = new ApprovalDecision(call.id(), ApprovalDecision.Verdict.SESSION_ENDED, null, nowMillis,
                        "the session ended");
                ended.add(Map.entry(call, decision));
            }
            pending.clear();
            queued.clear();
        }
        ended.forEach(e -> listeners.forEach(l -> l.decided(e.getKey(), e.getValue())));
    }

    /** The calls that wait now, oldest first. */
    public synchronized List<PendingApproval> pending() {
        return pending.values().stream().filter(c -> !queued.containsKey(c.id())).toList();
    }

    /** Whether a call waits (the session's inactivity limit does not count meanwhile). */
    public synchronized boolean waiting() {
        return !pending.isEmpty();
    }

    private PendingApproval read(Request request, long nowMillis) {
        String text = request.text();
        int rule = -1;
        int lineEnd = text.indexOf('\n');
        if (lineEnd > 0) {
            try {
                rule = Integer.parseInt(text.substring(0, lineEnd).strip());
            } catch (NumberFormatException e) {
                rule = -1;
            }
        }
        String tool = "?";
        String arguments = "(the request could not be read)";
        long requested = nowMillis;
        try {
            JsonNode input = JSON.readTree(rawInput(text));
            tool = input.path("toolName").asText("?");
            JsonNode args = input.path("toolArgs");
            arguments = summary(tool, args);
            long at = input.path("timestamp").asLong(0);
            // the CLI's clock is this machine's or the agent's: a time from the future or the far past is not taken
            if (at > 0 && at <= nowMillis + 60_000 && nowMillis - at < timeout.toMillis() + 3_600_000L) {
                requested = at;
            }
        } catch (java.io.IOException e) {
            // shown as unreadable: a person still decides
        }
        String pattern = rule >= 0 && rule < approve.rules().size() ? approve.rules().get(rule).pattern() : "?";
        return new PendingApproval(request.id(), mask.apply(tool), mask.apply(arguments), pattern, requested,
                requested + timeout.toMillis());
    }

    /** The arguments as a person reads them: a shell command as it is, a URL; else the JSON (a file's path and text). */
    private static String summary(String tool, JsonNode args) {
        String text;
        if (args.hasNonNull("command")) {
            text = args.get("command").asText();
        } else if (args.hasNonNull("url") && args.size() <= 2) {
            text = args.get("url").asText();
        } else {
            text = args.isMissingNode() ? "" : args.toString();
        }
        return text.length() <= MAX_ARGUMENT_CHARS ? text : text.substring(0, MAX_ARGUMENT_CHARS) + "…";
    }

    private static String rawInput(String text) {
        int lineEnd = text.indexOf('\n');
        return lineEnd < 0 ? text : text.substring(lineEnd + 1);
    }

    private static String minutes(Duration d) {
        long m = d.toMinutes();
        return m >= 1 && d.toSeconds() % 60 == 0 ? m + (m == 1 ? " minute" : " minutes") : d.toSeconds() + " seconds";
    }
}
