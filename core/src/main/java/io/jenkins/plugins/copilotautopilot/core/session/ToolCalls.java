package io.jenkins.plugins.copilotautopilot.core.session;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A session's tool calls: those running (for the per-call limit and what the agent was doing), what each ended as (a
 * shell command's exit code, a denial and the URLs it names, a call the stop cut short), and the counts. Not thread-safe:
 * its {@link SessionTracker} calls it under its own lock.
 */
final class ToolCalls {
    /** Running tool calls kept at most (calls whose completion never arrives are dropped beyond this). */
    static final int MAX_RUNNING_CALLS = 1000;

    private final Map<String, ToolCall> running = new LinkedHashMap<>();
    /** When each running call was seen starting, on this machine's clock (the CLI's may be another machine's). */
    private final Map<String, Long> runningSinceNanos = new HashMap<>();
    /** Calls dropped from {@link #running} (too many at once) whose completion may still come. */
    private int droppedCalls;
    /** Calls running when the session was being stopped: a failure they report afterwards is the stop's doing. */
    private final Set<String> cutOffByStop = new HashSet<>();
    private final Set<String> deniedUrls = new LinkedHashSet<>();
    int started;
    int failed;
    int interrupted;
    int denied;
    int deniedFetches;
    int policyDenied;

    /** A call starts ({@code tool.execution_start}) in {@code turn} (null between turns: then the turn {@code turns}). */
    ToolCall start(CliEvent event, JsonNode data, Turn turn, int turns) {
        String name = textOr(data, "toolName", "unknown tool");
        String id = textOr(data, "toolCallId", "");
        ToolCall call = new ToolCall(id, name, ArgumentSummary.of(name, data.path("arguments")),
                turn == null ? turns : turn.number(), event.timestamp());
        call.commandUrls(UrlDenials.urlsIn(data));
        started++;
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
        return call;
    }

    /**
     * A call ends ({@code tool.execution_complete}): what it ended as, counted.
     *
     * @param policyActive whether the organisation's policy overrode the permissions: a denial is then the policy's
     * @return the call, and what the sandbox said when it kept the call from running (null when it did not)
     */
    Completed complete(CliEvent event, JsonNode data, int turns, boolean policyActive) {
        String id = textOr(data, "toolCallId", "");
        ToolCall call = running.remove(id);
        runningSinceNanos.remove(id);
        boolean cutOff = cutOffByStop.remove(id);
        if (call == null) {
            // completion without a start we kept: counted when it started if it was dropped, else now
            call = new ToolCall(id, textOr(data, "toolName", "unknown tool"), "", turns, null);
            if (droppedCalls > 0) {
                droppedCalls--;
            } else {
                started++;
            }
        }
        JsonNode error = data.path("error");
        boolean failedCall = data.has("success") ? !data.path("success").asBoolean(true) : error.isObject();
        boolean deniedCall = failedCall && "denied".equals(text(error, "code"));
        String output = ShellMarker.strip(text(data.path("result"), "content"));
        String message = failedCall ? textOr(error, "message", "failed") : null;
        // A shell command that exits non-zero is a "successful" tool run for the CLI, but a failure for the user.
        JsonNode exitCode = data.path("shellExecution").path("exitCode");
        if (!failedCall && exitCode.canConvertToInt() && exitCode.asInt() != 0) {
            failedCall = true;
            String firstLine = output == null ? "" : output.strip().lines().findFirst().orElse("");
            message = "exit code " + exitCode.asInt() + (firstLine.isEmpty() ? "" : ": " + Texts.truncate(firstLine, 200));
        }
        ToolStatus status = deniedCall ? ToolStatus.DENIED : failedCall ? ToolStatus.FAILED : ToolStatus.SUCCEEDED;
        boolean shell = data.has("shellExecution");
        if (cutOff && (status == ToolStatus.FAILED || shell && status == ToolStatus.SUCCEEDED)) {
            // the CLI was stopped mid-call and killed the tool's command (a later command of the same shell line may
            // still run and succeed): neither the shell's exit code nor its success says the command did its work
            status = ToolStatus.INTERRUPTED;
            message = "the session was stopped while it was running" + (message == null ? "" : " (" + message + ")");
        }
        Instant end = event.timestamp();
        call.complete(status, call.startedAt() == null || end == null ? null : Duration.between(call.startedAt(), end), message, output);
        if (status == ToolStatus.DENIED) {
            call.deniedUrls(UrlDenials.denied(message, call.commandUrls()));
        }
        count(call, policyActive);
        return new Completed(call, SandboxFailures.describe(data, output));
    }

    /** A call that ended, and what the sandbox said when it kept the call from running, or null. */
    record Completed(ToolCall call, String sandboxFailure) {
    }

    private void count(ToolCall call, boolean policyActive) {
        switch (call.status()) {
            case DENIED -> {
                denied++;
                if (policyActive) {
                    policyDenied++;
                }
                if (!call.deniedUrls().isEmpty()) {
                    deniedFetches++;
                    for (String url : call.deniedUrls()) {
                        if (deniedUrls.size() < UrlDenials.MAX_KEPT) {
                            deniedUrls.add(url);
                        }
                    }
                }
            }
            case FAILED -> failed++;
            case INTERRUPTED -> interrupted++;
            default -> {
                // succeeded
            }
        }
    }

    /** The session is being stopped: a call running now that then reports a failure was cut short by the stop. */
    void stopping() {
        cutOffByStop.addAll(running.keySet());
    }

    /** The call that has been running longest and since when (this machine's {@link System#nanoTime}), or null. */
    RunningCall longestRunning() {
        RunningCall longest = null;
        for (Map.Entry<String, ToolCall> e : running.entrySet()) {
            Long since = runningSinceNanos.get(e.getKey());
            if (since != null && (longest == null || since < longest.sinceNanos())) {
                longest = new RunningCall(e.getValue(), since);
            }
        }
        return longest;
    }

    int running() {
        return running.size();
    }

    /** The call that started last of those running, or null. */
    ToolCall lastRunning() {
        ToolCall last = null;
        for (ToolCall call : running.values()) {
            last = call;
        }
        return last;
    }

    /** The session is over: the calls still running, taken out and counted as interrupted. */
    List<ToolCall> endRunning() {
        List<ToolCall> ended = new ArrayList<>(running.values());
        running.clear();
        runningSinceNanos.clear();
        cutOffByStop.clear();
        interrupted += ended.size();
        return ended;
    }

    List<String> deniedUrls() {
        return List.copyOf(deniedUrls);
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || value.isNull() || value.isContainerNode() ? null : value.asText();
    }

    static String textOr(JsonNode node, String field, String fallback) {
        String value = text(node, field);
        return value == null || value.isBlank() ? fallback : value;
    }
}
