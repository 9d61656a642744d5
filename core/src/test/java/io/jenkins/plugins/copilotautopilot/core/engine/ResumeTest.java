package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ForwardingCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ControlFolderReader;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session keeps running when its follower goes away (a Jenkins controller restart), and a new follower
 * started from the old one's checkpoint continues the log and the journal exactly: the real CLI, started
 * detached, a scripted model on 127.0.0.1.
 */
@Timeout(120)
class ResumeTest {
    @TempDir
    Path dir;

    /** Fast looks, but a CLI that lingers after its result line is not stopped within the test's time. */
    private static final EngineTimings NEVER_DECIDES_ON_ITS_OWN = new EngineTimings(Commands.FAST.pollMin(),
            Commands.FAST.pollMax(), ScriptedModelServer.SESSION_LIMIT, Commands.FAST.exitAfterStop(), Commands.FAST.chunkBytes());

    /** Two shell calls a second apart, a streamed message, then task_complete. */
    private static ScriptedModelServer.Script fourTurns() {
        return fourTurns(new CountDownLatch(0));
    }

    /** As {@link #fourTurns()}, the second model call answered only once {@code secondTurn} is open. */
    private static ScriptedModelServer.Script fourTurns(CountDownLatch secondTurn) {
        return request -> switch (request.turn()) {
            case 1 -> Reply.bash("sleep 1; echo first", 30).withText("First step.");
            case 2 -> {
                await(secondTurn);
                yield Reply.bash("sleep 1; echo second", 30).withText("Second step.");
            }
            case 3 -> Reply.text("Thinking about the result ".repeat(20)).chunked(8, 5);
            default -> request.used("task_complete") ? Reply.text("Done.") : Reply.taskComplete("Ran two commands.");
        };
    }

    private static void await(CountDownLatch gate) {
        try {
            assertThat(gate.await(ScriptedModelServer.SESSION_LIMIT.toSeconds(), TimeUnit.SECONDS)).as("the gate opened").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aNewFollowerFromTheCheckpointContinuesWithoutMissingOrRepeatedLines() throws Exception {
        // the model holds its second answer until the first follower is gone: the session is then mid-way for sure
        CountDownLatch secondTurn = new CountDownLatch(1);
        try (ScriptedModelServer server = ScriptedModelServer.start(fourTurns(secondTurn))) {
            Session s = new Session(server);
            // follow until the first tool call has completed, then "restart": the follower is dropped
            Session.Left left = s.followUntil(f -> f.state().toolCalls() >= 1 && s.firstLog.find("< bash ok") != null);
            CliSession session = left.session();
            Checkpoint checkpoint = left.checkpoint();
            assertThat(checkpoint.outputOffset()).isPositive();
            assertThat(ProcessTable.survivorsOf(s.command.runId())).as("the session runs on without a follower").isNotEmpty();
            secondTurn.countDown();

            SessionFollower second = s.resumeFrom(session, checkpoint);
            SessionResult result = tickUntilFinished(second, session);

            assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(result.summary()).isEqualTo("Ran two commands.");
            assertThat(result.activity().turns()).isEqualTo(4);
            assertThat(result.activity().toolCalls()).isEqualTo(3);
            s.assertSameAsOneFollower(session, result);
            session.cleanup();
        }
    }

    @Test
    void usageRecordsWrittenWhileNoFollowerRanArePrintedAndJournaledOnce() throws Exception {
        // the checkpoint is taken once a usage record has been read; the rest of the session, with its later usage
        // records, is written while no follower runs (a controller down): catching up must stop at the checkpoint's
        // place in the session state too, or it counts the later records silently, with no log line and no record
        CountDownLatch secondTurn = new CountDownLatch(1);
        try (ScriptedModelServer server = ScriptedModelServer.start(fourTurns(secondTurn))) {
            Session s = new Session(server);
            Session.Left left = s.followUntil(f -> s.firstLog.lines().stream().anyMatch(l -> l.startsWith("[copilot]   tokens")));
            CliSession session = left.session();
            Checkpoint checkpoint = left.checkpoint();
            assertThat(checkpoint.usageOffset()).isPositive();
            secondTurn.countDown();
            s.awaitExit(); // nobody follows: the CLI works on, detached, and records its later model calls

            SessionResult result = tickUntilFinished(s.resumeFrom(session, checkpoint), session);

            assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(s.secondLog.lines()).as("the later model calls' usage, printed by the resumed follower")
                    .anyMatch(l -> l.startsWith("[copilot]   tokens"));
            s.assertSameAsOneFollower(session, result);
            session.cleanup();
        }
    }

    @Test
    void aFollowerStartedAfterTheCliHasFinishedShowsTheWholeSessionOnce() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(fourTurns())) {
            Session s = new Session(server);
            AutopilotEngine.Running running = s.engine(s.firstLog, s.journalStream()).launch(s.command, new LocalCliLauncher());
            Checkpoint beforeAnything = running.follower().checkpoint(); // only the header was written
            s.journalOut.close();
            CliSession session = running.session();
            s.awaitExit(); // nobody follows: the CLI works on, detached

            SessionResult result = tickUntilFinished(s.resumeFrom(session, beforeAnything), session);

            assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
            s.assertSameAsOneFollower(session, result);
            // the whole session comes in one poll: each turn's tokens line among the turns, as when they come one by one
            List<String> lines = s.secondLog.lines();
            int turn3 = lines.indexOf("[copilot] Turn 3");
            assertThat(turn3).isPositive();
            assertThat(lines.subList(0, turn3)).anyMatch(l -> l.startsWith("[copilot]   tokens (turn 1)"));
            session.cleanup();
        }
    }

