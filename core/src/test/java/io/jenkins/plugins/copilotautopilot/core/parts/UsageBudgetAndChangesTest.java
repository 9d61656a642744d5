package io.jenkins.plugins.copilotautopilot.core.parts;

import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReport;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader;
import io.jenkins.plugins.copilotautopilot.core.report.TimelineSvg;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a session cost, the budget that stops it, and what the agent changed: the real CLI with a scripted model
 * that reports its token usage, in a real git work tree.
 */
@Timeout(120)
class UsageBudgetAndChangesTest {

    @Test
    void eachModelCallsUsageIsShownAttributedToItsTurnAndAddedUp() throws Exception {
        E2eRun run = E2eRun.with(request -> !request.used("bash")
                        ? Reply.bash("echo hi", 30).withText("Running it.").withUsage(1200, 30)
                        : request.used("task_complete") ? Reply.text("Done.") : Reply.taskComplete("Ran it.").withUsage(1500, 40))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        // the CLI may write a call's usage record only with the next one (calls under a second apart): then the
        // line names the call's turn
        assertThat(run.log.lines()).anyMatch(l -> l.matches("\\[copilot]   tokens( \\(turn 1\\))?: 1,200 in, 30 out"))
                .anyMatch(l -> l.matches("\\[copilot]   tokens( \\(turn 2\\))?: 1,500 in, 40 out"));
        List<JsonNode> usage = run.journalLines().stream().filter(l -> "autopilot.usage".equals(l.path("type").asText())).toList();
        assertThat(usage).anySatisfy(u -> {
            assertThat(u.path("data").path("turn").asInt()).isEqualTo(1);
            assertThat(u.path("data").path("inputTokens").asLong()).isEqualTo(1200);
        }).anySatisfy(u -> {
            assertThat(u.path("data").path("turn").asInt()).isEqualTo(2);
            assertThat(u.path("data").path("outputTokens").asLong()).isEqualTo(40);
        });
        long in = usage.stream().mapToLong(u -> u.path("data").path("inputTokens").asLong()).sum();
        assertThat(run.result.usage().inputTokens()).isEqualTo(in).isGreaterThanOrEqualTo(2700);
        assertThat(run.result.toMap()).containsEntry("inputTokens", in);
        assertThat(run.log.find("Tokens: ")).contains(String.format("%,d in", in));

        // the session page and the timeline read it from the journal, per turn
        SessionReport report = SessionReportReader.read(run.journal);
        assertThat(report.turns().get(0).inputTokens()).isEqualTo(1200);
        assertThat(report.turns().get(1).outputTokens()).isEqualTo(40);
        assertThat(report.totals().inputTokens()).isEqualTo(in);
        assertThat(TimelineSvg.render(report)).contains(">Tokens<").contains("Turn 1: 1,200 tokens in, 30 out");
    }

