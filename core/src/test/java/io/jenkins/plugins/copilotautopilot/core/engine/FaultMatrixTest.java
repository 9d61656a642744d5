package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.Turn;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptCli;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.SyntheticSession;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault matrix (README, "Reliability"): each fault with the outcome and message a user gets, that no
 * process is left, and that the journal is intact up to the fault (first and last record present, every line
 * valid JSON).
 */
@Timeout(180)
class FaultMatrixTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** Every journal line parses, and it starts and ends with our own records. */
    static void assertJournalIntact(String journal) throws IOException {
        List<String> lines = journal.lines().toList();
        assertThat(lines).isNotEmpty();
        List<JsonNode> parsed = new ArrayList<>();
        for (String line : lines) {
            parsed.add(JSON.readTree(line));
        }
        assertThat(parsed.get(0).path("type").asText()).isEqualTo("autopilot.run_started");
        assertThat(parsed.get(parsed.size() - 1).path("type").asText()).isEqualTo("autopilot.run_finished");
    }

    static void assertJournalIntact(Path journal) throws IOException {
        assertJournalIntact(Files.readString(journal));
    }

    // ---- the CLI itself ---------------------------------------------------------------------------------

    @Test
    void missingBinary() throws IOException {
        ScriptCli.Run run = ScriptCli.run(dir.resolve("no-such-copilot"), dir);
        assertThat(run.result().outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result().reason())
                .isEqualTo("Could not start the Copilot CLI: cannot run " + dir.resolve("no-such-copilot") + " (No such file or directory)");
        assertJournalIntact(run.journal());
    }

    @Test
    void binaryNotExecutable() throws IOException {
        Path file = ScriptCli.write(dir, "echo never");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        ScriptCli.Run run = ScriptCli.run(file, dir);
        assertThat(run.result().outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result().reason()).contains("Permission denied");
        assertJournalIntact(run.journal());
    }

    @Test
    void aWrongProgramThatPrintsNoJson() throws IOException {
        ScriptCli.Run run = ScriptCli.run(ScriptCli.write(dir, "echo 'Usage: something else entirely'; echo done"), dir);
        assertThat(run.result().outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result().reason()).startsWith("The Copilot CLI output ended without a result line (exit code 0, 0 events)");
        assertThat(run.log().lines()).contains("[copilot] cli: Usage: something else entirely");
        assertJournalIntact(run.journal());
        assertThat(run.journal()).contains("Usage: something else entirely");
    }

    @Test
    void aCliThatRejectsOurFlags() throws IOException {
        ScriptCli.Run run = ScriptCli.run(ScriptCli.write(dir,
                "echo \"error: unknown option '--autopilot'\" >&2; echo \"(Did you mean --autopilot-mode?)\" >&2; exit 1"), dir);
        assertThat(run.result().outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result().reason()).isEqualTo("The Copilot CLI exited with code 1: error: unknown option '--autopilot'"
                + " | (Did you mean --autopilot-mode?)");
        assertJournalIntact(run.journal());
    }

    @Test
    void aCliKilledMidTurn() throws IOException {
        E2eRun run = E2eRun.with(Scripts.always(Reply.stall()))
                .options(o -> o.set(INACTIVITY_TIMEOUT, Duration.ofSeconds(60)))
                .listener(killCliOnTurnStart())
                .run();
        assertThat(run.result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result.reason()).isEqualTo("The Copilot CLI was killed by signal 9 (exit code 137).");
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
        assertJournalIntact(run.journal);
        assertThat(run.journalText()).contains("\"assistant.turn_start\"");
    }

    /** Sends SIGKILL to the CLI (the process that carries the run marker and runs the CLI binary). */
    private static SessionListener killCliOnTurnStart() {
        return new SessionListener() {
            @Override
            public void onTurnStarted(Turn turn) {
                for (ProcessHandle p : ProcessHandle.allProcesses().toList()) {
                    String cmd = p.info().command().orElse("");
                    if (cmd.endsWith("/copilot") && ProcessHandle.current().descendants().anyMatch(d -> d.pid() == p.pid())) {
                        p.destroyForcibly();
                    }
                }
            }
        };
    }

    @Test
    void aCliThatExitsWithoutAResultLine() throws IOException {
        Path capture = ScriptCli.capture(dir, "cli-happy");
        ScriptCli.Run run = ScriptCli.run(ScriptCli.write(dir, "grep -v '\"type\": \"result\"' '" + capture + "'"), dir);
        assertThat(run.result().outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result().reason()).startsWith("The Copilot CLI output ended without a result line (exit code 0,");
        assertThat(run.result().summary()).isEqualTo("Created hello.txt containing 'hello-from-fake-model'.");
        assertJournalIntact(run.journal());
    }

    @Test
    void whatTheAgentLeftRunningInTheBackgroundIsStoppedAfterTheRun() throws Exception {
        Path capture = ScriptCli.capture(dir, "cli-happy");
        Path pidFile = dir.resolve("background.pid");
        // a tool started a server in the background and the session ended normally
        ScriptCli.Run run = ScriptCli.run(ScriptCli.write(dir, "sleep 308 >/dev/null 2>&1 &\necho $! > '" + pidFile
                + "'\ncat '" + capture + "'"), dir);
        assertThat(run.result().outcome()).isEqualTo(Outcome.COMPLETED);
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        // killed: gone, or a zombie until its new parent (init) reaps it
        assertThat(ProcessTable.isZombie(pid)).as("the background process has ended").isTrue();
        assertThat(ProcessTable.survivorsOf(run.runId())).isEmpty();
    }

    @Test
    void stdoutClosedWhileTheProcessLivesOn() throws IOException {
        ScriptCli.Run run = ScriptCli.run(ScriptCli.write(dir, "exec 1>&-\nsleep 301"), dir,
                o -> o.set(INACTIVITY_TIMEOUT, Duration.ofSeconds(3)), e -> { });
        assertThat(run.result().outcome()).isEqualTo(Outcome.STALLED);
        assertThat(run.result().reason()).contains("No event from the Copilot CLI for 3s").contains("before the CLI printed any event");
        assertThat(ProcessTable.survivorsOf(run.runId())).isEmpty();
        assertJournalIntact(run.journal());
    }

    @Test
    void aStderrFloodWhileStdoutIsQuietDoesNotDeadlock() throws IOException {
        Path capture = ScriptCli.capture(dir, "cli-happy");
        // 20 MB on stderr first (a pipe holds 64 KB: an unread stderr would block the CLI forever), then the session
        ScriptCli.Run run = ScriptCli.run(ScriptCli.write(dir,
                "head -c 20000000 /dev/zero | tr '\\0' 'e' | fold -w 200 >&2\ncat '" + capture + "'"), dir);
        assertThat(run.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.log().lines().stream().filter(l -> l.startsWith("[copilot] stderr: ")).count()).isEqualTo(50);
        assertThat(run.log().lines()).contains("[copilot] (more stderr output is not shown)");
        assertThat(run.journal().length()).isLessThan(2_000_000);
        assertJournalIntact(run.journal());
    }

    // ---- the model provider -----------------------------------------------------------------------------

    @Test
    void http500ThenRecovery() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        ScriptedModelServer.Script happy = Scripts.bashThenComplete("echo recovered", "Recovered after a 500.");
        E2eRun run = E2eRun.with(request -> calls.incrementAndGet() == 1 ? Reply.status(500, "scripted: transient") : happy.reply(request))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true))
                .run();
        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.log.find("[copilot] info: Request failed due to a transient API error. Retrying...")).isNotNull();
        assertJournalIntact(run.journal);
    }

    @Test
    void http500ForeverFailsAfterTheRetries() throws IOException {
        // the CLI's own retries alone (riding the failure out is ServiceRetriesEndToEndTest's)
        E2eRun run = E2eRun.with(Scripts.always(Reply.status(500, "scripted: always broken")))
                .options(o -> o.set(io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.SERVICE_RETRIES, 0)).run();
        assertThat(run.result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result.reason()).contains("HTTP 500").contains("scripted: always broken");
        assertThat(run.result.ending().failure().kind()).isEqualTo(io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure.Kind.SERVICE_ERROR);
        assertThat(run.log.lines().stream().filter(l -> l.contains("Retrying")).count()).isEqualTo(5);
        assertJournalIntact(run.journal);
    }

    @Test
    void connectionRefused() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + closedPort + "/v1";
        E2eRun run = E2eRun.with(Scripts.neverComplete())
                .options(o -> o.provider(url, "openai", "k-123456", null, true))
                .run();
        assertThat(run.result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result.reason()).startsWith("The session failed with a model error: Could not connect to local model"
                + " provider at " + url + ".").contains("Check that the service is running and the port is correct.");
        assertJournalIntact(run.journal);
    }

    @Test
    void aModelThatStallsMidStream() throws IOException {
        E2eRun run = E2eRun.with(Scripts.always(Reply.stall()))
                .options(o -> o.set(INACTIVITY_TIMEOUT, Duration.ofSeconds(3)))
                .run();
        assertThat(run.result.outcome()).isEqualTo(Outcome.STALLED);
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
        assertJournalIntact(run.journal);
    }

    @Test
    void malformedSse() throws IOException {
        E2eRun run = E2eRun.with(Scripts.always(Reply.malformed()))
                .options(o -> o.set(TIMEOUT, Duration.ofSeconds(90)))
                .run();
        assertThat(run.result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result.reason()).contains("Failed to parse chat-completions stream chunk");
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
        assertJournalIntact(run.journal);
    }

    // ---- the output -------------------------------------------------------------------------------------

    @Test
    void aSingle50MegabyteLineInvalidUtf8AndNulBytes() throws IOException {
        Path capture = ScriptCli.capture(dir, "cli-happy");
        ScriptCli.Run run = ScriptCli.run(ScriptCli.write(dir,
                "printf '{\"type\":\"tool.execution_partial_result\",\"data\":{\"partialOutput\":\"'\n"
                        + "head -c 52428800 /dev/zero | tr '\\0' 'z'\n"
                        + "printf '\"}}\\n'\n"
                        + "printf 'bad utf8: \\303\\050 \\377 and a NUL: \\000 end\\n'\n"
                        + "printf '{\"type\":\"brand.new_event\",\"data\":{}}\\n{\"type\":\"tool.execution_complete\"}\\n'\n"
                        + "cat '" + capture + "'"), dir);
        assertThat(run.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.log().find("line of 52428868 bytes was too long to read")).isNotNull();
        assertThat(run.log().find("[copilot] cli: bad utf8: \uFFFD( \uFFFD and a NUL: \uFFFD end")).isNotNull();
        assertThat(run.journal().length()).isLessThan(200_000);
        assertJournalIntact(run.journal());
    }

    @Test
    void aBurstOfAHundredThousandEvents() throws IOException {
        Path events = dir.resolve("burst.jsonl");
        long written;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(events))) {
            written = SyntheticSession.write(out, 100_000);
        }
        long start = System.nanoTime();
        ScriptCli.Run run = ScriptCli.run(ScriptCli.write(dir, "cat '" + events + "'"), dir);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(run.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.result().activity().turns()).isEqualTo(2000);
        assertThat(run.result().activity().toolCalls()).isEqualTo(2000);
        assertThat(run.journal().lines().count()).isEqualTo(written + 2);
        assertThat(took).as("no back-pressure stall").isLessThan(Duration.ofSeconds(60));
    }

    // ---- aborts at every phase --------------------------------------------------------------------------

    @Test
    void abortBeforeTheFirstEvent() throws IOException {
        AtomicBoolean started = new AtomicBoolean();
        ScriptCli.Run run = ScriptCli.run(ScriptCli.write(dir, "sleep 302"), dir, o -> { }, engine -> EngineEndToEndTest.abortWhen(
                () -> ProcessTable.workingIn(dir).stream().anyMatch(p -> p.contains("sleep 302")), started, engine::abort));
        assertThat(started).as("the CLI was running when the abort came").isTrue();
        assertThat(run.result().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(run.result().reason()).isEqualTo("Aborted before the CLI printed any event; the Copilot CLI was stopped.");
        assertThat(ProcessTable.survivorsOf(run.runId())).isEmpty();
        assertJournalIntact(run.journal());
    }

    @Test
    void abortDuringTheNudge() throws IOException {
        AtomicReference<AutopilotEngine> engine = new AtomicReference<>();
        AtomicBoolean aborted = new AtomicBoolean();
        E2eRun run = E2eRun.with(request -> request.turn() == 1 ? Reply.text("Not done yet.") : Reply.stall())
                .engine(engine::set)
                .listener(new SessionListener() {
                    @Override
                    public void onNudge(int n) {
                        aborted.set(true);
                        engine.get().abort();
                    }
                })
                .run();
        assertThat(aborted).isTrue();
        assertThat(run.result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
        assertJournalIntact(run.journal);
    }

    @Test
    void abortAfterTaskCompleteBeforeExit() throws IOException {
        Path capture = ScriptCli.capture(dir, "cli-happy");
        AtomicReference<AutopilotEngine> engine = new AtomicReference<>();
        ScriptCli.Run run = ScriptCli.run(ScriptCli.write(dir,
                "grep -B1000 '\"session.task_complete\"' '" + capture + "'\nsleep 303"), dir, o -> { }, new SessionListener() {
                    @Override
                    public void onTaskComplete(String summary, Boolean success, String outcome, String blocker) {
                        engine.get().abort(); // the follower has read task_complete; the CLI lingers in its sleep
                    }
                }, engine::set);
        assertThat(run.result().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(run.result().reason()).isEqualTo("Aborted after the agent called task_complete; the Copilot CLI was stopped.");
        assertThat(run.result().summary()).isEqualTo("Created hello.txt containing 'hello-from-fake-model'.");
        assertThat(ProcessTable.survivorsOf(run.runId())).isEmpty();
        assertJournalIntact(run.journal());
    }
}
