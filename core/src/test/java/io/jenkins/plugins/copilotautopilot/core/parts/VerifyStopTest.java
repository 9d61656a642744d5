package io.jenkins.plugins.copilotautopilot.core.parts;

import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.process.ForwardingCliSession;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.ToolCall;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Script;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Every way a session is stopped against every phase of a session with an acceptance check: the check running, the
 * launch script waiting to be told what comes next, the CLI resumed with the check's failure. A stop reaches what runs
 * and the loop: the check never runs on (its {@code late} never printed, never "passed"), the CLI is never resumed after
 * it (no model request after the stop), no further round starts, and nothing of the run is left. The real CLI 1.0.102.
 */
class VerifyStopTest {
    /** A check that runs long, then would pass. */
    private static final String SLOW_CHECK = "echo checking; sleep 61; echo late";
    /** A check that fails until the agent's fix is there. */
    private static final String CHECK = "test -f fixed.txt || { echo 'FAIL: fixed.txt is missing'; exit 3; }";

    /** The agent completes at once and, when told the check failed, runs {@code fix} (a long command here). */
    private static Script fixingWith(String fix) {
        return Scripts.completeThenFixWhenTold(fix);
    }

    /** What a stopped session must not have done after the stop. */
    private static void nothingRanOnAfterTheStop(E2eRun run, int requestsAtTheStop) throws Exception {
        assertThat(run.server.requests()).as("no model request after the stop").hasSize(requestsAtTheStop);
        assertThat(run.journalText()).doesNotContain("\"text\":\"late\"").doesNotContain("\"round\":2");
        assertThat(run.log.lines()).noneMatch(l -> l.contains(": passed")).noneMatch(l -> l.contains("verify | late"));
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
    }

    /** Calls {@code stop} once the check's command runs (its process is there, not only announced). */
    private static SessionListener onceTheCheckRuns(String command, Runnable stop) {
        return new SessionListener() {
            @Override
            public void onVerifyStarted(int round, java.time.Instant at) {
                Thread waiter = new Thread(() -> {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (!ProcessTable.runningWith(command) && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                    stop.run();
                });
                waiter.setDaemon(true);
                waiter.start();
            }
        };
    }

    @Test
    void anAbortTheMomentTheCheckIsAnnouncedStopsItBeforeItRuns() throws Exception {
        AtomicReference<AutopilotEngine> engine = new AtomicReference<>();
        E2eRun run = E2eRun.with(fixingWith("touch fixed.txt"))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(VERIFY, SLOW_CHECK))
                .engine(engine::set)
                .listener(new SessionListener() {
                    @Override
                    public void onVerifyStarted(int round, java.time.Instant at) {
                        engine.get().abort();
                    }
                })
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(run.result.verification().exitCode()).isNull();
        assertThat(run.log.lines()).contains("[copilot] Verify, round 1: stopped with the session");
        nothingRanOnAfterTheStop(run, 1);
    }

    @Test
    void anAbortWhileTheChecksCommandRunsStopsItAndTheLoop() throws Exception {
        AtomicReference<AutopilotEngine> engine = new AtomicReference<>();
        E2eRun run = E2eRun.with(fixingWith("touch fixed.txt"))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(VERIFY, SLOW_CHECK))
                .engine(engine::set)
                .listener(onceTheCheckRuns("sleep 61", () -> engine.get().abort()))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(run.result.verification().verified()).isNull();
        assertThat(run.result.verification().exitCode()).isNull();
        assertThat(run.journalText()).contains("\"text\":\"checking\"");
        nothingRanOnAfterTheStop(run, 1);
    }

    @Test
    void theWallClockLimitStopsALongCheck() throws Exception {
        E2eRun run = E2eRun.with(fixingWith("touch fixed.txt"))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(VERIFY, "echo checking; sleep 300; echo late").set(TIMEOUT, Duration.ofSeconds(30)))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.TIMED_OUT);
        assertThat(run.result.reason()).startsWith("Timed out after 30s (the wall-clock limit)");
        assertThat(run.log.lines()).contains("[copilot] Verify, round 1: stopped with the session");
        nothingRanOnAfterTheStop(run, 1);
    }

    @Test
    void anAbortWhileTheScriptWaitsToBeToldEndsTheWaitAndTheSession() throws Exception {
        AtomicReference<AutopilotEngine> engine = new AtomicReference<>();
        CountDownLatch waiting = new CountDownLatch(1);
        E2eRun run = E2eRun.with(fixingWith("touch fixed.txt"))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(VERIFY, CHECK))
                .engine(engine::set)
                // the follower's answer is held back: the launch script waits until the stop ends the wait
                .session(session -> new ForwardingCliSession(session) {
                    @Override
                    public void answer(int step, String answer, String prompt) {
                        waiting.countDown();
                        engine.get().abort();
                    }
                })
                .run();

        assertThat(waiting.getCount()).isZero();
        assertThat(run.result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(run.result.verification().rounds()).isZero();
        assertThat(run.journalText()).contains("autopilot.awaiting").doesNotContain("autopilot.verify_started");
        nothingRanOnAfterTheStop(run, 1);
    }

    @Test
    void anAbortInTheResumedCliEndsTheSessionWithoutAnotherRound() throws Exception {
        AtomicReference<AutopilotEngine> engine = new AtomicReference<>();
        E2eRun run = E2eRun.with(fixingWith("sleep 62; touch fixed.txt"))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(VERIFY, CHECK))
                .engine(engine::set)
                .listener(new SessionListener() {
                    @Override
                    public void onToolStarted(ToolCall call) {
                        if ("bash".equals(call.name())) {
                            engine.get().abort();
                        }
                    }
                })
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(run.result.verification().rounds()).isEqualTo(1);
        assertThat(run.workDir.resolve("fixed.txt")).doesNotExist();
        // the first run's completion, then the fix's tool call: nothing after the stop
        nothingRanOnAfterTheStop(run, 2);
    }

    @Test
    void theToolLimitInTheResumedCliEndsTheSessionWithoutAnotherRound() throws Exception {
        E2eRun run = E2eRun.with(fixingWith("sleep 63; touch fixed.txt"))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(VERIFY, CHECK).set(TOOL_TIMEOUT, Duration.ofSeconds(3)))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.TIMED_OUT);
        assertThat(run.result.reason()).startsWith("The tool call 'bash' (sleep 63; touch fixed.txt) in turn 2 ran longer than 3s");
        assertThat(run.result.verification().rounds()).isEqualTo(1);
        nothingRanOnAfterTheStop(run, 2);
    }

    @Test
    void aBudgetCrossedInTheResumedCliEndsTheSessionWithoutAnotherRound() throws Exception {
        // each model call reports 1,020 tokens: the first run's one call is within the budget, the resumed run's is not
        E2eRun run = E2eRun.with(fixingWith("sleep 64; touch fixed.txt"))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).set(VERIFY, CHECK).set(MAX_TOKENS, 1500L))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.OVER_BUDGET);
        assertThat(run.result.verification().rounds()).isEqualTo(1);
        assertThat(run.workDir.resolve("fixed.txt")).doesNotExist();
        assertThat(run.journalText()).doesNotContain("\"round\":2");
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
    }
}