    @Test
    void theTokenBudgetStopsTheSessionOverBudget() throws Exception {
        long start = System.nanoTime();
        E2eRun run = E2eRun.with(request -> Reply.text("Still thinking, no task_complete yet.").withUsage(5000, 100))
                .options(o -> o.set(MAX_TOKENS, 12_000L).set(MAX_AUTOPILOT_CONTINUES, 20))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.OVER_BUDGET);
        // 5,100 tokens a turn: the third turn crosses the limit; on a busy machine the fourth turn's record may land
        // before the stop does, never a fifth
        assertThat(run.result.reason()).matches("Stopped .*: (15,300|20,400) tokens used, limit 12,000; the Copilot CLI was stopped\\.");
        assertThat(run.result.outcome().exitCode()).isEqualTo(3);
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
        assertThat(run.log.find("OVER_BUDGET: Stopped")).isNotNull();
        assertThat(System.nanoTime() - start).isLessThan(java.time.Duration.ofSeconds(60).toNanos());
    }

    /**
     * A CLI that keeps its session state elsewhere (as a later version might): the real CLI with its home moved below
     * the one the session gives it, so that no usage record is where the budget looks for them.
     */
    @Test
    void aBudgetThatCannotSeeTheUsageRecordsSaysSoInTheLogAndTheResult(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path moved = io.jenkins.plugins.copilotautopilot.core.testing.ScriptCli.write(dir,
                "COPILOT_HOME=\"$COPILOT_HOME/moved\" exec '" + io.jenkins.plugins.copilotautopilot.core.testing.TestCli.executable().path()
                        + "' \"$@\"");
        E2eRun run = E2eRun.with(request -> request.turn() < 3 ? Reply.text("Thinking.").withUsage(5000, 100)
                        : Reply.taskComplete("Done.").withUsage(5000, 100))
                .cli(new io.jenkins.plugins.copilotautopilot.core.command.CliExecutable(moved.toString(), null))
                .options(o -> o.set(MAX_TOKENS, 1_000_000L).set(MAX_AUTOPILOT_CONTINUES, 5))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        String warning = "A token budget (maxTokens) is set, but the Copilot CLI wrote no usage record for";
        assertThat(run.log.find(warning)).as("the log says so").isNotNull();
        assertThat(run.log.lines().stream().filter(l -> l.contains(warning)).count()).as("once").isEqualTo(1);
        assertThat(run.result.warnings()).singleElement().asString().contains(warning).endsWith("the budget cannot stop the session.");
        assertThat((java.util.List<?>) run.result.toMap().get("warnings")).hasSize(1);
        assertThat(run.journalText()).contains("\"type\":\"autopilot.warning\"");
    }

    @Test
    void withTheRecordsWhereTheCliWritesThemNoWarningIsGiven() throws Exception {
        E2eRun run = E2eRun.with(request -> request.turn() < 3 ? Reply.text("Thinking.").withUsage(5000, 100)
                        : Reply.taskComplete("Done.").withUsage(5000, 100))
                .options(o -> o.set(MAX_TOKENS, 1_000_000L).set(MAX_AUTOPILOT_CONTINUES, 5))
                .run();
        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.warnings()).isEmpty();
        assertThat(run.result.usage().inputTokens()).isGreaterThan(0L);
    }

    @Test
    void thePremiumRequestBudgetCountsTheCallsCost() {
        // own providers cost no premium requests, so the CLI's usage records are played here with a cost
        String record = "{\"type\":\"session.usage_record\",\"data\":{\"usage\":{\"model\":\"gpt-x\",\"inputTokens\":10,"
                + "\"outputTokens\":1,\"cost\":1.0}},\"parentId\":\"t\"}\n";
        byte[] stdout = Captures.stdout("cli-nudge");
        CliSession session = new CliSession() {
            private int looks;
            private volatile boolean stopped;

            @Override
            public SessionPoll poll(long out, long err, int max) {
                return poll(out, err, 0, max);
            }

            @Override
            public SessionPoll poll(long out, long err, long usage, int max) {
                looks++;
                byte[] more = out == 0 ? java.util.Arrays.copyOf(stdout, 200) : new byte[0]; // the session goes on
                byte[] records = looks <= 3 ? record.getBytes(StandardCharsets.UTF_8) : new byte[0];
                Integer exit = stopped ? 143 : null; // a stopped CLI exits, and the engine waits to learn it
                return new SessionPoll(more, new byte[0], exit, stopped, null, records, records.length, null);
            }

            @Override
            public void stop() {
                stopped = true;
            }

            @Override
            public void cleanup() {
            }
        };
        ListLogSink log = new ListLogSink(false);
        SessionResult result = AutopilotEngine.builder(log).timings(Commands.FAST).build()
                .run(Commands.of(TaskSpec.of("Do the task").githubToken("github_pat_testtoken123456").set(MAX_PREMIUM_REQUESTS, 2.0)), command -> session);

        assertThat(result.outcome()).isEqualTo(Outcome.OVER_BUDGET);
        // the budget stopped it at 2; a record read while the CLI was stopping counts too: the reason gives the total
        assertThat(result.reason()).endsWith(": premium requests used: 3, limit 2; the Copilot CLI was stopped.");
        assertThat(result.usage().premiumRequests()).isEqualTo(3.0);
        assertThat(log.lines()).contains("[copilot]   tokens: 10 in, 1 out | premium requests: 1");
    }

    @Test
    void whatTheAgentChangedInTheGitWorkTreeIsReported() throws Exception {
        E2eRun run = E2eRun.with(Scripts.bashThenComplete("printf 'hello\\nworld\\n' > hello.txt && rm old.txt", "Wrote hello.txt."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true))
                .workDir(dir -> {
                    git(dir, "init", "-q");
                    git(dir, "config", "user.email", "t@example.invalid");
                    git(dir, "config", "user.name", "t");
                    Files.writeString(dir.resolve("old.txt"), "old\n");
                    git(dir, "add", "-A");
                    git(dir, "commit", "-q", "-m", "start");
                })
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result.changes().files()).containsExactlyInAnyOrder(new ChangedFile("hello.txt", "added", 2L, 0L),
                new ChangedFile("old.txt", "deleted", 0L, 1L));
        assertThat(run.result.changes().linesAdded()).isEqualTo(2);
        assertThat(run.result.changes().filesModified()).isEqualTo(2);
        assertThat(run.log.find("Changed: 2 files (+2 -1)")).contains("hello.txt (added)").contains("old.txt (deleted)");
        JsonNode changes = run.journalLines().stream().filter(l -> "autopilot.changes".equals(l.path("type").asText()))
                .findFirst().orElseThrow();
        assertThat(changes.path("data").path("patch").asText()).contains("+hello\n+world\n").contains("-old\n");
        assertThat(run.result.toMap().get("changedFiles")).asList().hasSize(2);
        assertThat(run.result.changes().patch()).contains("+hello\n");
        SessionReport report = SessionReportReader.read(run.journal);
        assertThat(report.changes().patchByFile().get("hello.txt")).contains("+world");
        assertThat(report.totals().filesModified()).isEqualTo(2);
    }

    @Test
    void outsideAGitWorkTreeTheClosingLinesSayTheCountIsTheCliEditToolsOnly() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Path> work = new java.util.concurrent.atomic.AtomicReference<>();
        E2eRun run = E2eRun.with(request -> {
                    if (!request.used("bash")) {
                        return Reply.bash("echo made-by-a-shell > shell.txt", 30);
                    }
                    if (!request.used("create")) {
                        return Reply.tool("create", Map.of("path", work.get().resolve("notes.md").toString(), "file_text", "one\ntwo\n"));
                    }
                    return request.used("task_complete") ? Reply.text("Done.") : Reply.taskComplete("Wrote shell.txt and notes.md.");
                })
                .options(o -> o.set(ALLOW_ALL_TOOLS, true))
                .workDir(work::set) // a new folder outside any git work tree
                .run();

        assertThat(run.result.outcome()).as(run.log.text()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.workDir.resolve("shell.txt")).exists();
        assertThat(run.workDir.resolve("notes.md")).hasContent("one\ntwo\n");
        assertThat(run.log.find("< create ok")).isNotNull();
        // the CLI counted its create call, not the file the shell command wrote
        assertThat(run.log.lines()).contains("[copilot] Code changes by the CLI's edit tools: +2 -0 in 1 file; not a git work tree,"
                + " so shell commands' changes are not counted");
        assertThat(run.log.lines()).last().asString().matches("\\[copilot] Session [0-9a-f-]{36} \\| CLI exit code 0");
        assertThat(run.log.find("Changed:")).isNull();
        assertThat(run.result.changes().files()).isEmpty();
    }

    private static void git(Path dir, String... args) throws java.io.IOException {
        List<String> command = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new java.io.IOException("git " + List.of(args) + ": " + out);
            }
        } catch (InterruptedException e) {
            throw new java.io.IOException(e);
        }
    }
}
