package io.jenkins.plugins.copilotautopilot.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.events.StreamLine;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.session.SessionError;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.session.ToolCall;
import io.jenkins.plugins.copilotautopilot.core.session.ToolStatus;
import io.jenkins.plugins.copilotautopilot.core.session.Turn;
import io.jenkins.plugins.copilotautopilot.core.text.ConsoleText;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link SessionReport} from a recorded journal, reading it once, line by line, with the same
 * tracker that followed the live session. Memory is bounded whatever the journal's length: deltas and other
 * noise are never kept, and turns, tool calls per turn, messages and excerpts are capped.
 */
public final class SessionReportReader {
    /** Turns kept in detail. */
    public static final int MAX_TURNS = 300;
    /** Tool calls kept per turn. */
    public static final int MAX_TOOL_CALLS_PER_TURN = 100;
    /** Messages kept per turn. */
    public static final int MAX_MESSAGES_PER_TURN = 20;
    /** Characters kept per message. */
    public static final int MAX_MESSAGE = 8_000;
    /** Errors kept per turn. */
    public static final int MAX_ERRORS = 20;
    static final int MAX_PROMPT = 4_000;
    /** Calls that waited for a person, kept at most. */
    public static final int MAX_APPROVALS = 1_000;

    private SessionReportReader() {
    }

    public static SessionReport read(Path journal) throws IOException {
        try (BufferedReader reader = new BufferedReader(new java.io.InputStreamReader(
                io.jenkins.plugins.copilotautopilot.core.journal.JournalFiles.open(journal), StandardCharsets.UTF_8))) {
            return read(reader);
        }
    }

    public static SessionReport read(Reader journal) throws IOException {
        BufferedReader reader = journal instanceof BufferedReader b ? b : new BufferedReader(journal);
        EventParser parser = new EventParser();
        SessionTracker tracker = new SessionTracker();
        Collector collector = new Collector();
        tracker.addListener(collector);
        String line;
        while ((line = reader.readLine()) != null) {
            StreamLine parsed = parser.parse(line);
            if (parsed instanceof CliEvent event && EventJournal.STOPPING.equals(event.type())) {
                tracker.stopping(event.timestamp());
            } else if (parsed instanceof CliEvent event && event.type().startsWith(EventJournal.OWN_TYPE_PREFIX)
                    && !CliEvent.fromLaunchScript(event.type())) {
                collector.own(event);
            } else if (parsed instanceof CliEvent event) {
                tracker.accept(event);
            }
        }
        if (collector.finished != null) {
            // as the follower did when the run ended: nothing is still running; a call ran until the run ended
            tracker.endRunningCalls(collector.endedAt);
        }
        return collector.report(tracker.state());
    }

    /** Gathers what the report shows while the tracker reads the journal. */
    private static final class Collector implements SessionListener {
        private final List<TurnBuilder> turns = new ArrayList<>();
        private final Map<ToolCall, int[]> callSlots = new IdentityHashMap<>();
        /** Every call kept, where it is, in the order they started (a call's approval may be decided after it ended). */
        private final Map<ToolCall, int[]> keptCalls = new java.util.LinkedHashMap<>();
        /** Calls that waited for approval: the request's id, {@link ToolCallReport#AWAITING_APPROVAL} or the verdict, the wait. */
        private final Map<ToolCall, String[]> approvalOf = new IdentityHashMap<>();
        /** Requests that came before their call was announced: id to tool. */
        private final Map<String, String> unplacedApprovals = new java.util.LinkedHashMap<>();
        private int omittedTurns;
        private boolean nudged;
        private Instant verifyStartedAt;
        private final StringBuilder verifyOutput = new StringBuilder();
        private TurnBuilder current;
        private String prompt;
        private String model;
        private String cliVersion;
        private String label;
        private Instant startedAt;
        private Instant endedAt;
        JsonNode finished;
        private WorkTreeChanges changes;
        private final List<ApprovalReport> approvals = new ArrayList<>();
        private long usageCalls;
        private long inputTokens;
        private long outputTokens;
        private long creditedCalls;
        private double aiCredits;

