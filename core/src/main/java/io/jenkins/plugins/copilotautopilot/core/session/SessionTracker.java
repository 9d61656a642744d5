package io.jenkins.plugins.copilotautopilot.core.session;

import io.jenkins.plugins.copilotautopilot.core.text.Texts;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;
import io.jenkins.plugins.copilotautopilot.core.events.StreamLine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
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
 * <p>Long because it is the one reader of the CLI's event vocabulary (one handler per event type, each a few lines,
 * as the CLI documents them); splitting it by event would scatter the state they share.
 */
public final class SessionTracker {
    /** Running tool calls kept at most (calls whose completion never arrives are dropped beyond this). */
    static final int MAX_RUNNING_CALLS = 1000;
    private static final int MAX_REMEMBERED_TURNS = 10_000;
    private static final int MAX_MODIFIED_FILES = 20;

    private final List<SessionListener> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, ToolCall> running = new LinkedHashMap<>();
    /** When each running call was seen starting, on this machine's clock (the CLI's may be another machine's). */
    private final Map<String, Long> runningSinceNanos = new java.util.HashMap<>();
    /** Calls dropped from {@link #running} (too many at once) whose completion may still come. */
    private int droppedCalls;
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
    private int toolCalls;
    private int failedToolCalls;
    private int interruptedToolCalls;
    private int deniedToolCalls;
    private int deniedFetches;
    /** The exit code listeners get for a check a stop cut short. */
    public static final int STOPPED_VERIFY = -2;
    private boolean verifyRunning;
    private int verifyRounds;
    private Integer verifyExitCode;
    private Awaiting awaiting;
    private int completions;
    /** How often the CLI ended and the launch script waited to be told what comes next (one per run of the CLI). */
    private int cliEnds;
    private final java.util.Set<String> deniedUrls = new java.util.LinkedHashSet<>();
    private int assistantMessages;
    private int nudges;
    private int retries;
    private boolean taskCompleteSeen;
    private String taskSummary;
    private Boolean taskSuccess;
    private String taskOutcome;
    private String taskBlocker;
    private SessionError firstError;
    /** The run of the CLI ({@link #cliEnds()} when it came) that {@link #firstError} came from. */
    private int firstErrorRun;
    private int riddenOut;
    /** Ride-outs whose run of the CLI has started again: the one after {@link #riddenOut} is being waited for. */
    private int riddenOutAnswered;
    private boolean backingOff;
    private boolean autoModeResolved;
    private String autopilotStopReason;
    private boolean idle;
    private boolean cancelled;
    /** The managed setting that overrode the session's tool permissions, or null: denials after it are the policy's. */
    private String policySetting;
    private int policyDeniedToolCalls;
    /** Calls running when the session was being stopped: a failure they report afterwards is the stop's doing. */
    private final java.util.Set<String> cutOffByStop = new java.util.HashSet<>();
    /** Set once the session is being stopped: a turn the CLI opens after that calls no model and is not one. */
    private boolean stopRequested;
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
        synchronized (this) {
            events++;
            if (awaiting != null && !awaiting.afterCheck()) {
                riddenOutAnswered = riddenOut;
            }
            awaiting = null; // whatever the launch script or the CLI prints next, the script has moved on
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
            case CliEvent.CLI_FOUND -> listeners.forEach(l -> l.onCliFound(event.dataText("path"), event.dataText("version")));
            case CliEvent.CHANGES_LEFT_OUT -> {
                JsonNode data = event.data();
                listeners.forEach(l -> l.onChangesLeftOut(data.path("files").asLong(), data.path("kilobytes").asLong(),
                        data.path("maxFiles").asLong(), data.path("maxKilobytes").asLong()));
            }
            case CliEvent.VERIFY_STARTED -> {
                int round = event.data().path("round").asInt();
                synchronized (this) {
                    verifyRunning = true;
                    verifyRounds = Math.max(verifyRounds, round);
                }
                listeners.forEach(l -> l.onVerifyStarted(round, event.timestamp()));
            }
            case CliEvent.VERIFY_OUTPUT -> {
                String text = event.dataText("text");
                listeners.forEach(l -> l.onVerifyOutput(text == null ? "" : text));
            }
            case CliEvent.AWAITING -> {
                JsonNode data = event.data();
                synchronized (this) {
                    awaiting = new Awaiting(data.path("step").asInt(), data.path("after").asText(""),
                            data.path("exitCode").asInt(-1));
                    if (!awaiting.afterCheck()) {
                        cliEnds++;
                    }
                }
                Awaiting waits = awaiting();
                if (waits != null) {
                    listeners.forEach(l -> l.onAwaiting(waits, event.timestamp()));
                }
            }
            case CliEvent.VERIFY_FINISHED -> {
                int round = event.data().path("round").asInt();
                int exit = event.data().path("exitCode").asInt(-1);
                boolean cut;
                synchronized (this) {
                    // the launch script saw the stop, or the stop's signal ended it first
                    cut = event.data().path("stopped").asBoolean(false) || stopRequested && exit > 128;
                    verifyRunning = false;
                    verifyExitCode = cut ? null : exit; // a check the stop cut short said nothing
                }
                listeners.forEach(l -> l.onVerifyFinished(round, cut ? STOPPED_VERIFY : exit, event.timestamp()));
            }
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
            if (stopRequested) {
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
        String name = textOr(data, "toolName", "unknown tool");
        String id = textOr(data, "toolCallId", "");
        ToolCall call;
        synchronized (this) {
            Turn turn = currentTurn;
            call = new ToolCall(id, name, ArgumentSummary.of(name, data.path("arguments")),
                    turn == null ? turns : turn.number(), event.timestamp());
            call.commandUrls(UrlDenials.urlsIn(data));
            toolCalls++;
            if (turn != null) {
                turn.countToolCall();
            }
            if (!running.isEmpty()) {
                running.values().forEach(other -> other.overlapping(true));
                call.overlapping(true);
            }
            running.put(id, call);
            runningSinceNanos.put(id, System.nanoTime());
            if (running.size() > MAX_RUNNING_CALLS) {
                Iterator<String> oldest = running.keySet().iterator();
                runningSinceNanos.remove(oldest.next());
                oldest.remove();
                droppedCalls++;
            }
        }
        listeners.forEach(l -> l.onToolStarted(call));
    }

    private void toolCompleted(CliEvent event, JsonNode data) {
        String id = textOr(data, "toolCallId", "");
        ToolCall call;
        boolean cutOff;
        synchronized (this) {
            call = running.remove(id);
            runningSinceNanos.remove(id);
            cutOff = cutOffByStop.remove(id);
            if (call == null) {
                // completion without a start we kept: counted when it started if it was dropped, else now
                call = new ToolCall(id, textOr(data, "toolName", "unknown tool"), "", turns, null);
                if (droppedCalls > 0) {
                    droppedCalls--;
                } else {
                    toolCalls++;
                }
            }
        }
        JsonNode error = data.path("error");
        boolean failed = data.has("success") ? !data.path("success").asBoolean(true) : error.isObject();
        boolean denied = failed && "denied".equals(text(error, "code"));
        String output = ShellMarker.strip(text(data.path("result"), "content"));
        String message = failed ? textOr(error, "message", "failed") : null;
        // A shell command that exits non-zero is a "successful" tool run for the CLI, but a failure for the user.
        JsonNode exitCode = data.path("shellExecution").path("exitCode");
        if (!failed && exitCode.canConvertToInt() && exitCode.asInt() != 0) {
            failed = true;
            String firstLine = output == null ? "" : output.strip().lines().findFirst().orElse("");
            message = "exit code " + exitCode.asInt() + (firstLine.isEmpty() ? "" : ": " + Texts.truncate(firstLine, 200));
        }
        ToolStatus status = denied ? ToolStatus.DENIED : failed ? ToolStatus.FAILED : ToolStatus.SUCCEEDED;
        boolean shell = data.has("shellExecution");
        if (cutOff && (status == ToolStatus.FAILED || shell && status == ToolStatus.SUCCEEDED)) {
            // the CLI was stopped mid-call and killed the tool's command (a later command of the same shell line may
            // still run and succeed): neither the shell's exit code nor its success says the command did its work
            status = ToolStatus.INTERRUPTED;
            message = "the session was stopped while it was running" + (message == null ? "" : " (" + message + ")");
        }
        Instant end = event.timestamp();
        Duration duration = call.startedAt() == null || end == null ? null : Duration.between(call.startedAt(), end);
        call.complete(status, duration, message, output);
        if (status == ToolStatus.DENIED) {
            call.deniedUrls(UrlDenials.denied(message, call.commandUrls()));
        }
        String sandboxFailure = SandboxFailures.describe(data, output);
        synchronized (this) {
            if (sandboxFailure != null && firstError == null) {
                firstError = new SessionError(SandboxFailures.ERROR_TYPE, sandboxFailure, null);
            }
            if (status == ToolStatus.DENIED) {
                deniedToolCalls++;
                if (policySetting != null) {
                    policyDeniedToolCalls++;
                }
                if (!call.deniedUrls().isEmpty()) {
                    deniedFetches++;
                    for (String url : call.deniedUrls()) {
                        if (deniedUrls.size() < UrlDenials.MAX_KEPT) {
                            deniedUrls.add(url);
                        }
                    }
                }
            } else if (status == ToolStatus.FAILED) {
                failedToolCalls++;
            } else if (status == ToolStatus.INTERRUPTED) {
                interruptedToolCalls++;
            }
        }
        ToolCall done = call;
        listeners.forEach(l -> l.onToolCompleted(done));
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
        String summary = event.dataText("summary");
        String success = event.dataText("success");
        Boolean ok = "true".equals(success) ? Boolean.TRUE : "false".equals(success) ? Boolean.FALSE : null;
        String outcome = event.dataText("outcome");
        String blocker = TaskBlockers.describe(event.data() == null ? null : event.data().get("blocker"));
        // "continue" is the CLI's reviewer sending the agent back to work: no completion
        boolean completion = !TaskBlockers.CONTINUE.equals(outcome);
        synchronized (this) {
            taskCompleteSeen = completion;
            if (completion) {
                completions++;
            }
            taskSummary = completion ? summary : null;
            taskSuccess = completion ? ok : null;
            taskOutcome = outcome;
            taskBlocker = blocker;
        }
        listeners.forEach(l -> l.onTaskComplete(summary, ok, outcome, blocker));
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
                integer(event.dataText("statusCode")), event.dataText("errorCode"));
        synchronized (this) {
            if (firstError == null) {
                firstError = error;
                firstErrorRun = cliEnds;
            }
        }
        listeners.forEach(l -> l.onSessionError(error));
    }

