package io.jenkins.plugins.copilotautopilot.core.parts;

import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalDecision;
import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@code approveTools} with the real CLI 1.0.102: its preToolUse hook, configured in the session's private home, holds a
 * matching call until a person decides; approved it runs (with no allow rule for it), denied or undecided it does not,
 * and the model reads who denied it. Calls the patterns do not match never wait.
 */
class ApprovalTest {
    private static final String TOUCH = "touch approved.txt";

    /** An approver that decides each call as {@code decide} says, on another thread (as a person's click comes). */
    private static E2eRun.Builder decidingWith(E2eRun.Builder run, List<PendingApproval> asked, BiConsumer<ApprovalGate, PendingApproval> decide) {
        return run.approver(gate -> gate.addListener(new ApprovalGate.Listener() {
            @Override
            public void requested(PendingApproval call) {
                asked.add(call);
                new Thread(() -> decide.accept(gate, call)).start();
            }

            @Override
            public void decided(PendingApproval call, ApprovalDecision decision) {
            }
        }));
    }

    @Test
    void anApprovedCallRunsWithoutAnAllowRuleAndTheLogAndJournalSayWhoApprovedIt() throws Exception {
        List<PendingApproval> asked = new CopyOnWriteArrayList<>();
        E2eRun run = decidingWith(E2eRun.with(Scripts.bashThenComplete(TOUCH, "Touched it."))
                .options(o -> o.add(APPROVE_TOOLS, "shell(touch)")), asked,
                (gate, call) -> {
                    try {
                        Thread.sleep(300); // a person takes a while: the wait has a length of its own in the report
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    gate.decide(call.id(), true, "alice", System.currentTimeMillis());
                }).run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        // the session page and the timeline: the call waited, then ran; while it waited it was waiting, not running
        var bash = io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader.read(run.journal).turns().stream()
                .flatMap(t -> t.toolCalls().stream()).filter(c -> c.name().equals("bash")).findFirst().orElseThrow();
        assertThat(bash.approval()).isEqualTo("APPROVED");
        assertThat(bash.approvalWaitMillis()).isBetween(300L, bash.durationMillis());
        String journal = run.journalText();
        int asking = journal.indexOf("\n", journal.indexOf("\"" + EventJournal.APPROVAL_REQUESTED + "\""));
        var whileWaiting = io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader.read(
                new java.io.StringReader(journal.substring(0, asking + 1)));
        assertThat(whileWaiting.turns().stream().flatMap(t -> t.toolCalls().stream()).filter(c -> c.name().equals("bash")))
                .singleElement().satisfies(c -> assertThat(c.awaitingApproval()).isTrue());
        assertThat(io.jenkins.plugins.copilotautopilot.core.report.TimelineSvg.render(
                io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader.read(run.journal)))
                .contains("waiting for approval").contains("for approval: approved");
        assertThat(asked).singleElement().satisfies(call -> {
            assertThat(call.tool()).isEqualTo("bash");
            assertThat(call.arguments()).isEqualTo(TOUCH);
            assertThat(call.pattern()).isEqualTo("shell(touch)");
        });
        assertThat(Files.exists(run.workDir.resolve("approved.txt"))).isTrue();
        assertThat(run.result.activity().deniedToolCalls()).isZero();
        assertThat(run.log.lines()).anyMatch(l -> l.contains("waiting for a person's approval: shell(touch)"));
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] Waiting for approval (approveTools shell(touch)): bash " + TOUCH));
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] Approved by alice at ") && l.endsWith(": bash " + TOUCH));
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot]   < bash ok"));
        JsonNode decided = record(run, EventJournal.APPROVAL_DECIDED);
        assertThat(decided.path("verdict").asText()).isEqualTo("APPROVED");
        assertThat(decided.path("by").asText()).isEqualTo("alice");
        assertThat(decided.path("at").asText()).isNotEmpty();
        assertThat(run.command.commandLine()).doesNotContain("--allow-tool");
    }

    @Test
    void aDeniedCallDoesNotRunAndTheModelReadsWhoDeniedIt() throws Exception {
        List<PendingApproval> asked = new CopyOnWriteArrayList<>();
        E2eRun run = decidingWith(E2eRun.with(Scripts.bashThenComplete(TOUCH, "Could not touch it."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).add(APPROVE_TOOLS, "shell(touch:*)")), asked,
                (gate, call) -> gate.decide(call.id(), false, "bob", System.currentTimeMillis())).run();

        assertThat(asked).hasSize(1);
        assertThat(Files.exists(run.workDir.resolve("approved.txt"))).isFalse();
        assertThat(run.result.activity().deniedToolCalls()).isEqualTo(1);
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] Denied by bob at "));
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot]   < bash DENIED") && l.contains("denied by bob: do not run it"));
        assertThat(run.server.requests().toString()).contains("denied by bob: do not run it");
        assertThat(record(run, EventJournal.APPROVAL_DECIDED).path("verdict").asText()).isEqualTo("DENIED");
    }

    @Test
    void aCallNobodyDecidesOnIsDeniedAtTheApprovalTimeout() throws Exception {
        List<PendingApproval> asked = new CopyOnWriteArrayList<>();
        E2eRun run = decidingWith(E2eRun.with(Scripts.bashThenComplete(TOUCH, "Nobody answered."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).add(APPROVE_TOOLS, "shell").set(APPROVAL_TIMEOUT, Duration.ofSeconds(3))),
                asked, (gate, call) -> { }).run();

        assertThat(asked).hasSize(1);
        assertThat(asked.get(0).deadlineMillis() - asked.get(0).requestedAtMillis()).isEqualTo(3_000);
        assertThat(Files.exists(run.workDir.resolve("approved.txt"))).isFalse();
        assertThat(run.result.activity().deniedToolCalls()).isEqualTo(1);
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] Denied: nobody decided in time (nobody approved it within 3 seconds)"));
        assertThat(run.server.requests().toString()).contains("nobody approved it within 3 seconds");
        assertThat(record(run, EventJournal.APPROVAL_DECIDED).path("verdict").asText()).isEqualTo("TIMED_OUT");
    }

    @Test
    void aCallThePatternsDoNotMatchNeverWaits() throws Exception {
        List<PendingApproval> asked = new CopyOnWriteArrayList<>();
        E2eRun run = decidingWith(E2eRun.with(Scripts.bashThenComplete("echo 'git push' && " + TOUCH, "Touched."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).add(APPROVE_TOOLS, "shell(git push)")), asked,
                (gate, call) -> gate.decide(call.id(), false, "nobody", System.currentTimeMillis())).run();

        assertThat(asked).isEmpty();
        assertThat(Files.exists(run.workDir.resolve("approved.txt"))).isTrue();
        assertThat(run.log.lines()).noneMatch(l -> l.contains("Waiting for approval"));
    }

    @Test
    void denyToolsWinsOverApproval() throws Exception {
        List<PendingApproval> asked = new CopyOnWriteArrayList<>();
        E2eRun run = decidingWith(E2eRun.with(Scripts.bashThenComplete(TOUCH, "Denied."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).add(APPROVE_TOOLS, "shell(touch)").add(DENY_TOOLS, "shell(touch)")), asked,
                (gate, call) -> gate.decide(call.id(), true, "alice", System.currentTimeMillis())).run();

        assertThat(Files.exists(run.workDir.resolve("approved.txt"))).isFalse();
        assertThat(run.result.activity().deniedToolCalls()).isEqualTo(1);
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] Not asked: denyTools matches it"));
        assertThat(asked).as("nobody is asked").isEmpty();
        assertThat(run.log.lines()).noneMatch(l -> l.contains("Waiting for approval"));
        assertThat(run.log.lines()).noneMatch(l -> l.contains("Approved by"));
    }

    @Test
    void anAbortWhileACallWaitsEndsTheSessionAndLeavesNothing() throws Exception {
        List<PendingApproval> asked = new CopyOnWriteArrayList<>();
        AtomicReference<AutopilotEngine> engine = new AtomicReference<>();
        E2eRun run = E2eRun.with(Scripts.bashThenComplete(TOUCH, "Never."))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).add(APPROVE_TOOLS, "shell"))
                .engine(engine::set)
                .approver(gate -> gate.addListener(new ApprovalGate.Listener() {
                    @Override
                    public void requested(PendingApproval call) {
                        asked.add(call);
                        engine.get().abort();
                    }

                    @Override
                    public void decided(PendingApproval call, ApprovalDecision decision) {
                    }
                })).run();

        assertThat(asked).hasSize(1);
        assertThat(run.result.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(Files.exists(run.workDir.resolve("approved.txt"))).isFalse();
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot] No longer waits: the session ended"));
    }

    private static JsonNode record(E2eRun run, String type) throws Exception {
        return run.journalLines().stream().filter(l -> type.equals(l.path("type").asText())).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no " + type + " in the journal")).path("data");
    }
}
