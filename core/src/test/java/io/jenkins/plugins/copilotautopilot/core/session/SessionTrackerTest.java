package io.jenkins.plugins.copilotautopilot.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.events.StreamLine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionTrackerTest {
    private final EventParser parser = new EventParser();
    private final SessionTracker tracker = new SessionTracker();
    private final List<ToolCall> completed = new ArrayList<>();

    SessionTrackerTest() {
        tracker.addListener(new SessionListener() {
            @Override
            public void onToolCompleted(ToolCall call) {
                completed.add(call);
            }
        });
    }

    private void feed(String... lines) {
        for (String line : lines) {
            StreamLine parsed = parser.parse(line);
            tracker.accept(parsed);
        }
    }

    @Test
    void followsTurnsToolsAndCompletion() {
        feed("{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"0\"},\"timestamp\":\"2026-01-01T00:00:00Z\"}",
                "{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"npm test\"}},\"timestamp\":\"2026-01-01T00:00:01Z\"}",
                "{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c1\",\"success\":false,\"error\":{\"message\":\"exit 1\"}},\"timestamp\":\"2026-01-01T00:00:03.5Z\"}",
                "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"0\"},\"timestamp\":\"2026-01-01T00:00:04Z\"}",
                "{\"type\":\"session.task_complete\",\"data\":{\"summary\":\"Fixed it\",\"success\":true}}");
        SessionState state = tracker.state();
        assertThat(state.turns()).isEqualTo(1);
        assertThat(state.toolCalls()).isEqualTo(1);
        assertThat(state.failedToolCalls()).isEqualTo(1);
        assertThat(state.taskSummary()).isEqualTo("Fixed it");
        assertThat(state.taskSuccess()).isTrue();
        ToolCall call = completed.get(0);
        assertThat(call.name()).isEqualTo("bash");
        assertThat(call.argumentSummary()).isEqualTo("npm test");
        assertThat(call.status()).isEqualTo(ToolStatus.FAILED);
        assertThat(call.error()).isEqualTo("exit 1");
        assertThat(call.duration().toMillis()).isEqualTo(2500);
        assertThat(call.turn()).isEqualTo(1);
    }

    @Test
    void eventsWithMissingFieldsDoNotBreakTracking() {
        feed("{\"type\":\"assistant.turn_start\"}",
                "{\"type\":\"tool.execution_start\"}",
                "{\"type\":\"tool.execution_complete\"}",
                "{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"never-started\",\"success\":true}}",
                "{\"type\":\"session.task_complete\",\"data\":{}}",
                "{\"type\":\"session.error\",\"data\":{\"statusCode\":\"not a number\"}}",
                "{\"type\":\"result\"}",
                "{\"type\":\"assistant.message\",\"data\":{\"content\":[1,2]}}",
                "{\"type\":\"user.message\",\"data\":null}");
        SessionState state = tracker.state();
        assertThat(state.events()).isEqualTo(9);
        assertThat(state.turns()).isEqualTo(1);
        assertThat(state.toolCalls()).isEqualTo(2);
        assertThat(state.taskCompleteSeen()).isTrue();
        assertThat(state.taskSummary()).isNull();
        assertThat(state.firstError().statusCode()).isNull();
        assertThat(state.result()).isNotNull();
        assertThat(state.result().exitCode()).isNull();
        assertThat(completed).extracting(ToolCall::name).containsExactly("unknown tool", "unknown tool");
    }

    @Test
    void deniedCallsAreCountedApart() {
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c1\",\"toolName\":\"bash\"}}",
                "{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c1\",\"success\":false,\"error\":{\"message\":\"Permission denied\",\"code\":\"denied\"}}}");
        assertThat(tracker.state().deniedToolCalls()).isEqualTo(1);
        assertThat(tracker.state().failedToolCalls()).isZero();
        assertThat(completed.get(0).status()).isEqualTo(ToolStatus.DENIED);
    }

    @Test
    void aShellCommandThatExitsNonZeroIsAFailedCall() {
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"npm test\"}}}",
                "{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c1\",\"success\":true,\"shellExecution\":{\"exitCode\":1},"
                        + "\"result\":{\"content\":\"npm ERR! Test failed.\\n<shellId: 0 completed with exit code 1>\"}}}");
        assertThat(tracker.state().failedToolCalls()).isEqualTo(1);
        assertThat(completed.get(0).status()).isEqualTo(ToolStatus.FAILED);
        assertThat(completed.get(0).error()).isEqualTo("exit code 1: npm ERR! Test failed.");
        assertThat(completed.get(0).outputExcerpt()).startsWith("npm ERR! Test failed.");
    }

    @Test
    void subAgentTurnsDoNotCountAsSessionTurns() {
        feed("{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"0\"}}",
                "{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"0\",\"parentToolCallId\":\"task-1\"},\"agentId\":\"sub\"}",
                "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"0\",\"parentToolCallId\":\"task-1\"},\"agentId\":\"sub\"}");
        assertThat(tracker.state().turns()).isEqualTo(1);
        assertThat(tracker.state().activity()).isEqualTo("while waiting for the model in turn 1");
    }

    @Test
    void countsNudgesAndTokens() {
        feed("{\"type\":\"user.message\",\"data\":{\"content\":\"task\"}}",
                "{\"type\":\"user.message\",\"data\":{\"content\":\"\",\"source\":\"autopilot\",\"isAutopilotContinuation\":true}}",
                "{\"type\":\"assistant.usage\",\"data\":{\"model\":\"m\",\"inputTokens\":100,\"outputTokens\":7}}",
                "{\"type\":\"assistant.usage\",\"data\":{\"model\":\"m\",\"inputTokens\":50,\"outputTokens\":3}}");
        SessionState state = tracker.state();
        assertThat(state.nudges()).isEqualTo(1);
        assertThat(state.inputTokens()).isEqualTo(150);
        assertThat(state.outputTokens()).isEqualTo(10);
        assertThat(state.model()).isEqualTo("m");
    }

    @Test
    void describesWhatIsRunning() {
        assertThat(tracker.state().activity()).isEqualTo("before the CLI printed any event");
        feed("{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"0\"}}",
                "{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"sleep 600\"}}}");
        assertThat(tracker.state().activity()).isEqualTo("while tool 'bash' (sleep 600) was running in turn 1");
    }

    @Test
    void runningCallsAreBounded() {
        for (int i = 0; i < SessionTracker.MAX_RUNNING_CALLS + 500; i++) {
            feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c" + i + "\",\"toolName\":\"bash\"}}");
        }
        assertThat(tracker.state().toolCalls()).isEqualTo(SessionTracker.MAX_RUNNING_CALLS + 500);
        // completing the oldest (dropped) call reports it, but it was counted when it started: still 1500
        feed("{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c0\",\"success\":true}}");
        assertThat(completed).hasSize(1);
        assertThat(tracker.state().toolCalls()).isEqualTo(SessionTracker.MAX_RUNNING_CALLS + 500);
    }

    @Test
    void aCompletionWithoutAnyStartIsCountedOnce() {
        feed("{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"x\",\"toolName\":\"view\",\"success\":true}}");
        assertThat(tracker.state().toolCalls()).isEqualTo(1);
    }

    @Test
    void callsStillRunningWhenTheSessionEndsAreInterruptedNotFailed() {
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"npm test\"}}}");
        assertThat(tracker.runningToolCalls()).isEqualTo(1);

        tracker.endRunningCalls();

        assertThat(tracker.runningToolCalls()).isZero();
        assertThat(tracker.state().failedToolCalls()).isZero();
        assertThat(tracker.state().interruptedToolCalls()).isEqualTo(1);
        assertThat(completed).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(ToolStatus.INTERRUPTED);
            assertThat(c.error()).isEqualTo("the session ended while it was running");
        });
    }

    @Test
    void aCallTheCliKillsWhenItIsStoppedIsInterruptedNotAFailedCommand() {
        // what CLI 1.0.102 prints when SIGTERM reaches it with time to spare: abort, then the killed shell's result
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"sleep 300\"}},\"timestamp\":\"2026-12-01T05:36:34.880Z\"}");
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c2\",\"toolName\":\"view\",\"arguments\":{\"path\":\"a.txt\"}}}");
        feed("{\"type\":\"abort\",\"data\":{\"reason\":\"user_initiated\"}}");
        feed("{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c1\",\"shellExecution\":{\"exitCode\":1},\"success\":true,"
                + "\"result\":{\"content\":\"\\n<shellId: 0 completed with exit code 1>\"}},\"timestamp\":\"2026-12-01T05:36:36.800Z\"}");
        feed("{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c2\",\"success\":true}}");

        assertThat(completed).extracting(ToolCall::status).containsExactly(ToolStatus.INTERRUPTED, ToolStatus.SUCCEEDED);
        assertThat(completed.get(0).error())
                .isEqualTo("the session was stopped while it was running (exit code 1)");
        assertThat(completed.get(0).duration()).isEqualTo(java.time.Duration.ofMillis(1920));
        assertThat(tracker.state().failedToolCalls()).isZero();
        assertThat(tracker.state().interruptedToolCalls()).isEqualTo(1);
    }

    @Test
    void aCallRunningWhenWeStopTheCliIsInterruptedEvenIfItsResultComesBeforeTheCliSaysAbort() {
        // the other order CLI 1.0.102 prints: the killed shell's result first, then abort
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"sleep 300\"}}}");
        tracker.stopping();
        feed("{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c1\",\"shellExecution\":{\"exitCode\":1},\"success\":true}}");
        feed("{\"type\":\"abort\",\"data\":{\"reason\":\"user_initiated\"}}");
        tracker.endRunningCalls();

        assertThat(completed).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(ToolStatus.INTERRUPTED);
            assertThat(c.error()).isEqualTo("the session was stopped while it was running (exit code 1)");
        });
        assertThat(tracker.state().failedToolCalls()).isZero();
        assertThat(tracker.state().interruptedToolCalls()).isEqualTo(1);
    }

    @Test
    void turnsTheCliOpenedBeforeTheStopAreCountedThoughTheyAreReadAfterIt() {
        // a follower catching up after a restart decides to stop at turn 1 of a backlog the CLI ran while nobody followed
        feed("{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"1\"},\"timestamp\":\"2026-01-01T00:00:01Z\"}",
                "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"1\"},\"timestamp\":\"2026-01-01T00:00:02Z\"}");
        tracker.stopping(java.time.Instant.parse("2026-01-01T00:01:00Z"));
        feed("{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"2\"},\"timestamp\":\"2026-01-01T00:00:03Z\"}",
                "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"2\"},\"timestamp\":\"2026-01-01T00:00:04Z\"}",
                "{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"3\"},\"timestamp\":\"2026-01-01T00:01:00.5Z\"}",
                "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"3\"},\"timestamp\":\"2026-01-01T00:01:01Z\"}");

        assertThat(tracker.state().turns()).as("turn 2 was a model call before the stop; turn 3 came after it").isEqualTo(2);
    }

    @Test
    void aStopTheFollowerBeforeARestartDecidedTakesEffectWhereTheClisEventsReachItsTime() {
        // the resumed follower reads the session again from its start: the stop comes where it came the first time
        tracker.stoppedAt(java.time.Instant.parse("2026-01-01T00:01:00Z"));
        feed("{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"1\"},\"timestamp\":\"2026-01-01T00:00:01Z\"}",
                "{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"echo one\"}},\"timestamp\":\"2026-01-01T00:00:02Z\"}",
                "{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c1\",\"success\":true},\"timestamp\":\"2026-01-01T00:00:03Z\"}",
                "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"1\"},\"timestamp\":\"2026-01-01T00:00:04Z\"}",
                "{\"type\":\"session.autopilot_stopped\",\"data\":{\"reason\":\"aborted\"},\"timestamp\":\"2026-01-01T00:01:00.2Z\"}",
                "{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"2\"},\"timestamp\":\"2026-01-01T00:01:00.3Z\"}",
                "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"2\"},\"timestamp\":\"2026-01-01T00:01:00.4Z\"}");

        assertThat(tracker.state().turns()).as("the turn the CLI opened after the stop, as the first follower counted").isEqualTo(1);
        assertThat(completed).singleElement().extracting(ToolCall::status).isEqualTo(ToolStatus.SUCCEEDED);
    }

    @Test
    void afterTheClisOwnAbortNoTurnIsCountedWhateverItsTime() {
        tracker.stopping(java.time.Instant.parse("2026-01-01T00:01:00Z"));
        feed("{\"type\":\"abort\",\"data\":{\"reason\":\"user_initiated\"},\"timestamp\":\"2026-01-01T00:00:10Z\"}",
                "{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"2\"},\"timestamp\":\"2026-01-01T00:00:11Z\"}");

        assertThat(tracker.state().turns()).isZero();
    }

    @Test
    void aShellLineTheStopCutShortIsInterruptedEvenWhenItsLastCommandSucceeds() {
        // QA, a budget stop: `sleep 30; echo two` — sleep killed, echo ran, the CLI said success with exit code 0
        feed("{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"1\"}}");
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"sleep 30; echo two\"}}}");
        tracker.stopping();
        feed("{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c1\",\"shellExecution\":{\"exitCode\":0},\"success\":true,"
                + "\"result\":{\"content\":\"Terminated\\ntwo\"}}}");
        feed("{\"type\":\"abort\",\"data\":{\"reason\":\"user_initiated\"}}");
        feed("{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"1\"}}");
        feed("{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"2\"}}");
        feed("{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"2\"}}");

        assertThat(completed).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(ToolStatus.INTERRUPTED);
            assertThat(c.error()).isEqualTo("the session was stopped while it was running");
        });
        assertThat(tracker.state().turns()).as("the empty turn after the abort calls no model").isEqualTo(1);
        assertThat(tracker.state().failedToolCalls()).isZero();
        assertThat(tracker.state().interruptedToolCalls()).isEqualTo(1);
    }

    @Test
    void aCommandFailingBeforeAnyAbortStaysFailed() {
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"false\"}}}");
        feed("{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c1\",\"shellExecution\":{\"exitCode\":1},\"success\":true}}");
        feed("{\"type\":\"abort\",\"data\":{\"reason\":\"user_initiated\"}}");

        assertThat(completed).extracting(ToolCall::status).containsExactly(ToolStatus.FAILED);
    }

    @Test
    void parallelCallsAreMarkedSoTheirResultsCanSayWhichCallTheyBelongTo() {
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"a\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"npm test\"}}}");
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"b\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"npm run lint\"}}}");
        feed("{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"b\",\"success\":true}}");
        feed("{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"a\",\"success\":true}}");
        feed("{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"c\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"ls\"}}}");
        feed("{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"c\",\"success\":true}}");
        assertThat(completed).extracting(ToolCall::argumentSummary, ToolCall::overlapping)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("npm run lint", true), org.assertj.core.groups.Tuple.tuple("npm test", true),
                        org.assertj.core.groups.Tuple.tuple("ls", false));
    }

    @Test
    void summarisesToolArguments() {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        assertThat(ArgumentSummary.of("view", json.createObjectNode().put("path", "src/App.java"))).isEqualTo("src/App.java");
        assertThat(ArgumentSummary.of("grep", json.createObjectNode().put("pattern", "TODO").put("path", "src"))).isEqualTo("TODO in src");
        assertThat(ArgumentSummary.of("bash", json.createObjectNode().put("command", "a\nb\t c"))).isEqualTo("a b c");
        assertThat(ArgumentSummary.of("x", json.createObjectNode().put("n", 1))).isEqualTo("{\"n\":1}");
        assertThat(ArgumentSummary.of("bash", json.createObjectNode().put("command", "y".repeat(500)))).hasSize(ArgumentSummary.MAX_LENGTH);
    }
}
