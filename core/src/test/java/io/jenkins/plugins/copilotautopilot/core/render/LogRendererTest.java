package io.jenkins.plugins.copilotautopilot.core.render;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.outcome.SessionOutcome;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.SessionError;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogRendererTest {
    private static final String SECRET = "github_pat_renderSecret0123456789";
    private final ListLogSink sink = new ListLogSink(false);
    private final LogRenderer renderer = new LogRenderer(sink, SecretMasker.of(List.of(SECRET)));

    @Test
    void withoutAgentTextTheLogShowsTheCourseOfTheSessionOnly() {
        LogRenderer course = new LogRenderer(sink, SecretMasker.none(), false);
        io.jenkins.plugins.copilotautopilot.core.session.SessionTracker tracker = new io.jenkins.plugins.copilotautopilot.core.session.SessionTracker();
        tracker.addListener(course);
        io.jenkins.plugins.copilotautopilot.core.events.EventParser parser = new io.jenkins.plugins.copilotautopilot.core.events.EventParser();
        course.header(Commands.simple());
        for (String line : List.of(
                "{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"0\"}}",
                "{\"type\":\"assistant.message\",\"data\":{\"content\":\"The private plan\"}}",
                "{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"a\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"cat private.txt\"}}}",
                "{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"a\",\"success\":false,\"error\":{\"message\":\"private output\"}}}",
                "{\"type\":\"session.task_complete\",\"data\":{\"summary\":\"The private summary\",\"success\":true}}")) {
            tracker.accept(parser.parse(line));
        }
        course.closing(new SessionOutcome(Outcome.COMPLETED, "The agent called task_complete after 1 turn."), tracker.state(),
                Duration.ofSeconds(2));

        assertThat(String.join("\n", sink.lines())).doesNotContain("private")
                .contains("[copilot] What the agent writes (messages, commands, outputs, summary) is not shown here: see the session page.")
                .contains("[copilot]   > bash\n").contains("[copilot]   < bash FAILED: (the output is on the session page)")
                .contains("[copilot]   Task complete\n").contains("[copilot] COMPLETED: The agent called task_complete after 1 turn.");
    }

    @Test
    void theCliFoundByTheLaunchScriptIsALineOnlyWhenItSaysSomethingNew() {
        io.jenkins.plugins.copilotautopilot.core.command.CliCommand command = Commands.simple();
        renderer.header(command);
        int header = sink.lines().size();
        String path = command.executable().path();

        renderer.onCliFound(path, null);
        assertThat(sink.lines()).hasSize(header);
        renderer.onCliFound(path, "1.0.102");
        renderer.onCliFound("/opt/other/copilot", "");
        assertThat(sink.lines().subList(header, sink.lines().size()))
                .containsExactly("[copilot] Copilot CLI 1.0.102 (" + path + ")", "[copilot] Copilot CLI (/opt/other/copilot)");
    }

    @Test
    void multiLineMessagesKeepTheirLinesAndAreMaskedAsAWhole() {
        renderer.onAssistantMessage(null, "First line\nSecond " + SECRET.substring(0, 12) + "\n" + SECRET.substring(12) + " end\n");
        assertThat(sink.lines()).containsExactly("[copilot]   First line", "[copilot]   Second **** end");
    }

    @Test
    void controlCharactersAndAnsiSequencesAreNeutralised() {
        renderer.onAssistantMessage(null, "\u001b[31mred\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007 bell\u0007 nul\0 \u202Eevil");
        assertThat(sink.lines()).containsExactly("[copilot]   red link bell\uFFFD nul\uFFFD \uFFFDevil");
    }

    @Test
    void plainOutputIsShownOnOneLineAndTruncatedLinesAreExplained() {
        renderer.onPlainOutput(new PlainOutput("Warning: x", 10, false, null));
        renderer.onPlainOutput(new PlainOutput("{\"type\":\"tool.execution_complete\"", 52_428_800L, true, "tool.execution_complete"));
        assertThat(sink.lines()).containsExactly("[copilot] cli: Warning: x",
                "[copilot] (a tool.execution_complete line of 52428800 bytes was too long to read; its beginning is in the journal)");
    }

    @Test
    void errorsAndWarningsStayOnOneLine() {
        renderer.onSessionError(new SessionError("query", "line one\nline two " + SECRET, 500));
        renderer.onWarning("policy", "careful\nnow");
        assertThat(sink.lines()).containsExactly("[copilot] ERROR: model error (HTTP 500): line one line two ****",
                "[copilot] WARNING (policy): careful now");
    }

    @Test
    void resultsOfParallelCallsNameTheirCallAndInterruptedCallsGetALine() {
        io.jenkins.plugins.copilotautopilot.core.session.SessionTracker tracker = new io.jenkins.plugins.copilotautopilot.core.session.SessionTracker();
        tracker.addListener(renderer);
        io.jenkins.plugins.copilotautopilot.core.events.EventParser parser = new io.jenkins.plugins.copilotautopilot.core.events.EventParser();
        for (String line : List.of(
                "{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"a\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"npm test\"}}}",
                "{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"b\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"npm run lint\"}}}",
                "{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"b\",\"success\":true}}")) {
            tracker.accept(parser.parse(line));
        }
        tracker.endRunningCalls();
        assertThat(sink.lines()).containsExactly("[copilot]   > bash: npm test", "[copilot]   > bash: npm run lint",
                "[copilot]   < bash [npm run lint] ok", "[copilot]   < bash [npm test] INTERRUPTED: the session ended while it was running");
    }

    @Test
    void headerWarnsAboutAllowAllTools() {
        renderer.header(Commands.of(TaskSpec.of("x").githubToken(SECRET).set(ALLOW_ALL_TOOLS, true)
                .add(DENY_TOOLS, "shell(rm)").set(MODEL, "gpt-x").set(MAX_AUTOPILOT_CONTINUES, 3)));
        assertThat(sink.lines()).containsExactly(
                "[copilot] Copilot CLI 1.0.102 (/opt/copilot/copilot) in /work",
                "[copilot] Model: gpt-x | autopilot continuations: at most 3 | limits: 1h wall clock, 10m without events",
                "[copilot] Tools: all allowed, denied shell(rm)",
                "[copilot] Paths: the working directory only (allowAllPaths is off)",
                "[copilot] Network: any URL (every tool is allowed)",
                "[copilot] WARNING: allowAllTools is on: the agent may run any command and change any file this machine lets it.");
        assertThat(sink.text()).doesNotContain(SECRET);
    }

    @Test
    void headerNamesTheSecretsHiddenFromToolsAndThoseHandedToThem() {
        renderer.header(Commands.of(TaskSpec.of("x").githubToken(SECRET).add(SECRET_ENV_VARS, "DEPLOY_KEY")
                .add(SECRET_ENV_VARS, "NPM_TOKEN").add(TOOL_SECRETS, "NPM_TOKEN")));
        assertThat(sink.lines()).contains(
                "[copilot] Secret variables: DEPLOY_KEY hidden from tools; NPM_TOKEN handed to tools (masked here)");
        assertThat(sink.text()).doesNotContain(SECRET);
    }

    @Test
    void theCliInformingOfAFileItCreatedIsLeftOutOtherInfoIsShown() {
        renderer.onInfo("file_created", "/work/NOTES.md");
        renderer.onInfo("model_retry", "Request failed due to a transient API error. Retrying...");
        assertThat(sink.lines()).containsExactly("[copilot] info: Request failed due to a transient API error. Retrying...");

        ListLogSink courseOnly = new ListLogSink(false);
        new LogRenderer(courseOnly, SecretMasker.of(List.of(SECRET)), false).onInfo("file_created", "/work/secret-plan.md");
        assertThat(courseOnly.lines()).as("no path the agent chose, when agent text stays out of the log").isEmpty();
    }

    @Test
    void closingBlockHasOutcomeSummaryAndNumbers() {
        SessionState state = new SessionState(100, 0, 3, 4, 1, 1, 2, 1, 0, true, "Fixed the test.\nAll green.", true, null,
                "task_complete", true, new ResultInfo("abc", 0, 1.5, 10L, 20L, 12, 3, 2, List.of("a", "b")), "m", 1200L, 80L, "x");
        renderer.closing(new SessionOutcome(Outcome.COMPLETED, "The agent called task_complete after 3 turns."), state,
                Duration.ofSeconds(75));
        assertThat(sink.lines()).containsExactly(
                "[copilot] " + "-".repeat(72),
                "[copilot] COMPLETED: The agent called task_complete after 3 turns.",
                "[copilot] Summary: Fixed the test.",
                "[copilot]          All green.",
                "[copilot] 3 turns | 4 tool calls (1 failed, 1 denied) | 1 continuation | premium requests: 1.5 | 1m 15s",
                "[copilot] Tokens: 1200 in, 80 out",
                "[copilot] Code changes by the CLI's edit tools: +12 -3 in 2 files; no snapshot of a git work tree,"
                        + " so shell commands' changes are not counted",
                "[copilot] Session abc | CLI exit code 0");
    }

    @Test
    void withoutASnapshotTheClosingLinesSayWhatTheCountCoversAndWhy() {
        SessionState state = new SessionState(100, 0, 1, 1, 0, 0, 1, 0, 0, true, "Done.", true, null,
                "task_complete", true, new ResultInfo("abc", 0, 0.0, 10L, 20L, 0, 0, 0, List.of()), "m", null, null, "x");
        SessionOutcome completed = new SessionOutcome(Outcome.COMPLETED, "The agent called task_complete after 1 turn.");
        renderer.header(Commands.of(TaskSpec.of("x").githubToken(SECRET)));
        renderer.closing(completed, state, Duration.ofSeconds(5));
        assertThat(sink.lines()).endsWith("[copilot] Code changes by the CLI's edit tools: +0 -0 in 0 files; not a git work tree,"
                + " so shell commands' changes are not counted", "[copilot] Session abc | CLI exit code 0");

        ListLogSink off = new ListLogSink(false);
        LogRenderer notRecording = new LogRenderer(off, SecretMasker.of(List.of(SECRET)));
        notRecording.header(Commands.of(TaskSpec.of("x").githubToken(SECRET).set(RECORD_CHANGES, false)));
        notRecording.closing(completed, state, Duration.ofSeconds(5));
        assertThat(off.lines()).contains("[copilot] Code changes by the CLI's edit tools: +0 -0 in 0 files; changes are not"
                + " recorded (recordChanges is off), so shell commands' changes are not counted");
    }

    @Test
    void withoutAResultLineThePremiumRequestsAreTheCallsRecordsAsInTheResultMap() {
        // a stopped CLI may never print its result line; the usage records still say what the calls cost
        SessionState stopped = new SessionState(10, 0, 1, 1, 1, 0, 1, 0, 0, false, null, null, null, "aborted", false, null,
                "m", null, null, "x");
        io.jenkins.plugins.copilotautopilot.core.session.UsageTotals usage = io.jenkins.plugins.copilotautopilot.core.session.UsageTotals.NONE
                .plus(new io.jenkins.plugins.copilotautopilot.core.session.UsageRecord(1, "m", 1000, 20, 0, 0, 0, 900));
        renderer.closing(new SessionOutcome(Outcome.ABORTED, "Aborted."), stopped, Duration.ofSeconds(18), usage, null);
        renderer.closing(new SessionOutcome(Outcome.ABORTED, "Aborted."), stopped, Duration.ofSeconds(1));

        assertThat(sink.lines()).contains(
                "[copilot] 1 turn | 1 tool call (1 failed, 0 denied) | 0 continuations | premium requests: 0"
                        + " | AI credits: not reported | 18s",
                "[copilot] 1 turn | 1 tool call (1 failed, 0 denied) | 0 continuations | premium requests: unknown | 1s");
        assertThat(usage.sessionPremiumRequests(null)).isEqualTo(0.0);
        assertThat(usage.sessionPremiumRequests(new ResultInfo("abc", 0, 1.5, 10L, 20L, 12, 3, 2, List.of()))).isEqualTo(1.5);
    }

    @Test
    void aiCreditsShowInTheClosingLineAndAnUnreportedAmountIsNeverZero() {
        SessionState state = new SessionState(10, 0, 2, 0, 0, 0, 1, 0, 0, true, null, null, null, "task_complete", true, null,
                "gpt-5", null, null, "x");
        io.jenkins.plugins.copilotautopilot.core.session.UsageRecord billed =
                new io.jenkins.plugins.copilotautopilot.core.session.UsageRecord(1, "gpt-5", 1000, 20, 0, 0, 1, 900, 2_500_000_000L);
        io.jenkins.plugins.copilotautopilot.core.session.UsageRecord unbilled =
                new io.jenkins.plugins.copilotautopilot.core.session.UsageRecord(2, "gpt-5", 1000, 20, 0, 0, 0, 900, null);
        io.jenkins.plugins.copilotautopilot.core.session.UsageTotals one = io.jenkins.plugins.copilotautopilot.core.session.UsageTotals.NONE.plus(billed);
        renderer.closing(new SessionOutcome(Outcome.COMPLETED, "Done."), state, Duration.ofSeconds(3), one, null);
        renderer.closing(new SessionOutcome(Outcome.COMPLETED, "Done."), state, Duration.ofSeconds(3), one.plus(unbilled), null);

        assertThat(sink.lines()).contains(
                "[copilot] 2 turns | 0 tool calls (0 failed, 0 denied) | 0 continuations | premium requests: 1 | AI credits: 2.5 | 3s",
                "[copilot] 2 turns | 0 tool calls (0 failed, 0 denied) | 0 continuations | premium requests: 1"
                        + " | AI credits: at least 2.5 (1 of 2 model calls reported none) | 3s");
        assertThat(one.aiCreditsStatus()).isEqualTo("complete");
        assertThat(one.plus(unbilled).aiCreditsStatus()).isEqualTo("partial");
        assertThat(io.jenkins.plugins.copilotautopilot.core.session.UsageTotals.NONE.plus(unbilled).aiCredits()).isNull();
    }
}