        void own(CliEvent event) {
            JsonNode data = event.data();
            switch (event.type()) {
                case EventJournal.RUN_STARTED -> {
                    prompt = clean(Texts.truncate(text(data, "prompt"), MAX_PROMPT));
                    model = text(data, "model");
                    cliVersion = text(data, "cliVersion");
                    label = clean(text(data.path("plan"), "label"));
                    startedAt = instant(event.root().path("timestamp").asText(null));
                }
                case EventJournal.RUN_FINISHED -> {
                    finished = data;
                    endedAt = instant(event.root().path("timestamp").asText(null));
                }
                case EventJournal.USAGE -> {
                    long in = data.path("inputTokens").asLong(0);
                    long out = data.path("outputTokens").asLong(0);
                    usageCalls++;
                    if (data.path("aiCredits").isNumber()) {
                        creditedCalls++;
                        aiCredits += data.path("aiCredits").asDouble();
                    }
                    inputTokens += in;
                    outputTokens += out;
                    TurnBuilder builder = byNumber(data.path("turn").asInt(0));
                    if (builder != null) {
                        builder.inputTokens += in;
                        builder.outputTokens += out;
                    }
                }
                case EventJournal.CHANGES -> changes = changes(data);
                case EventJournal.APPROVAL_REQUESTED -> approvalRequested(text(data, "id"), text(data, "tool"));
                case EventJournal.APPROVAL_DECIDED -> {
                    approvalDecided(text(data, "id"), text(data, "verdict"), instant(text(data, "requestedAt")),
                            instant(text(data, "at")));
                    if (approvals.size() < MAX_APPROVALS) {
                        approvals.add(new ApprovalReport(text(data, "tool"), clean(Texts.truncate(text(data, "arguments"), MAX_MESSAGE)),
                                text(data, "pattern"), text(data, "requestedAt"), text(data, "verdict"), text(data, "by"), text(data, "at")));
                    }
                }
                default -> {
                    // stderr and other CLI output are in the journal, not in the report
                }
            }
        }

        /**
         * The call that waits: the CLI announces a call before its hook asks (the latest running call of that tool);
         * a request that comes first waits for the next call of its tool.
         */
        private void approvalRequested(String id, String tool) {
            ToolCall waiting = null;
            for (ToolCall call : keptCalls.keySet()) {
                if (callSlots.containsKey(call) && call.name().equals(tool) && !approvalOf.containsKey(call)) {
                    waiting = call; // in the order they started: the latest running one wins
                }
            }
            if (waiting == null) {
                unplacedApprovals.put(id, tool);
                return;
            }
            approvalOf.put(waiting, new String[] {id, ToolCallReport.AWAITING_APPROVAL, "-1"});
            refresh(waiting);
        }

        private void approvalDecided(String id, String verdict, Instant requestedAt, Instant at) {
            unplacedApprovals.remove(id);
            for (java.util.Map.Entry<ToolCall, String[]> e : approvalOf.entrySet()) {
                if (e.getValue()[0].equals(id)) {
                    long waited = requestedAt == null || at == null ? -1 : Math.max(0, Duration.between(requestedAt, at).toMillis());
                    e.setValue(new String[] {id, verdict, String.valueOf(waited)});
                    refresh(e.getKey());
                    return;
                }
            }
        }

        /** The call's entry in its turn again, with what is known of its approval. */
        private void refresh(ToolCall call) {
            int[] slot = keptCalls.get(call);
            if (slot != null) {
                byNumber(slot[0]).calls.set(slot[1], report(call));
            }
        }

        @Override
        public void onTurnStarted(Turn turn) {
            if (turns.size() >= MAX_TURNS) {
                omittedTurns++;
                current = null;
            } else {
                current = new TurnBuilder(turn, nudged);
                turns.add(current);
            }
            nudged = false;
        }

        @Override
        public void onTurnEnded(Turn turn) {
            TurnBuilder builder = byNumber(turn.number());
            if (builder != null) {
                builder.end = turn.endedAt();
            }
        }

        @Override
        public void onAssistantMessage(Turn turn, String content) {
            TurnBuilder builder = turn == null ? current : byNumber(turn.number());
            if (builder != null && builder.messages.size() < MAX_MESSAGES_PER_TURN) {
                builder.messages.add(clean(Texts.truncate(content.strip(), MAX_MESSAGE)));
            }
        }