    private static Integer integer(String text) {
        try {
            return text == null ? null : Integer.valueOf(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long longValue(String text) {
        try {
            return text == null ? null : Long.valueOf(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }
    private void usage(CliEvent event) {
        Long in = longValue(event.dataText("inputTokens"));
        Long out = longValue(event.dataText("outputTokens"));
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
        JsonNode usage = root.path("usage");
        JsonNode changes = usage.path("codeChanges");
        JsonNode files = changes.path("filesModified");
        List<String> someFiles = new ArrayList<>();
        int fileCount = 0;
        if (files.isArray()) {
            fileCount = files.size();
            for (JsonNode file : files) {
                if (someFiles.size() < MAX_MODIFIED_FILES) {
                    someFiles.add(file.asText());
                }
            }
        }
        ResultInfo info = new ResultInfo(
                text(root, "sessionId"),
                root.path("exitCode").canConvertToInt() ? root.path("exitCode").asInt() : null,
                usage.path("premiumRequests").isNumber() ? usage.path("premiumRequests").asDouble() : null,
                usage.path("totalApiDurationMs").canConvertToLong() ? usage.path("totalApiDurationMs").asLong() : null,
                usage.path("sessionDurationMs").canConvertToLong() ? usage.path("sessionDurationMs").asLong() : null,
                changes.path("linesAdded").asLong(0), changes.path("linesRemoved").asLong(0), fileCount,
                List.copyOf(someFiles));
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
        stopRequested = true;
        cutOffByStop.addAll(running.keySet());
    }

    /** The call that has been running longest and since when (this machine's {@link System#nanoTime}), or null. */
    public synchronized RunningCall longestRunningCall() {
        RunningCall longest = null;
        for (Map.Entry<String, ToolCall> e : running.entrySet()) {
            Long since = runningSinceNanos.get(e.getKey());
            if (since != null && (longest == null || since < longest.sinceNanos())) {
                longest = new RunningCall(e.getValue(), since);
            }
        }
        return longest;
    }

    /** A call that runs, and since when it was seen running. */
    public record RunningCall(ToolCall call, long sinceNanos) {
    }

    /** Tool calls started and not completed. */
    public synchronized int runningToolCalls() {
        return running.size();
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
            interrupted = new ArrayList<>(running.values());
            running.clear();
            runningSinceNanos.clear();
            cutOffByStop.clear();
            interruptedToolCalls += interrupted.size();
        }
        for (ToolCall call : interrupted) {
            java.time.Duration ran = endedAt == null || call.startedAt() == null || endedAt.isBefore(call.startedAt()) ? null
                    : java.time.Duration.between(call.startedAt(), endedAt);
            call.complete(ToolStatus.INTERRUPTED, ran, "the session ended while it was running", null);
            listeners.forEach(l -> l.onToolCompleted(call));
        }
    }

    /** Whether the acceptance check is running now (the CLI is not: no event is due). */
    /**
     * The launch script waits to be told what comes next ({@link CliEvent#AWAITING}), or null: it printed something
     * else since.
     */
    public synchronized Awaiting awaiting() {
        return awaiting;
    }

    /** The launch script's wait: its {@code step} (1, 2, ...), after what ({@code cli} or {@code check}) and its exit code. */
    public record Awaiting(int step, String after, int exitCode) {
        public boolean afterCheck() {
            return "check".equals(after);
        }
    }

    /** How many {@code session.task_complete} events the session's stream held so far (each CLI run's own). */
    /**
     * The error of the run of the CLI that just ended no longer decides the session: it is being continued after it
     * ({@code serviceRetries}). Called in the stream's order, as the run's end is read.
     */
    public synchronized void rideOut() {
        if (firstError != null && firstErrorRun == cliEnds - 1) {
            firstError = null;
        }
        riddenOut++;
    }

    /** How often the session was continued after GitHub's service refused it. */
    public synchronized int riddenOut() {
        return riddenOut;
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
        return cliEnds;
    }

    public synchronized int completions() {
        return completions;
    }

    /** Whether the agent's last {@code task_complete} said it is blocked. */
    public synchronized boolean lastCompletionBlocked() {
        return TaskBlockers.BLOCKED.equals(taskOutcome);
    }

    /** Whether the launch script is at work between the CLI's runs: the acceptance check runs, or it waits to be told. */
    public synchronized boolean scriptWorking() {
        return verifyRunning || awaiting != null;
    }

    public synchronized boolean verifyRunning() {
        return verifyRunning;
    }

    /** How often the acceptance check ran. */
    public synchronized int verifyRounds() {
        return verifyRounds;
    }

    /** The exit code of its last run, or null when it never ended. */
    public synchronized Integer verifyExitCode() {
        return verifyExitCode;
    }

    /** Tool calls the permission policy refused for a URL. */
    public synchronized int deniedFetches() {
        return deniedFetches;
    }

    /** The distinct URLs refused, at most {@link UrlDenials#MAX_KEPT}. */
    public synchronized List<String> deniedUrls() {
        return List.copyOf(deniedUrls);
    }

    public synchronized SessionState state() {
        return new SessionState(events, plainLines, turns, toolCalls, failedToolCalls, deniedToolCalls,
                assistantMessages, nudges, retries, taskCompleteSeen, taskSummary, taskSuccess, firstError,
                autopilotStopReason, idle, result, model, inputTokens, outputTokens, activity(), taskOutcome, taskBlocker,
                interruptedToolCalls, policySetting, policyDeniedToolCalls, cancelled);
    }

    /** What the agent was doing at this moment, in words. */
    private String activity() {
        if (!running.isEmpty()) {
            ToolCall last = null;
            for (ToolCall call : running.values()) {
                last = call;
            }
            String args = last.argumentSummary().isEmpty() ? "" : " (" + Texts.truncate(last.argumentSummary(), 60) + ")";
            return "while tool '" + last.name() + "'" + args + " was running in turn " + last.turn();
        }
        if (awaiting != null && !awaiting.afterCheck() && riddenOut > riddenOutAnswered) {
            return "while waiting to continue the session after GitHub's service refused it";
        }
        if (result != null) {
            return "after the CLI printed its result";
        }
        if (taskCompleteSeen) {
            return "after the agent called task_complete";
        }
        if (currentTurn != null) {
            return "while waiting for the model in turn " + currentTurn.number();
        }
        if (events == 0) {
            return "before the CLI printed any event";
        }
        return "between turns (after turn " + turns + ")";
    }

    private static boolean isSubAgent(CliEvent event) {
        return event.fromSubAgent() || event.dataText("parentToolCallId") != null;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || value.isNull() || value.isContainerNode() ? null : value.asText();
    }

    private static String textOr(JsonNode node, String field, String fallback) {
        String value = text(node, field);
        return value == null || value.isBlank() ? fallback : value;
    }
}
