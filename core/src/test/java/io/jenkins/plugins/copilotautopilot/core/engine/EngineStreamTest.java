package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ForwardingCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.testing.FakeSession;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.ReplayLauncher;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine on crafted streams and misbehaving processes, without the real CLI. */
@Timeout(60)
class EngineStreamTest {
    private final ListLogSink log = new ListLogSink(false);
    private final ByteArrayOutputStream journal = new ByteArrayOutputStream();

    private SessionResult run(CliLauncher launcher) {
        return AutopilotEngine.builder(log).journalTo(journal).timings(Commands.FAST).build().run(Commands.simple(), launcher);
    }

    private List<JsonNode> journal() throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : journal.toString(StandardCharsets.UTF_8).split("\n")) {
            lines.add(new ObjectMapper().readTree(line));
        }
        return lines;
    }

    private static String happyWithoutResult() {
        String happy = Captures.stdoutText("cli-happy");
        return happy.substring(0, happy.lastIndexOf("{\"type\": \"result\""));
    }

    @Test
    void theJournalKeepsTheWholeTaskAsTheModelGotIt() throws IOException {
        String task = "Fix the tests. " + "Context line that matters. ".repeat(20_000);
        CliCommand command = Commands.of(TaskSpec.of(task)
                .githubToken("github_pat_testtoken123456"));
        AutopilotEngine.builder(log).journalTo(journal).timings(Commands.FAST).build().run(command, ReplayLauncher.ofCapture("cli-happy"));
        JsonNode started = journal().get(0);
        assertThat(started.path("type").asText()).isEqualTo("autopilot.run_started");
        assertThat(started.path("data").path("prompt").asText()).isEqualTo(task);
    }

    @Test
    void outputWithoutAResultLineFails() {
        SessionResult result = run(ReplayLauncher.ofText(happyWithoutResult(), 0));
        assertThat(result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(result.reason()).startsWith("The Copilot CLI output ended without a result line (exit code 0, ");
        assertThat(result.summary()).isEqualTo("Created hello.txt containing 'hello-from-fake-model'.");
    }

    @Test
    void aKilledCliFails() {
        SessionResult result = run(ReplayLauncher.ofText(happyWithoutResult(), 137));
        assertThat(result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(result.reason()).isEqualTo("The Copilot CLI was killed by signal 9 (exit code 137).");
        assertThat(result.ending().exitCode()).isEqualTo(137);
    }

    @Test
    void stderrExplainsAFailingExit() {
        byte[] stderr = ("Error: No authentication information found.\n\nCopilot can be authenticated with GitHub using an OAuth Token\n"
                + "To authenticate, you can use any of the following methods:\n").getBytes(StandardCharsets.UTF_8);
        SessionResult result = run(new ReplayLauncher(new byte[0], stderr, 1, 100));
        assertThat(result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(result.reason()).isEqualTo("The Copilot CLI exited with code 1: Error: No authentication information found.");
        assertThat(log.lines()).contains("[copilot] stderr: Error: No authentication information found.");
    }

    @Test
    void aHugeLineIsBoundedAndTheSessionStillCounts() throws IOException {
        String happy = Captures.stdoutText("cli-happy");
        String huge = "{\"type\":\"tool.execution_partial_result\",\"data\":{\"partialOutput\":\"" + "z".repeat(12 * 1024 * 1024) + "\"}}\n";
        int cut = happy.indexOf("{\"type\": \"tool.execution_complete\"");
        ListLogSink sink = new ListLogSink(false);
        SessionResult result = AutopilotEngine.builder(sink).journalTo(journal).maxLineBytes(1024 * 1024).build()
                .run(Commands.simple(), ReplayLauncher.ofText(happy.substring(0, cut) + huge + happy.substring(cut), 0));
        assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(sink.lines()).contains("[copilot] (a tool.execution_partial_result line of 12582980 bytes was too long to read;"
                + " its beginning is in the journal)");
        JsonNode truncated = journal().stream().filter(j -> j.path("data").path("truncated").asBoolean()).findFirst().orElseThrow();
        assertThat(truncated.path("data").path("bytes").asLong()).isEqualTo(12582980L);
        assertThat(journal.size()).isLessThan(100_000);
    }

    @Test
    void invalidUtf8NulBytesAndUnknownEventsAreKept() throws IOException {
        byte[] happy = Captures.stdout("cli-happy");
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        stream.write("{\"type\":\"some.future_event\",\"data\":{\"x\":1}}\n".getBytes(StandardCharsets.UTF_8));
        stream.write(new byte[] {'b', 'a', 'd', (byte) 0xC3, (byte) 0x28, 0, 'x', '\n'});
        stream.write("{\"type\":\"assistant.message\",\"data\":{\"content\":\"caf\u00e9 \\u0000 ok\"}}\n".getBytes(StandardCharsets.UTF_8));
        stream.write(happy);
        SessionResult result = run(new ReplayLauncher(stream.toByteArray(), new byte[0], 0, 7));
        assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(log.lines()).contains("[copilot] cli: bad\uFFFD(\uFFFDx", "[copilot]   caf\u00e9 \uFFFD ok");
        assertThat(journal().get(1).path("type").asText()).isEqualTo("some.future_event");
        assertThat(journal().get(2).path("data").path("text").asText()).isEqualTo("bad\uFFFD(\0x");
    }

    @Test
    void valuesOfSecretEnvVarsAreMasked() {
        CliCommand command = Commands.of(TaskSpec.of("Do the task").githubToken("github_pat_testtoken123456").add(SECRET_ENV_VARS, "DEPLOY_KEY"));
        String leak = "{\"type\":\"assistant.message\",\"data\":{\"content\":\"the key is dk-secret-4242\"}}\n";
        SessionResult result = AutopilotEngine.builder(log).journalTo(journal).build().run(command,
                ReplayLauncher.ofText(leak + Captures.stdoutText("cli-happy"), 0).withEnvironment(java.util.Map.of("DEPLOY_KEY", "dk-secret-4242")));
        assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(log.lines()).contains("[copilot]   the key is ****");
        assertThat(journal.toString(StandardCharsets.UTF_8)).doesNotContain("dk-secret-4242");
    }

    @Test
    void aCliThatCannotStartFailsWithTheReason() {
        SessionResult result = run(command -> {
            throw new IOException("cannot run /opt/copilot/copilot (error=13, Permission denied)");
        });
        assertThat(result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(result.reason()).isEqualTo("Could not start the Copilot CLI: cannot run /opt/copilot/copilot (error=13, Permission denied)");
        assertThat(log.find("FAILED: Could not start the Copilot CLI")).isNotNull();
    }

    @Test
    void aJournalThatCannotBeWrittenDoesNotStopTheSession() {
        OutputStream full = new OutputStream() {
            private int written;

            @Override
            public void write(int b) throws IOException {
                if (++written > 100) {
                    throw new IOException("No space left on device");
                }
            }
        };
        SessionResult result = AutopilotEngine.builder(log).journalTo(full).build()
                .run(Commands.simple(), ReplayLauncher.ofCapture("cli-happy"));
        assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(log.find("WARNING: the session journal could not be written")).contains("No space left on device");
    }

    @Test
    void theJournalStopsRecordingAtItsLimitButKeepsItsLastRecord() throws IOException {
        SessionResult result = AutopilotEngine.builder(log).journalTo(journal).journalLimit(3000).timings(Commands.FAST).build()
                .run(Commands.simple(), ReplayLauncher.ofCapture("cli-happy"));
        assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(log.find("WARNING: the session journal reached its limit")).isNotNull();
        List<JsonNode> records = journal();
        JsonNode last = records.get(records.size() - 1);
        assertThat(last.path("type").asText()).isEqualTo("autopilot.run_finished");
        assertThat(last.path("data").path("outcome").asText()).isEqualTo("COMPLETED");
        assertThat(last.path("data").path("journalLinesLeftOut").asLong()).isPositive();
        assertThat(journal.size()).isLessThan(3000 + 4000); // the limit, the run_started and run_finished records
    }

    @Test
    void aProcessThatLingersAfterItsResultIsStopped() {
        FakeSession session = FakeSession.lingering(Captures.stdout("cli-happy"));
        long started = System.nanoTime();
        SessionResult result = run(command -> session);
        assertThat(session.stoppedWhileRunning()).isTrue();
        assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(result.ending().exitCode()).isZero();
        // stopped after Commands.FAST's 500 ms grace after the result line, not after the default 10 s
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void aSessionThatEndsByItselfIsNotStoppedButCleanedUp() {
        ReplayLauncher launcher = ReplayLauncher.ofCapture("cli-happy");
        SessionResult result = run(launcher);
        assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(launcher.session().stoppedWhileRunning()).isFalse();
        // what the agent left in the background is the launch script's to end (FaultMatrixTest), not the follower's
        assertThat(launcher.session().stops()).isZero();
        assertThat(launcher.session().cleanedUp()).isTrue();
    }

    @Test
    void stdoutClosedEarlyWhileTheProcessLivesOnIsAStall() {
        FakeSession session = FakeSession.lingering(new byte[0]);
        CliCommand command = Commands.of(TaskSpec.of("Do the task").githubToken("github_pat_testtoken123456").set(INACTIVITY_TIMEOUT, Duration.ofSeconds(2)));
        SessionResult result = AutopilotEngine.builder(log).timings(Commands.FAST).build().run(command, c -> session);
        assertThat(result.outcome()).isEqualTo(Outcome.STALLED);
        assertThat(result.reason()).contains("before the CLI printed any event");
        assertThat(session.stoppedWhileRunning()).isTrue();
    }

    @Test
    void outputThatIsNoEventDoesNotKeepASessionAlive() {
        byte[] junk = "not an event\n".repeat(100).getBytes(StandardCharsets.UTF_8);
        FakeSession session = new FakeSession(junk, new byte[0], 0, 14, true); // a junk line per look, then silence
        CliCommand command = Commands.of(TaskSpec.of("Do the task").githubToken("github_pat_testtoken123456").set(INACTIVITY_TIMEOUT, Duration.ofSeconds(1)));
        SessionResult result = AutopilotEngine.builder(log).timings(Commands.FAST).build().run(command, c -> session);
        assertThat(result.outcome()).isEqualTo(Outcome.STALLED);
        assertThat(session.stoppedWhileRunning()).isTrue();
    }

    @Test
    void abortBeforeStartNeverLaunches() {
        AtomicBoolean launched = new AtomicBoolean();
        AutopilotEngine engine = AutopilotEngine.builder(log).build();
        engine.abort();
        SessionResult result = engine.run(Commands.simple(), command -> {
            launched.set(true);
            throw new IOException("unexpected");
        });
        assertThat(launched).isFalse();
        assertThat(result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(result.reason()).isEqualTo("Aborted before the Copilot CLI was started; the Copilot CLI was stopped.");
    }

    @Test
    void interruptingTheRunningThreadAbortsAndKeepsTheInterrupt() throws Exception {
        FakeSession session = FakeSession.lingering(new byte[0]);
        CountDownLatch followed = new CountDownLatch(1);
        CliSession looked = new ForwardingCliSession(session) {
            @Override
            public SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes)
                    throws IOException, InterruptedException {
                followed.countDown();
                return super.poll(outputOffset, stderrOffset, usageOffset, maxBytes);
            }
        };
        Thread runner = Thread.currentThread();
        Thread interrupter = new Thread(() -> {
            try {
                if (followed.await(30, TimeUnit.SECONDS)) { // the engine follows the running session
                    runner.interrupt();
                }
            } catch (InterruptedException e) {
                // the test is over
            }
        });
        interrupter.start();
        SessionResult result = run(command -> looked);
        boolean stillInterrupted = Thread.interrupted();
        assertThat(result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(session.stoppedWhileRunning()).isTrue();
        assertThat(stillInterrupted).isTrue();
    }
}