        @Override
        public void onToolStarted(ToolCall call) {
            TurnBuilder builder = byNumber(call.turn());
            if (builder == null) {
                return;
            }
            if (builder.calls.size() >= MAX_TOOL_CALLS_PER_TURN) {
                builder.omittedCalls++;
                return;
            }
            callSlots.put(call, new int[] {call.turn(), builder.calls.size()});
            keptCalls.put(call, new int[] {call.turn(), builder.calls.size()});
            java.util.Iterator<java.util.Map.Entry<String, String>> unplaced = unplacedApprovals.entrySet().iterator();
            while (unplaced.hasNext()) {
                java.util.Map.Entry<String, String> request = unplaced.next();
                if (request.getValue().equals(call.name())) {
                    approvalOf.put(call, new String[] {request.getKey(), ToolCallReport.AWAITING_APPROVAL, "-1"});
                    unplaced.remove();
                    break;
                }
            }
            builder.calls.add(report(call));
        }

        @Override
        public void onToolCompleted(ToolCall call) {
            int[] slot = callSlots.remove(call);
            if (slot != null) {
                byNumber(slot[0]).calls.set(slot[1], report(call));
            } else {
                onToolStarted(call); // a completion without a start we saw
                callSlots.remove(call);
            }
        }

        /** The acceptance check's rounds are drawn as calls of a tool named {@code verify}, in the turn they follow. */
        @Override
        public void onVerifyStarted(int round, Instant at) {
            verifyStartedAt = at;
            verifyOutput.setLength(0);
        }

        @Override
        public void onVerifyOutput(String line) {
            if (verifyOutput.length() < ToolCall.MAX_OUTPUT_EXCERPT) {
                verifyOutput.append(line).append('\n');
            }
        }

        @Override
        public void onVerifyFinished(int round, int exitCode, Instant at) {
            TurnBuilder builder = turns.isEmpty() ? null : turns.get(turns.size() - 1);
            if (builder == null || builder.calls.size() >= MAX_TOOL_CALLS_PER_TURN) {
                return;
            }
            long millis = verifyStartedAt == null || at == null ? -1 : Math.max(0, Duration.between(verifyStartedAt, at).toMillis());
            boolean cut = exitCode == SessionTracker.STOPPED_VERIFY;
            builder.calls.add(new ToolCallReport("verify", "round " + round,
                    cut ? ToolStatus.INTERRUPTED : exitCode == 0 ? ToolStatus.SUCCEEDED : ToolStatus.FAILED,
                    verifyStartedAt, millis, cut ? "stopped with the session" : exitCode == 0 ? null : "exit code " + exitCode,
                    clean(Texts.truncate(verifyOutput.toString().strip(), ToolCall.MAX_OUTPUT_EXCERPT))));
            verifyStartedAt = null;
        }

        @Override
        public void onNudge(int nudgeNumber) {
            nudged = true;
        }

        @Override
        public void onSessionError(SessionError error) {
            TurnBuilder builder = current != null ? current : turns.isEmpty() ? null : turns.get(turns.size() - 1);
            if (builder != null && builder.errors.size() < MAX_ERRORS) {
                builder.errors.add(clean(error.describe()));
            }
        }

        @Override
        public void onResult(ResultInfo result) {
            // totals come from the tracker's state
        }

        private TurnBuilder byNumber(int number) {
            int index = number - 1;
            return index >= 0 && index < turns.size() ? turns.get(index) : null;
        }

        private ToolCallReport report(ToolCall call) {
            Duration d = call.duration();
            String[] approval = approvalOf.get(call);
            String verdict = approval == null ? null : approval[1];
            if (verdict != null && verdict.equals(ToolCallReport.AWAITING_APPROVAL) && call.status() != null
                    && call.status() != ToolStatus.RUNNING) {
                verdict = null; // ended before anyone decided (the session's end): its status says how
            }
            return new ToolCallReport(clean(call.name()), clean(call.argumentSummary()), call.status(),
                    call.startedAt(), d == null ? -1 : d.toMillis(), clean(call.error()), clean(call.outputExcerpt()),
                    verdict, approval == null ? -1 : Long.parseLong(approval[2]));
        }

