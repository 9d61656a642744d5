package io.jenkins.plugins.copilotautopilot.core.session;

import io.jenkins.plugins.copilotautopilot.core.text.Texts;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;
import io.jenkins.plugins.copilotautopilot.core.events.StreamLine;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Follows a session event by event: turns, tool calls, messages, nudges, completion, errors and the
 * final result. Keeps counters and the calls still running, never the events themselves, so memory
 * does not grow with the length of the session.
 *
 * <p>Events are fed from one thread; {@link #state()} may be read from another.
 *
 * <p>The one reader of the CLI's event vocabulary (one handler per event type, each a few lines, as the CLI documents
 * them); the tool calls ({@link ToolCalls}) and the launch script's own steps ({@link ScriptSteps}) keep their state
 * apart, under this tracker's lock.
 */
public final class SessionTracker {
    /** Running tool calls kept at most (calls whose completion never arrives are dropped beyond this). */
    static final int MAX_RUNNING_CALLS = ToolCalls.MAX_RUNNING_CALLS;
    private static final int MAX_REMEMBERED_TURNS = 10_000;

    private final List<SessionListener> listeners = new CopyOnWriteArrayList<>();
    private final ToolCalls tools = new ToolCalls();
    /** The event ids of the turns' starts, which usage records name as their parent. */
    private final Map<String, Integer> turnsByEventId = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > MAX_REMEMBERED_TURNS;
        }
    };
    private UsageTotals usage = UsageTotals.NONE;

    private long events;
    private long plainLines;
    private int turns;
    private Turn currentTurn;
    /** The exit code listeners get for a check a stop cut short. */
    public static final int STOPPED_VERIFY = ScriptSteps.STOPPED_VERIFY;
    private final ScriptSteps script = new ScriptSteps();
    private int completions;
    private int assistantMessages;
    private int nudges;
    private boolean earlierEventsUnread;
    private int retries;
    private TaskCompletion task = TaskCompletion.NONE;
    private SessionError firstError;
    /** The run of the CLI ({@link #cliEnds()} when it came) that {@link #firstError} came from. */
    private int firstErrorRun;
    private boolean backingOff;
    private boolean autoModeResolved;
    private String autopilotStopReason;
    private boolean idle;
    private boolean cancelled;
    /** The managed setting that overrode the session's tool permissions, or null: denials after it are the policy's. */
    private String policySetting;
    /** Set once the session is being stopped: a turn the CLI opens after that calls no model and is not one. */
    private boolean stopRequested;
    /** When the stop was decided (null: as its first word was read, which names no time). */
    private Instant stopAt;
    /** A stop the follower before this one decided, not yet reached in the CLI's events ({@link #stoppedAt}). */
    private Instant stopDecidedBefore;
    private ResultInfo result;
    private String model;
    private Long inputTokens;
    private Long outputTokens;

    public SessionTracker addListener(SessionListener listener) {
        listeners.add(listener);
        return this;
    }

    /** Feeds one stdout line. */
    public void accept(StreamLine line) {
        if (line instanceof CliEvent event) {
            accept(event);
        } else if (line instanceof PlainOutput plain) {
            synchronized (this) {
                plainLines++;
            }
            listeners.forEach(l -> l.onPlainOutput(plain));
        }
    }

    public void accept(CliEvent event) {
        stopWhereItWasDecided(event);
        synchronized (this) {
            events++;
            script.movedOn();
            // the CLI is silent between its own retries of a refused model call (as long as the service's Retry-After)
            backingOff = "assistant.turn_retry".equals(event.type()) || "model.call_failure".equals(event.type())
                    || backingOff && event.ephemeral() && !"assistant.turn_start".equals(event.type());
        }
        try {
            dispatch(event);
        } catch (RuntimeException e) {
            // An event of an unexpected shape must not stop the session from being followed.
        }
    }

    /** Follows the event types that matter; everything else (deltas, notices...) is not even parsed further. */
    private void dispatch(CliEvent event) {
        switch (event.type()) {
            case "assistant.turn_start" -> turnStarted(event);
            case "assistant.turn_end" -> turnEnded(event);
            case "assistant.message" -> assistantMessage(event);
            case "tool.execution_start" -> toolStarted(event, event.data());
            case "tool.execution_complete" -> toolCompleted(event, event.data());
            case "user.message" -> userMessage(event);
            case "session.task_complete" -> taskComplete(event);
            case "session.error" -> sessionError(event);
            case "session.warning" -> listeners.forEach(l -> l.onWarning(event.dataText("warningType"), event.dataText("message")));
            case "session.info" -> {
                if ("cancellation".equals(event.dataText("infoType"))) {
                    synchronized (this) {
                        cancelled = true;
                    }
                }
                listeners.forEach(l -> l.onInfo(event.dataText("infoType"), event.dataText("message")));
            }
            case "session.managed_settings_enforced" -> policyEnforced(event);
            case "session.auto_mode_resolved" -> {
                String chosen = event.dataText("chosenModel");
                boolean fallback = event.data().path("fallback").asBoolean(false);
                synchronized (this) {
                    autoModeResolved = true;
                }
                listeners.forEach(l -> l.onAutoModeResolved(chosen, fallback));
            }
            case "abort" -> stopping();
            case "assistant.turn_retry" -> {
                synchronized (this) {
                    retries++;
                }
                String reason = event.dataText("reason");
                listeners.forEach(l -> l.onTurnRetry(reason, event.timestamp()));
            }
            case "session.autopilot_stopped" -> {
                String reason = event.dataText("reason");
                synchronized (this) {
                    autopilotStopReason = reason;
                    cancelled |= "aborted".equals(reason);
                }
                listeners.forEach(l -> l.onAutopilotStopped(reason));
            }
            case "assistant.idle", "session.idle" -> {
                synchronized (this) {
                    idle = true;
                    cancelled |= "true".equals(event.dataText("aborted"));
                }
                listeners.forEach(SessionListener::onIdle);
            }
            case "assistant.usage" -> usage(event);
            case "session.tools_updated", "model.call_start" -> rememberModel(event.dataText("model"));
            case "result" -> result(event.root());
            case CliEvent.CLI_FOUND, CliEvent.CHANGES_LEFT_OUT, CliEvent.VERIFY_STARTED, CliEvent.VERIFY_OUTPUT, CliEvent.AWAITING,
                 CliEvent.VERIFY_FINISHED -> script.follow(event, this, listeners);
            default -> {
                // other and future event types: recorded in the journal, nothing to follow here
            }
        }
    }

    private void turnStarted(CliEvent event) {
        if (isSubAgent(event)) {
            return;
        }
        Turn turn;
        synchronized (this) {
            if (openedAfterTheStop(event)) {
                currentTurn = null;
                return;
            }
            turn = new Turn(++turns, event.dataText("turnId"), event.timestamp());
            currentTurn = turn;
            idle = false;
            String id = event.id();
            if (id != null) {
                turnsByEventId.put(id, turn.number());
            }
        }
        listeners.forEach(l -> l.onTurnStarted(turn));
    }
    private void turnEnded(CliEvent event) {
        if (isSubAgent(event)) {
            return;
        }
        Turn turn;
        synchronized (this) {
            turn = currentTurn;
            currentTurn = null;
        }
        if (turn != null) {
            turn.end(event.timestamp());
            listeners.forEach(l -> l.onTurnEnded(turn));
        }
    }
    private void assistantMessage(CliEvent event) {
        rememberModel(event.dataText("model"));
        if (event.dataText("parentToolCallId") != null) {
            return;
        }
        String content = event.dataText("content");
        if (content == null || content.isBlank()) {
            return;
        }
        Turn turn;
        synchronized (this) {
            assistantMessages++;
            turn = currentTurn;
        }
        listeners.forEach(l -> l.onAssistantMessage(turn, content));
    }
    private void toolStarted(CliEvent event, JsonNode data) {
        ToolCall call;
        synchronized (this) {
            call = tools.start(event, data, currentTurn, turns);
        }
        listeners.forEach(l -> l.onToolStarted(call));
    }

    private void toolCompleted(CliEvent event, JsonNode data) {
        ToolCalls.Completed done;
        synchronized (this) {
            done = tools.complete(event, data, turns, policySetting != null);
            if (done.sandboxFailure() != null && firstError == null) {
                firstError = new SessionError(SandboxFailures.ERROR_TYPE, done.sandboxFailure(), null);
            }
        }
        listeners.forEach(l -> l.onToolCompleted(done.call()));
    }

    private void userMessage(CliEvent event) {
        boolean nudge = "autopilot".equals(event.dataText("source")) || "true".equals(event.dataText("isAutopilotContinuation"));
        if (!nudge) {
            return;
        }
        int n;
        synchronized (this) {
            n = ++nudges;
        }
        listeners.forEach(l -> l.onNudge(n));
    }
    private void taskComplete(CliEvent event) {
        TaskCompletion said = TaskCompletion.of(event);
        synchronized (this) {
            task = said.kept();
            if (said.seen()) {
                completions++;
            }
        }
        listeners.forEach(l -> l.onTaskComplete(said.summary(), said.success(), said.outcome(), said.blocker()));
    }

    private void policyEnforced(CliEvent event) {
        String setting = event.dataText("setting");
        String escalation = event.dataText("escalation");
        boolean failClosed = "true".equals(event.dataText("failClosed"));
        synchronized (this) {
            if (policySetting == null) {
                policySetting = setting == null || setting.isBlank() ? "managed settings" : setting;
            }
        }
        listeners.forEach(l -> l.onPolicyEnforced(setting, escalation, failClosed));
    }

    private void sessionError(CliEvent event) {
        SessionError error = new SessionError(event.dataText("errorType"), event.dataText("message"),
                statusCode(event.dataLong("statusCode")), event.dataText("errorCode"));
        synchronized (this) {
            if (firstError == null) {
                firstError = error;
                firstErrorRun = script.cliEnds();
            }
        }
        listeners.forEach(l -> l.onSessionError(error));
    }

    private void usage(CliEvent event) {
        Long in = event.dataLong("inputTokens");
        Long out = event.dataLong("outputTokens");
        synchronized (this) {
            if (in != null) {
                inputTokens = (inputTokens == null ? 0 : inputTokens) + in;
            }
            if (out != null) {
                outputTokens = (outputTokens == null ? 0 : outputTokens) + out;
            }
        }
        rememberModel(event.dataText("model"));
    }
    private synchronized void rememberModel(String name) {
        if (model == null && name != null && !name.isBlank()) {
            model = name;
        }
    }

    private void result(JsonNode root) {
        ResultInfo info = ResultInfo.of(root);
        synchronized (this) {
            result = info;
        }
        listeners.forEach(l -> l.onResult(info));
    }

    /**
     * Whether a later turn has started than the one whose start is {@code turnStartId} (a usage record's parent): false
     * while that turn runs, and for a start this tracker did not see.
     */
    public synchronized boolean laterTurnStarted(String turnStartId) {
        Integer turn = turnsByEventId.get(turnStartId);
        return turn != null && turn < turns;
    }

    /**
     * Follows a {@code session.usage_record} from the CLI's session state: it belongs to the turn whose start event
     * it names as its parent (else to the turn running now).
     */
    public UsageRecord acceptUsage(CliEvent event) {
        UsageRecord record;
        synchronized (this) {
            Integer turn = turnsByEventId.get(event.root().path("parentId").asText(""));
            record = UsageRecord.of(event, turn != null ? turn : currentTurn != null ? currentTurn.number() : turns);
            usage = usage.plus(record);
            inputTokens = usage.inputTokens();
            outputTokens = usage.outputTokens();
            rememberModel(record.model());
        }
        listeners.forEach(l -> l.onUsage(record));
        return record;
    }

    /** The model the CLI named first (its usage, its result), or null before it named one. */
    public synchronized String model() {
        return model;
    }

    /** What the model calls used so far. */
    public synchronized UsageTotals usage() {
        return usage;
    }

    /**
     * The session is being stopped (the CLI's own {@code abort} event, or ours before we signal it): a call running
     * now that then reports a failure, and a shell call whatever it reports (a killed command exits non-zero, or the
     * rest of its command line runs on and succeeds), end as {@link ToolStatus#INTERRUPTED}; a turn the CLI opens
     * afterwards calls no model and is not counted.
     */
    public synchronized void stopping() {
        stopping(null);
    }

    /**
     * {@link #stopping()}, decided at {@code at}: a turn the CLI opened before then (its own clock says so) was a model
     * call still, shown and counted, though it is read only now (the follower catching up after a restart, say).
     */
    public synchronized void stopping(Instant at) {
        if (!stopRequested || at == null) {
            stopAt = at;
        }
        stopRequested = true;
        script.stopping();
        tools.stopping();
    }

    /**
     * A stop decided at {@code at} by the follower before this one (the controller restarted since): it takes effect
     * where the CLI's events reach that time, as it did for that follower.
     */
    public synchronized void stoppedAt(Instant at) {
        stopDecidedBefore = at;
    }

    private void stopWhereItWasDecided(CliEvent event) {
        Instant at;
        synchronized (this) {
            at = stopDecidedBefore;
            if (at == null || event.timestamp() == null || event.timestamp().isBefore(at)) {
                return;
            }
            stopDecidedBefore = null;
        }
        stopping(at);
    }

    private boolean openedAfterTheStop(CliEvent turnStart) {
        return stopRequested && (stopAt == null || turnStart.timestamp() == null || !turnStart.timestamp().isBefore(stopAt));
    }

    /** The call that has been running longest and since when (this machine's {@link System#nanoTime}), or null. */
    public synchronized RunningCall longestRunningCall() {
        return tools.longestRunning();
    }

    /** Tool calls started and not completed. */
    public synchronized int runningToolCalls() {
        return tools.running();
    }

    /**
     * The session is over: calls that never completed end as {@link ToolStatus#INTERRUPTED} (counted as failed),
     * and listeners hear of each.
     */
    public void endRunningCalls() {
        endRunningCalls(null);
    }

    /** Like {@link #endRunningCalls()}; each call then ran until {@code endedAt} (when known). */
    public void endRunningCalls(java.time.Instant endedAt) {
        List<ToolCall> interrupted;
        synchronized (this) {
            interrupted = tools.endRunning();
        }
        for (ToolCall call : interrupted) {
            java.time.Duration ran = endedAt == null || call.startedAt() == null || endedAt.isBefore(call.startedAt()) ? null
                    : java.time.Duration.between(call.startedAt(), endedAt);
            call.complete(ToolStatus.INTERRUPTED, ran, "the session ended while it was running", null);
            listeners.forEach(l -> l.onToolCompleted(call));
        }
    }

    /**
     * The launch script waits to be told what comes next ({@link CliEvent#AWAITING}), or null: it printed something
     * else since.
     */
    public synchronized Awaiting awaiting() {
        return script.awaiting();
    }

    /** The launch script's wait: its {@code step} (1, 2, ...), after what ({@code cli} or {@code check}) and its exit code. */
    public record Awaiting(int step, String after, int exitCode) {
        public boolean afterCheck() {
            return "check".equals(after);
        }
    }

    /**
     * The error of the run of the CLI that just ended no longer decides the session: it is being continued after it
     * ({@code serviceRetries}). Called in the stream's order, as the run's end is read.
     */
    public synchronized void rideOut() {
        int refusedRun = script.rideOut();
        if (firstError != null && firstErrorRun == refusedRun) {
            firstError = null;
        }
    }

    /** How often the session was continued after GitHub's service refused it. */
    public synchronized int riddenOut() {
        return script.riddenOut();
    }

    /** Whether GitHub's routing chose a model for the session ({@code --model auto}: {@code session.auto_mode_resolved}). */
    public synchronized boolean autoModeResolved() {
        return autoModeResolved;
    }

    /** Whether the CLI is between its own retries of a model call the service refused (it prints nothing then). */
    public synchronized boolean backingOff() {
        return backingOff;
    }

    /** How many runs of the CLI have ended (the launch script waited after each): the number of the one running now. */
    public synchronized int cliEnds() {
        return script.cliEnds();
    }

    public synchronized int completions() {
        return completions;
    }

    /** Whether the agent's last {@code task_complete} said it is blocked. */
    public synchronized boolean lastCompletionBlocked() {
        return TaskBlockers.BLOCKED.equals(task.outcome());
    }

    /** Whether the launch script is at work between the CLI's runs: the acceptance check runs, or it waits to be told. */
    public synchronized boolean scriptWorking() {
        return script.working();
    }

    /** Tool calls the permission policy refused for a URL. */
    public synchronized int deniedFetches() {
        return tools.deniedFetches;
    }

    /** The distinct URLs refused, at most {@link UrlDenials#MAX_KEPT}. */
    public synchronized List<String> deniedUrls() {
        return tools.deniedUrls();
    }

    public synchronized SessionState state() {
        return new SessionState(events, plainLines, turns, tools.started, tools.failed, tools.denied,
                assistantMessages, nudges, retries, task.seen(), task.summary(), task.success(), firstError,
                autopilotStopReason, idle, result, model, inputTokens, outputTokens, activity(), task.outcome(), task.blocker(),
                tools.interrupted, policySetting, tools.policyDenied, cancelled);
    }

    /**
     * What the CLI printed before a restart could not be read again (its agent has not answered since): the session
     * is known from that point on only, and its activity is not "before any event".
     */
    public synchronized void earlierEventsUnread() {
        earlierEventsUnread = true;
    }

    /** What the agent was doing at this moment, in words. */
    private String activity() {
        ToolCall last = tools.lastRunning();
        if (last != null) {
            String args = last.argumentSummary().isEmpty() ? "" : " (" + Texts.truncate(last.argumentSummary(), 60) + ")";
            return "while tool '" + last.name() + "'" + args + " was running in turn " + last.turn();
        }
        if (script.waitingAfterRefusal()) {
            return "while waiting to continue the session after GitHub's service refused it";
        }
        if (result != null) {
            return "after the CLI printed its result";
        }
        if (task.seen()) {
            return "after the agent called task_complete";
        }
        if (currentTurn != null) {
            return "while waiting for the model in turn " + currentTurn.number();
        }
        if (events == 0 && earlierEventsUnread) {
            return "after Jenkins restarted, without what the CLI printed before (it is in the session's journal)";
        }
        if (events == 0) {
            return "before the CLI printed any event";
        }
        return "between turns (after turn " + turns + ")";
    }

    private static Integer statusCode(Long code) {
        return code == null || code != code.intValue() ? null : code.intValue();
    }

    private static boolean isSubAgent(CliEvent event) {
        return event.fromSubAgent() || event.dataText("parentToolCallId") != null;
    }

}