    @Test
    void aFollowerResumedFromTheEndOfAFinishedSessionPrintsOnlyTheClosingLines() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(fourTurns())) {
            Session s = new Session(server);
            AutopilotEngine.Running running = s.engine(s.firstLog, s.journalStream(), NEVER_DECIDES_ON_ITS_OWN).launch(s.command, new LocalCliLauncher());
            SessionFollower first = running.follower();
            CliSession session = running.session();
            // the follower read everything the CLI wrote, but went away before it looked at how the CLI ended: it
            // never learns of the end, so however the ticks fall it cannot decide (and write the closing lines) itself
            CliSession endUnseen = new EndNotYetSeen(session);
            Path exitCode = Path.of(s.command.launchFolder(), ControlFolder.EXIT_CODE);
            long deadline = System.nanoTime() + ScriptedModelServer.SESSION_LIMIT.toNanos();
            boolean caughtUp = false;
            while (!caughtUp) {
                boolean ended = Files.exists(exitCode); // once it is there, every file of the session is complete
                SessionFollower.Tick tick = first.tick(endUnseen);
                assertThat(tick.finished()).as("a follower that never sees the end does not decide").isFalse();
                caughtUp = ended && !tick.gotData();
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.sleep(10);
            }
            assertThat(first.state().result()).as("the result line was read").isNotNull();
            Checkpoint checkpoint = first.checkpoint();
            s.journalOut.close();

            SessionResult result = tickUntilFinished(s.resumeFrom(session, checkpoint), session);

            assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(s.secondLog.lines().get(0)).startsWith("[copilot] ----");
            s.assertSameAsOneFollower(session, result);
            session.cleanup();
        }
    }

    private static void tickUntil(SessionFollower follower, CliSession session, Predicate<SessionFollower> done) throws Exception {
        long deadline = System.nanoTime() + ScriptedModelServer.SESSION_LIMIT.toNanos();
        while (!done.test(follower)) {
            assertThat(follower.tick(session).finished()).as("finished too early for this test").isFalse();
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static SessionResult tickUntilFinished(SessionFollower follower, CliSession session) throws Exception {
        long deadline = System.nanoTime() + ScriptedModelServer.SESSION_LIMIT.toNanos();
        while (true) {
            SessionFollower.Tick tick = follower.tick(session);
            if (tick.finished()) {
                return tick.result();
            }
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static String numbers(String usageLine) {
        return usageLine.substring(usageLine.indexOf("): ") >= 0 ? usageLine.indexOf("): ") + 3 : usageLine.indexOf(": ") + 2);
    }

    /** A session whose end the follower has not seen yet: what the CLI wrote, but no exit code and no changes. */
    private static final class EndNotYetSeen extends ForwardingCliSession {
        EndNotYetSeen(CliSession session) {
            super(session);
        }

        @Override
        public SessionPoll poll(long out, long err, int max) throws java.io.IOException, InterruptedException {
            return withoutEnd(super.poll(out, err, max));
        }

        @Override
        public SessionPoll poll(long out, long err, long usage, int max) throws java.io.IOException, InterruptedException {
            return withoutEnd(super.poll(out, err, usage, max));
        }

        private static SessionPoll withoutEnd(SessionPoll poll) {
            return new SessionPoll(poll.output(), poll.stderr(), null, false, null, poll.usage(), poll.usageConsumed(), null);
        }
    }

    /** A finished session's control folder, read as the follower reads a live one (usage records and changes too). */
    private static CliSession finished(Path folder) {
        return new CliSession() {
            @Override
            public SessionPoll poll(long out, long err, int max) throws java.io.IOException {
                return poll(out, err, 0, max);
            }

            @Override
            public SessionPoll poll(long out, long err, long usage, int max) throws java.io.IOException {
                ControlFolderReader.Usage records = ControlFolderReader.usage(folder, usage, max);
                byte[] output = LocalCliSession.read(folder.resolve(ControlFolder.OUTPUT), out, max);
                byte[] stderr = LocalCliSession.read(folder.resolve(ControlFolder.STDERR), err, max);
                return new SessionPoll(output, stderr, LocalCliSession.readExitCode(folder), true, null, records.lines(),
                        records.consumed(), ControlFolderReader.changes(folder));
            }

            @Override
            public void stop() {
            }

            @Override
            public void cleanup() {
            }
        };
    }

    /**
     * A follower resumed where the session's files cannot be read again (its agent has not answered since the
     * restart) does not say that the CLI printed nothing: it printed what the checkpoint counts.
     */
    @Test
    void aSessionWhoseEarlierEventsCannotBeReadAgainIsNotSaidToHavePrintedNothing() throws Exception {
        CliCommand command = Commands.build(TaskSpec.of("task"), TestCli.executable(), dir.toString(),
                dir.resolve("control").toString(), java.util.Map.of());
        CliSession nothingToRead = CliSession.NOTHING_TO_READ;
        SessionFollower unread = AutopilotEngine.builder(new ListLogSink()).build().resume(command.plan(), List.of(), nothingToRead,
                new Checkpoint(4_000, 0, 0), System.currentTimeMillis());
        SessionFollower fresh = AutopilotEngine.builder(new ListLogSink()).build().resume(command.plan(), List.of(), nothingToRead,
                Checkpoint.START, System.currentTimeMillis());

        assertThat(unread.lost(null, "the agent is gone").reason()).contains("after Jenkins restarted")
                .doesNotContain("before the CLI printed any event");
        assertThat(fresh.lost(null, "the agent is gone").reason()).contains("before the CLI printed any event");
    }

    /**
     * A session whose files cannot be read again (its agent has not answered since the restart) is ended with what its
     * journal holds: the turns, tool calls and model calls it had, not an empty session; nothing is printed or journaled
     * twice.
     */
    @Test
    void aSessionKnownOnlyFromItsJournalEndsWithTheTurnsToolCallsAndUsageItHad() throws Exception {
        CountDownLatch secondTurn = new CountDownLatch(1);
        try (ScriptedModelServer server = ScriptedModelServer.start(fourTurns(secondTurn))) {
            Session s = new Session(server);
            Session.Left left = s.followUntil(f -> f.state().toolCalls() >= 1
                    && s.firstLog.lines().stream().anyMatch(l -> l.startsWith("[copilot]   tokens")));
            SessionState before = left.follower().state();
            List<String> journaled = Files.readAllLines(s.journal, StandardCharsets.UTF_8);
            List<com.fasterxml.jackson.databind.JsonNode> usage = journaled.stream().filter(l -> l.contains("\"type\":\"" + EventJournal.USAGE + "\""))
                    .map(ResumeTest::json).map(n -> n.path("data")).toList();
            assertThat(usage).isNotEmpty();
            secondTurn.countDown();
            s.awaitExit();

            JournalReplay replay = JournalReplay.of(s.journal, left.checkpoint().journalBytes());
            SessionResult result = s.resumeFrom(replay, replay.checkpoint()).lost(null, "the agent is gone");

            assertThat(result.activity().turns()).isEqualTo(before.turns()).isPositive();
            assertThat(result.activity().toolCalls()).isEqualTo(before.toolCalls());
            assertThat(result.usage().inputTokens()).isEqualTo(usage.stream().mapToLong(n -> n.path("inputTokens").asLong()).sum()).isPositive();
            assertThat(result.usage().outputTokens()).isEqualTo(usage.stream().mapToLong(n -> n.path("outputTokens").asLong()).sum());
            assertThat(result.reason()).contains("the agent is gone");
            assertThat(s.secondLog.lines()).as("what the journal held is not printed again")
                    .noneMatch(l -> l.startsWith("[copilot] Turn ") || l.startsWith("[copilot]   tokens"));
            List<String> after = Files.readAllLines(s.journal, StandardCharsets.UTF_8);
            assertThat(after.subList(0, journaled.size())).as("the journal up to the checkpoint, once").isEqualTo(journaled);
            assertThat(after.subList(journaled.size(), after.size())).as("then only the end")
                    .noneMatch(l -> !l.contains("\"type\":\"" + EventJournal.OWN_TYPE_PREFIX))
                    .noneMatch(l -> l.contains(EventJournal.USAGE))
                    .anyMatch(l -> l.contains(EventJournal.RUN_FINISHED));
            left.session().cleanup();
        }
    }

    /** A model call's usage comes back from the journal as it was counted: tokens, premium requests and AI credits. */
    @Test
    void usageReplayedFromAJournalKeepsItsPremiumRequestsAndAiCredits() throws Exception {
        Path journal = dir.resolve("journal.jsonl");
        Files.writeString(journal, String.join("\n",
                "{\"type\":\"autopilot.run_started\",\"data\":{}}",
                "{\"type\":\"assistant.turn_start\",\"id\":\"t1\",\"data\":{\"turnId\":\"0\"}}",
                "{\"type\":\"autopilot.usage\",\"data\":{\"turn\":1,\"model\":\"gpt-5-mini\",\"inputTokens\":1200,"
                        + "\"outputTokens\":80,\"cacheReadTokens\":0,\"cacheWriteTokens\":0,\"premiumRequests\":1.0,"
                        + "\"aiCredits\":0.012345678,\"durationMs\":900}}",
                "{\"type\":\"assistant.turn_start\",\"id\":\"t2\",\"data\":{\"turnId\":\"1\"}}",
                "{\"type\":\"autopilot.usage\",\"data\":{\"turn\":2,\"model\":\"gpt-5-mini\",\"inputTokens\":1300,"
                        + "\"outputTokens\":20,\"cacheReadTokens\":0,\"cacheWriteTokens\":0,\"premiumRequests\":0.0,"
                        + "\"aiCredits\":0.000000002,\"durationMs\":400}}",
                "{\"type\":\"assistant.turn_start\",\"id\":\"t3\",\"da") + "\n", StandardCharsets.UTF_8);
        long journalBytes = Files.size(journal) - "{\"type\":\"assistant.turn_start\",\"id\":\"t3\",\"da\n".length();
        CliCommand command = Commands.build(TaskSpec.of("task"), TestCli.executable(), dir.toString(),
                dir.resolve("control").toString(), java.util.Map.of());

        JournalReplay replay = JournalReplay.of(journal, journalBytes);
        SessionResult result = AutopilotEngine.builder(new ListLogSink()).build().resume(command.plan(), List.of(), replay,
                replay.checkpoint(), System.currentTimeMillis()).lost(null, "the agent is gone");

        assertThat(result.activity().turns()).as("the third turn is past the checkpoint").isEqualTo(2);
        assertThat(result.usage().inputTokens()).isEqualTo(2500);
        assertThat(result.usage().outputTokens()).isEqualTo(100);
        assertThat(result.usage().premiumRequests()).isEqualTo(1.0);
        assertThat(result.usage().aiCredits()).isEqualTo(0.01234568);
        assertThat(result.ending().model()).isEqualTo("gpt-5-mini");
    }

    private static com.fasterxml.jackson.databind.JsonNode json(String line) {
        try {
            return io.jenkins.plugins.copilotautopilot.core.events.EventParser.mapper().readTree(line);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One session's command, logs and journal across two followers. */
    private final class Session {
        final CliCommand command;
        final ListLogSink firstLog = new ListLogSink();
        final ListLogSink secondLog = new ListLogSink();
        final Path journal = dir.resolve("journal.jsonl");
        final long startedAt = System.currentTimeMillis();
        OutputStream journalOut;

        Session(ScriptedModelServer server) throws Exception {
            Path work = Files.createDirectories(dir.resolve("work"));
            TaskSpec options = TaskSpec.of("Run two commands, then finish.").set(MODEL, "fake-model")
                    .set(ALLOW_ALL_TOOLS, true)
                    .provider(server.baseUrl(), "openai", "scripted-provider-key", null, true);
            command = Commands.build(options, TestCli.executable(), work.toString(),
                    dir.resolve("control").toString(), System.getenv());
        }

        /** Where a follower that went away (a restart) left the session. */
        record Left(CliSession session, Checkpoint checkpoint, SessionFollower follower) {
        }

        /** Launches the session and follows it until {@code point}; then the follower goes away, as in a restart. */
        Left followUntil(Predicate<SessionFollower> point) throws Exception {
            AutopilotEngine.Running running = engine(firstLog, journalStream()).launch(command, new LocalCliLauncher());
            tickUntil(running.follower(), running.session(), point);
            Checkpoint checkpoint = running.follower().checkpoint();
            journalOut.close();
            return new Left(running.session(), checkpoint, running.follower());
        }

        /** Waits until the CLI, followed by nobody, has ended. */
        void awaitExit() throws InterruptedException {
            Path exitCode = Path.of(command.launchFolder(), ControlFolder.EXIT_CODE);
            long deadline = System.nanoTime() + ScriptedModelServer.SESSION_LIMIT.toNanos();
            while (!Files.exists(exitCode) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(exitCode).exists();
        }

        OutputStream journalStream() throws Exception {
            journalOut = Files.newOutputStream(journal);
            return journalOut;
        }

        AutopilotEngine engine(ListLogSink log, OutputStream journalTo) {
            return engine(log, journalTo, Commands.FAST);
        }

        AutopilotEngine engine(ListLogSink log, OutputStream journalTo, EngineTimings timings) {
            return AutopilotEngine.builder(log).journalTo(journalTo).timings(timings).build();
        }

        /** What a restarted controller does: the journal cut back to the checkpoint, a new follower. */
        SessionFollower resumeFrom(CliSession session, Checkpoint checkpoint) throws Exception {
            try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE)) {
                channel.truncate(checkpoint.journalBytes());
            }
            OutputStream append = Files.newOutputStream(journal, StandardOpenOption.APPEND);
            return engine(secondLog, append).resume(command.plan(), command.secretValues(System.getenv()),
                    session, checkpoint, startedAt);
        }

        /**
         * The two followers together wrote what one follower that saw the whole session writes: the same log
         * lines up to the closing block, the same outcome, and a journal with every event line exactly once.
         */
        void assertSameAsOneFollower(CliSession session, SessionResult result) throws Exception {
            Path folder = ((LocalCliSession) session).folder();
            byte[] stdout = Files.readAllBytes(folder.resolve(ControlFolder.OUTPUT));
            ListLogSink reference = new ListLogSink(false);
            SessionFollower one = AutopilotEngine.builder(reference).timings(Commands.FAST).build()
                    .follow(command, System.getenv(), startedAt);
            SessionResult referenceResult = tickUntilFinished(one, finished(folder));

            List<String> both = new ArrayList<>(firstLog.lines());
            both.addAll(secondLog.lines());
            // usage lines come from another file than the events: where they fall (and whether they name their turn)
            // depends on when it was read, so they are compared by count and numbers; every other line in order
            Predicate<String> usage = l -> l.startsWith("[copilot]   tokens: ") || l.startsWith("[copilot]   tokens (turn ");
            assertThat(beforeClosing(both).stream().filter(usage.negate()).toList())
                    .isEqualTo(beforeClosing(reference.lines()).stream().filter(usage.negate()).toList());
            assertThat(both.stream().filter(usage).map(ResumeTest::numbers).toList())
                    .containsExactlyInAnyOrderElementsOf(reference.lines().stream().filter(usage).map(ResumeTest::numbers).toList())
                    .isNotEmpty();
            assertThat(both.get(beforeClosing(both).size() + 1)).isEqualTo(reference.lines().get(beforeClosing(reference.lines()).size() + 1));
            // what the closing block says of the changes needs the plan, which a resumed follower has without a header
            Predicate<String> changes = l -> l.startsWith("[copilot] Code changes") || l.startsWith("[copilot] Changed");
            assertThat(both.stream().filter(changes).toList()).isEqualTo(reference.lines().stream().filter(changes).toList())
                    .hasSize(1);
            assertThat(result.outcome()).isEqualTo(referenceResult.outcome());

            List<String> journalEvents = Files.readAllLines(journal, StandardCharsets.UTF_8).stream()
                    .filter(l -> !l.contains("\"type\":\"" + EventJournal.OWN_TYPE_PREFIX)).toList();
            List<String> stdoutLines = new String(stdout, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
            assertThat(journalEvents).isEqualTo(stdoutLines);
            List<String> journal = Files.readAllLines(this.journal, StandardCharsets.UTF_8);
            assertThat(journal.get(0)).contains(EventJournal.RUN_STARTED);
            assertThat(journal.get(journal.size() - 1)).contains(EventJournal.RUN_FINISHED);
            assertThat(journal.stream().filter(l -> l.contains(EventJournal.RUN_STARTED))).hasSize(1);
            assertThat(journal.stream().filter(l -> l.contains(EventJournal.USAGE))).hasSize((int) reference.lines().stream()
                    .filter(usage).count());
        }

        private List<String> beforeClosing(List<String> lines) {
            int rule = lines.indexOf("[copilot] " + "-".repeat(72));
            assertThat(rule).isPositive();
            return lines.subList(0, rule);
        }
    }
}