        SessionReport report(SessionState state) {
            List<TurnReport> turnReports = new ArrayList<>(turns.size());
            for (TurnBuilder t : turns) {
                turnReports.add(t.build());
            }
            ResultInfo result = state.result();
            JsonNode f = finished;
            Double premium = result != null ? result.premiumRequests()
                    : f != null && f.path("premiumRequests").isNumber() ? f.path("premiumRequests").asDouble() : null;
            SessionReport.Totals totals = new SessionReport.Totals(state.turns(), state.toolCalls(),
                    state.failedToolCalls(), state.deniedToolCalls(), state.nudges(), premium,
                    usageCalls > 0 ? Long.valueOf(inputTokens) : state.inputTokens(),
                    usageCalls > 0 ? Long.valueOf(outputTokens) : state.outputTokens(),
                    changes != null ? changes.linesAdded() : result == null ? 0 : result.linesAdded(),
                    changes != null ? changes.linesRemoved() : result == null ? 0 : result.linesRemoved(),
                    changes != null ? changes.fileCount() : result == null ? 0 : result.filesModified(), state.events(),
                    f != null && f.has("aiCreditsStatus") ? (f.path("aiCredits").isNumber() ? f.path("aiCredits").asDouble() : null)
                            : creditedCalls > 0 ? Double.valueOf(aiCredits) : null,
                    f != null && f.has("aiCreditsStatus") ? text(f, "aiCreditsStatus")
                            : io.jenkins.plugins.copilotautopilot.core.session.AiCredits.status((int) usageCalls, (int) creditedCalls));
            String reportModel = state.model() != null ? state.model() : model;
            return new SessionReport(prompt, reportModel, cliVersion, startedAt, endedAt,
                    f == null ? null : text(f, "outcome"), f == null ? null : clean(text(f, "reason")),
                    clean(f == null ? state.taskSummary() : text(f, "summary")),
                    f == null || !f.path("durationMillis").canConvertToLong() ? -1 : f.path("durationMillis").asLong(),
                    List.copyOf(turnReports), omittedTurns, totals, changes, List.copyOf(approvals), label,
                    f == null ? null : failure(f.path("failure")));
        }

        /** The failure as the end record has it; null when it has none (or one of a kind this version does not know). */
        private static ServiceFailure failure(JsonNode data) {
            if (!data.isObject()) {
                return null;
            }
            ServiceFailure.Kind kind;
            try {
                kind = ServiceFailure.Kind.valueOf(data.path("kind").asText(""));
            } catch (IllegalArgumentException e) {
                kind = ServiceFailure.Kind.OTHER;
            }
            return new ServiceFailure(kind, clean(text(data, "errorCode")),
                    data.path("statusCode").canConvertToInt() ? Integer.valueOf(data.path("statusCode").asInt()) : null,
                    data.path("retryable").asBoolean(false), clean(text(data, "action")));
        }

        /** The changes as the journal recorded them. */
        private static WorkTreeChanges changes(JsonNode data) {
            List<ChangedFile> files = new ArrayList<>();
            for (JsonNode f : data.path("files")) {
                files.add(new ChangedFile(clean(f.path("path").asText()), f.path("status").asText(),
                        f.path("linesAdded").isNumber() ? f.path("linesAdded").asLong() : null,
                        f.path("linesRemoved").isNumber() ? f.path("linesRemoved").asLong() : null));
            }
            return new WorkTreeChanges(files, data.path("filesLeftOut").asInt(0), clean(data.path("patch").asText("")),
                    data.path("patchCut").asBoolean(false));
        }

        /** Agent text as the page shows it: no terminal escapes, control characters or bidi overrides. */
        private static String clean(String text) {
            return ConsoleText.clean(text);
        }

        private static String text(JsonNode node, String field) {
            JsonNode value = node.get(field);
            return value == null || value.isNull() ? null : value.asText();
        }

        private static Instant instant(String text) {
            try {
                return text == null ? null : Instant.parse(text);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
    }

    /** A turn while it is being read. */
    private static final class TurnBuilder {
        final int number;
        final boolean afterNudge;
        final Instant start;
        Instant end;
        final List<String> messages = new ArrayList<>();
        final List<ToolCallReport> calls = new ArrayList<>();
        final List<String> errors = new ArrayList<>();
        int omittedCalls;
        long inputTokens;
        long outputTokens;

        TurnBuilder(Turn turn, boolean afterNudge) {
            this.number = turn.number();
            this.afterNudge = afterNudge;
            this.start = turn.startedAt();
        }

        TurnReport build() {
            long duration = start == null || end == null ? -1 : Duration.between(start, end).toMillis();
            return new TurnReport(number, afterNudge, start, duration, List.copyOf(messages), List.copyOf(calls),
                    omittedCalls, List.copyOf(errors), inputTokens, outputTokens);
        }
    }
}
