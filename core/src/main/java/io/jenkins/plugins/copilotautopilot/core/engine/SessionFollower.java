package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.events.LineAssembler;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.outcome.OutcomeDecider;
import io.jenkins.plugins.copilotautopilot.core.outcome.ProcessEnd;
import io.jenkins.plugins.copilotautopilot.core.outcome.ServiceFailures;
import io.jenkins.plugins.copilotautopilot.core.outcome.SessionOutcome;
import io.jenkins.plugins.copilotautopilot.core.parts.AnswerPart;
import io.jenkins.plugins.copilotautopilot.core.parts.ChangesPart;
import io.jenkins.plugins.copilotautopilot.core.parts.PartContext;
import io.jenkins.plugins.copilotautopilot.core.parts.SessionParts;
import io.jenkins.plugins.copilotautopilot.core.parts.SpendGuard;
import io.jenkins.plugins.copilotautopilot.core.parts.VerifyPart;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.render.LogRenderer;
import io.jenkins.plugins.copilotautopilot.core.result.Activity;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import io.jenkins.plugins.copilotautopilot.core.result.ModelUsage;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.session.UsageTotals;
import io.jenkins.plugins.copilotautopilot.core.verify.AcceptanceCheck;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * Follows one running session through its files: each {@link #tick} reads what the CLI wrote since the last
 * one, passes it through the parser, the tracker, the journal and the live log, enforces the limits, and once
 * the CLI has ended (or was stopped) decides the outcome. Nothing here blocks between ticks, so one thread can
 * follow many sessions; the caller decides when to tick (see {@link AutopilotEngine#run} and
 * {@link PollingScheduler}).
 *
 * <p>Created by {@link AutopilotEngine#start} or {@link AutopilotEngine#resume}. Ticks must not overlap;
 * {@link #requestAbort()} may be called from any thread.
 *
 * <p>It keeps the order of a look on one thread (read, the parts' look, the launch script's answer, the parts' reasons to
 * stop, the time limits, the end) and the stop paths; what each feature decides, shows and adds to the result is its
 * part's ({@link SessionParts}), the time limits are {@link SessionLimits}, what the script is told {@link VerifyLoop}.
 */
public final class SessionFollower {
    /** How often what the journal holds in memory is written out, at the latest. */
    static final long JOURNAL_FLUSH_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);
    private final SessionLimits limits;
    private final SecretMasker masker;
    private final EngineTimings timings;
    private final long startedAtMillis;
    private final SessionTracker tracker;
    private final LogRenderer renderer;
    private final Mutable.Sink sink;
    private final Mutable.Stream journalStream;
    private final SafeJournal journal;
    private final EventPipeline pipeline;
    private final LineAssembler stdoutLines;
    private final StderrCollector stderr;
    private final LineAssembler stderrLines;

    private final UsageInTurnOrder usageInOrder;
    private final VerifyLoop verifyLoop;
    /** The session's features, each with its state, its lines and its piece of the result. */
    private final SessionParts parts;

    private long outputOffset;
    private long stderrOffset;
    private long usageOffset;
    private long lastActivityNanos = System.nanoTime();
    private long resultSeenAtNanos;
    private volatile boolean abortRequested;
    private volatile SessionResult result;
    private Stopping stopping;
    private final List<String> warnings = new java.util.ArrayList<>();
    /** Where the GitHub token came from, as the user knows it, for what a failed authorization says to do; or null. */
    private String tokenSource;

    SessionFollower(SessionPlan plan, SecretMasker masker, EngineTimings timings, long startedAtMillis,
                    SessionTracker tracker, LogRenderer renderer, Mutable.Sink sink, Mutable.Stream journalStream,
                    SafeJournal journal, io.jenkins.plugins.copilotautopilot.core.mask.CliRedactions redactions, int maxLineBytes,
                    int maxStderrLineBytes) {
        this.limits = new SessionLimits(plan, startedAtMillis);
        this.masker = masker;
        this.timings = timings;
        this.startedAtMillis = startedAtMillis;
        this.tracker = tracker;
        this.renderer = renderer;
        this.sink = sink;
        this.journalStream = journalStream;
        this.journal = journal;
        this.pipeline = new EventPipeline(tracker, journal, redactions);
        this.stdoutLines = new LineAssembler(pipeline, maxLineBytes);
        this.usageInOrder = new UsageInTurnOrder(tracker, stdoutLines);
        this.stderr = new StderrCollector(renderer, journal);
        this.stderrLines = new LineAssembler(stderr, maxStderrLineBytes);
        this.parts = SessionParts.of(plan, new PartContext(renderer.lines(), masker, tracker, journal::recordOwn, this::warn));
        ServiceRetries serviceRetries = new ServiceRetries(plan.get(SessionSettings.SERVICE_RETRIES), plan.limit(SessionSettings.TIMEOUT),
                java.time.Instant.ofEpochMilli(startedAtMillis), this::warn).follow(tracker);
        this.verifyLoop = new VerifyLoop(parts.verify(), parts.answer(), masker, serviceRetries).follow(tracker);
    }

    /** Where the GitHub token came from ({@code credential 'copilot-token'}), for what a failed authorization says to do. */
    synchronized void tokenSource(String description) {
        this.tokenSource = description;
    }

    /**
     * Checks the session's usage against limits across runs as it grows ({@code null}: none): a session that reaches
     * one is stopped OVER_BUDGET with the guard's words.
     */
    public synchronized void spendGuard(SpendGuard guard) {
        parts.budgets().spendGuard(guard);
    }

    /** The calls of this session that wait for a person, or null when it has no {@code approveTools}. */
    public ApprovalGate approvals() {
        return parts.approvals() == null ? null : parts.approvals().gate();
    }

    /** What one tick did. */
    public record Tick(boolean gotData, SessionResult result) {
        public boolean finished() {
            return result != null;
        }
    }

    /** Asks the session to stop; the next tick stops the CLI's process tree and the session ends ABORTED. */
    public void requestAbort() {
        abortRequested = true;
    }

    public boolean abortRequested() {
        return abortRequested;
    }

    /** The result once the session has ended, else null. */
    public SessionResult result() {
        return result;
    }

    /** The session's masker, the journal's: what leaves the session (a state kept for later) is masked with it. */
    public SecretMasker masker() {
        return masker;
    }

    /** When the session started (epoch milliseconds): the wall-clock limit counts from here. */
    public long startedAtMillis() {
        return startedAtMillis;
    }

    /** The session as followed so far. */
    public SessionState state() {
        return tracker.state();
    }

    /**
     * Reads what is new, follows it, and stops the CLI when a limit is hit or an abort was asked for.
     *
     * @throws IOException when the session's files cannot be read (its machine went away): nothing was lost,
     *                     the next tick tries again
     */
    public synchronized Tick tick(CliSession session) throws IOException, InterruptedException {
        if (result != null) {
            return new Tick(false, result);
        }
        if (stopping != null) {
            return waitForStop(session);
        }
        if (abortRequested) {
            return stop(session, (exit, activity) -> ProcessEnd.stopped(ProcessEnd.Termination.ABORTED, exit, null, activity), true);
        }
        SessionPoll poll = poll(session);
        boolean gotData = poll.hasData();
        feed(poll);
        if (parts.look(session, poll)) {
            lastActivityNanos = System.nanoTime(); // a wait for a person is no stalled agent: the other limits hold
        }
        if (poll.ended()) {
            drain(session, poll);
            ProcessEnd end = poll.launchError() != null ? ProcessEnd.launchFailed(masker.mask(
                    io.jenkins.plugins.copilotautopilot.core.command.SandboxSupport.explain(poll.launchError())))
                    : ProcessEnd.exited(poll.exitCode() == null ? -1 : poll.exitCode(), null, true);
            return new Tick(true, finish(end));
        }
        String spent = parts.stopReason();
        if (spent != null) {
            return stop(session, (exit, activity) -> ProcessEnd.overBudget(exit, spent, activity), true);
        }
        // the launch script waits for an answer (after the CLI, the check, a refusal): given once the usage records are
        // read up to now (the session state holds every lasting event, and lags behind the events while a follower
        // catches up), so that a budget they passed stops the session rather than letting it go on
        if (poll.usageConsumed() == 0) {
            verifyLoop.answer(session, false);
        }
        long now = System.nanoTime();
        if (tracker.scriptWorking() || tracker.backingOff()) {
            // the acceptance check prints at its end, a wait prints nothing, the CLI is silent between its retries of a
            // refused model call for as long as the service asks: the wall clock limits them
            lastActivityNanos = now;
        }
        java.util.function.BiFunction<Integer, String, ProcessEnd> limited = limits.reached(now, lastActivityNanos, tracker);
        if (limited != null) {
            return stop(session, limited, true);
        }
        if (!pipeline.resultSeen()) {
            resultSeenAtNanos = 0;
        } else if (!tracker.scriptWorking()) {
            if (resultSeenAtNanos == 0) {
                resultSeenAtNanos = now;
            } else if (now - resultSeenAtNanos >= timings.exitAfterResult().toNanos()) {
                // the session is over but the process lingers: stop it and judge the session as it reported
                Integer reported = pipeline.reportedExitCode();
                return stop(session, (exit, activity) -> ProcessEnd.exited(reported == null ? 0 : reported, null, true), false);
            }
        }
        return new Tick(gotData, null);
    }

    private void warn(String line) {
        String masked = masker.mask(line);
        renderer.note(masked);
        journal.recordOwn(EventJournal.WARNING, EventParser.mapper().createObjectNode().put("text", masked));
        warnings.add(masked);
    }

    /** A stop decided by the follower before this one, at {@code at} ({@link SessionTracker#stoppedAt}). */
    void stoppedAt(java.time.Instant at) {
        tracker.stoppedAt(at);
    }

    /** Whether the CLI was asked to stop and the follower waits for it to end. */
    public synchronized boolean isStopping() {
        return stopping != null;
    }

    /**
     * Ends the session as FAILED because it can no longer be followed (its agent was removed, say), after
     * trying to stop it.
     */
    public synchronized SessionResult lost(CliSession session, String why) {
        if (result != null) {
            return result;
        }
        String activity = tracker.state().activity();
        if (session != null) {
            try {
                stderr.stopping();
                session.stop();
            } catch (IOException | InterruptedException | RuntimeException e) {
                renderer.note("WARNING: could not stop the Copilot CLI: " + e.getMessage());
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        return finish(ProcessEnd.lost(why, activity));
    }

    /** The lines before the CLI starts, and the journal's first record. */
    synchronized void header(io.jenkins.plugins.copilotautopilot.core.command.CliCommand command,
                             java.util.function.Supplier<com.fasterxml.jackson.databind.JsonNode> description) {
        renderer.header(command);
        journal.recordOwn(EventJournal.RUN_STARTED, description);
    }

    /**
     * Says once, before the CLI starts, which secrets are too short to mask without garbling the log: the CLI hides
     * each wherever it occurs in what it prints, inside words too (its redaction of one is read back before the
     * outcome is decided: {@link io.jenkins.plugins.copilotautopilot.core.mask.CliRedactions}).
     */
    synchronized void shortSecrets(List<String> variables) {
        if (variables.isEmpty()) {
            return;
        }
        String which = variables.size() == 1 ? "the secret in " + variables.get(0) + " is"
                : "the secrets in " + String.join(", ", variables) + " are";
        warn("WARNING: " + which + " shorter than " + io.jenkins.plugins.copilotautopilot.core.mask.CliRedactions.SHORT
                + " characters: the Copilot CLI hides a secret wherever it occurs in what it prints, inside words too, so"
                + " this log may show words garbled" + (variables.size() == 1 ? "" : ", and the session's events may be"
                + " misread") + ". Use the real credential, or a longer value.");
    }

    /** Ends the session as FAILED: the CLI could not be started. */
    public synchronized SessionResult launchFailed(String message) {
        return result != null ? result : finish(ProcessEnd.launchFailed(masker.mask(message)));
    }

    /** Ends the session as ABORTED before the CLI was started. */
    public synchronized SessionResult abortedBeforeStart() {
        return result != null ? result
                : finish(ProcessEnd.stopped(ProcessEnd.Termination.ABORTED, null, null, "before the Copilot CLI was started"));
    }

    /**
     * Ends the session as ABORTED when it was asked to stop but its machine cannot be reached to stop the CLI
     * (an agent that is offline): the log says the CLI may still run there.
     */
    public synchronized SessionResult abortedUnreachable(String why) {
        if (result != null) {
            return result;
        }
        String activity = tracker.state().activity();
        renderer.note("WARNING: the Copilot CLI could not be reached to stop it (" + why + "); it may still be running.");
        return finish(ProcessEnd.stopped(ProcessEnd.Termination.ABORTED, null, null, activity).asUnconfirmed());
    }

    /** Whether the wall-clock limit has passed (checked by callers that cannot reach the session to tick it). */
    public boolean pastWallClockLimit() {
        return limits.pastWallClock();
    }

    /** How far this follower got; the journal is flushed first, so its size is exact. */
    public synchronized Checkpoint checkpoint() {
        journal.flush();
        return new Checkpoint(outputOffset, stderrOffset, journalStream.written(), usageOffset);
    }

    /** Reads the session again up to {@code checkpoint} with the log and the journal muted, then goes live. */
    synchronized void catchUp(CliSession session, Checkpoint checkpoint) throws IOException, InterruptedException {
        while (outputOffset < checkpoint.outputOffset() || stderrOffset < checkpoint.stderrOffset()
                || usageOffset < checkpoint.usageOffset()) {
            // Usage records are read in whole lines, which cannot be cut afterwards: while some are left before the
            // checkpoint, no more than that is read, so that the reading stops where the checkpoint was taken. What
            // the session state holds after it (model calls recorded while nobody followed) is followed live, with
            // its log line and journal record, not counted here in silence.
            long usageLeft = checkpoint.usageOffset() - usageOffset;
            SessionPoll poll = usageLeft > 0 && usageLeft < timings.chunkBytes()
                    ? session.poll(outputOffset, stderrOffset, usageOffset, (int) usageLeft) : poll(session);
            byte[] out = limit(poll.output(), checkpoint.outputOffset() - outputOffset);
            byte[] err = limit(poll.stderr(), checkpoint.stderrOffset() - stderrOffset);
            boolean usage = usageLeft > 0 && poll.usageConsumed() > 0;
            if (out.length == 0 && err.length == 0 && !usage) {
                if (outputOffset == 0 && checkpoint.outputOffset() > 0) {
                    tracker.earlierEventsUnread();
                }
                break; // the files are shorter than the checkpoint says: go on from what is there
            }
            feed(new SessionPoll(out, err, null, false, null, usage ? poll.usage() : new byte[0],
                    usage ? poll.usageConsumed() : 0, null));
        }
        journal.flush();
        journalStream.unmute();
        sink.unmute();
        lastActivityNanos = System.nanoTime();
    }

    private static byte[] limit(byte[] bytes, long max) {
        return bytes.length <= max ? bytes : java.util.Arrays.copyOf(bytes, (int) Math.max(0, max));
    }

    private void feed(SessionPoll poll) {
        long eventsBefore = pipeline.events();
        if (poll.usageConsumed() > 0) {
            usageInOrder.records(poll.usage());
            usageOffset += poll.usageConsumed();
        }
        if (poll.output().length > 0) {
            usageInOrder.output(poll.output());
            outputOffset += poll.output().length;
        }
        if (poll.stderr().length > 0) {
            stderrLines.write(poll.stderr(), 0, poll.stderr().length);
            stderrOffset += poll.stderr().length;
        }
        usageInOrder.acceptRest();
        parts.read(poll);
        // Inactivity means no event from the CLI while it is its turn: junk output does not count, and a tool
        // that works silently (a long build) is guarded by the wall-clock limit, not this one.
        if (pipeline.events() != eventsBefore || tracker.runningToolCalls() > 0) {
            lastActivityNanos = System.nanoTime();
        }
        // what was recorded reaches the disk soon (and before a tool runs, see EventPipeline): a follower killed
        // meanwhile (a runner stopped with SIGKILL) loses at most that much of the journal
        journal.flushIfOlderThan(JOURNAL_FLUSH_NANOS);
    }

    /** Reads until the files hold nothing more (the CLI has ended, or was stopped). */
    private void drain(CliSession session, SessionPoll last) throws IOException, InterruptedException {
        SessionPoll poll = last;
        while (poll == null || poll.hasData()) {
            poll = poll(session);
            feed(poll);
        }
    }

    private SessionPoll poll(CliSession session) throws IOException, InterruptedException {
        return session.poll(outputOffset, stderrOffset, usageOffset, timings.chunkBytes());
    }

    /**
     * Asks the session to stop the CLI and goes on following it until it has ended, or for at most
     * {@link EngineTimings#exitAfterStop()}: a stop never blocks the follower (the session stops the CLI on its own,
     * see {@link CliSession#stop()}). The session then ends as {@code end} says, given the CLI's exit code if it came.
     *
     * @param announce whether the stop is a termination of the session (journaled, and calls still running then count
     *                 as interrupted) rather than the last step of one that already reported its end
     */
    private Tick stop(CliSession session, java.util.function.BiFunction<Integer, String, ProcessEnd> end, boolean announce)
            throws IOException, InterruptedException {
        String activity = tracker.state().activity(); // what the agent was doing when it was stopped
        if (announce) {
            tracker.stopping(java.time.Instant.now());
            journal.recordOwn(EventJournal.STOPPING, EventParser.mapper().createObjectNode()
                    .put("termination", end.apply(null, activity).termination().name()));
        }
        stderr.stopping();
        stopping = new Stopping(end, activity, System.nanoTime() + timings.exitAfterStop().toNanos());
        session.stop();
        return waitForStop(session);
    }

    /** One look while the CLI is being stopped: its last words, and the end once it is gone (or waited for long enough). */
    private Tick waitForStop(CliSession session) throws IOException, InterruptedException {
        SessionPoll poll = poll(session);
        feed(poll);
        if (poll.ended()) {
            drain(session, poll);
            return new Tick(true, finish(stopping.end().apply(poll.exitCode(), stopping.activity())));
        }
        if (System.nanoTime() >= stopping.deadlineNanos()) {
            return new Tick(true, finish(stopping.end().apply(null, stopping.activity()).asUnconfirmed()));
        }
        return new Tick(poll.hasData(), null);
    }

    /** A stop that was asked for: how the session will end, what the agent was doing, until when to wait for the exit code. */
    private record Stopping(java.util.function.BiFunction<Integer, String, ProcessEnd> end, String activity, long deadlineNanos) {
    }

    private SessionResult finish(ProcessEnd end) {
        stdoutLines.close();
        stderrLines.close();
        tracker.endRunningCalls();
        pipeline.close();
        stderr.close();

        SessionState state = tracker.state();
        ProcessEnd finalEnd = parts.ended(end.with(stderr.explanation(), end.outputEnded()), state);
        state = tracker.state();
        AnswerPart answer = parts.answer();
        VerifyPart verify = parts.verify();
        SessionOutcome outcome = OutcomeDecider.decide(state, finalEnd, answer == null ? null : answer.forOutcome(),
                verify == null ? null : verify.check(), verify == null ? new AcceptanceCheck.Rounds(0, null) : verify.forOutcome());
        Duration duration = Duration.ofMillis(Math.max(0, System.currentTimeMillis() - startedAtMillis));
        UsageTotals usage = tracker.usage();
        ServiceFailure failure = masked(ServiceFailures.of(outcome.outcome(), state, finalEnd.exitCode(), stderr.startFailure(),
                tokenSource));
        renderer.closing(new SessionOutcome(outcome.outcome(), masker.mask(outcome.reason())), state, duration, usage,
                parts.changes().changes(), finalEnd.exitCode(), failure);

        SessionResult finished = toResult(outcome, state, duration, finalEnd, usage, failure);
        com.fasterxml.jackson.databind.node.ObjectNode summary = AutopilotEngine.describe(finished);
        if (journal.dropped() > 0) {
            summary.put("journalLinesLeftOut", journal.dropped());
        }
        journal.recordOwn(EventJournal.RUN_FINISHED, summary);
        journal.close();
        result = finished;
        return finished;
    }

    private SessionResult toResult(SessionOutcome outcome, SessionState state, Duration duration, ProcessEnd end,
                                   UsageTotals usage, ServiceFailure failure) {
        ResultInfo info = state.result();
        Outcome ended = outcome.outcome();
        // the process's own exit code, never the result line's: after a SIGTERM that says 0 while the process exits 143
        Ending ending = new Ending(ended, masker.mask(outcome.reason()), masker.mask(state.taskSummary()),
                ended == Outcome.BLOCKED ? masker.mask(state.taskBlocker()) : null, failure, end.exitCode(), duration.toMillis(),
                info == null ? null : info.sessionId(), state.model());
        Activity activity = new Activity(state.turns(), state.toolCalls(), state.failedToolCalls(), state.deniedToolCalls(),
                state.policyDeniedToolCalls(), tracker.deniedFetches(), tracker.deniedUrls().stream().map(masker::mask).toList(),
                state.nudges());
        boolean recorded = usage.calls() > 0;
        ModelUsage used = new ModelUsage(usage.sessionPremiumRequests(info), usage.aiCredits(), usage.aiCreditsStatus(),
                recorded ? usage.inputTokens() : null, recorded ? usage.outputTokens() : null, recorded ? usage.cacheReadTokens() : null);
        return new SessionResult(ending, activity, used, parts.changes().result(info, masker),
                parts.verify() == null ? null : parts.verify().result(ended), parts.answer() == null ? null : parts.answer().result(ended),
                warnings);
    }

    private ServiceFailure masked(ServiceFailure failure) {
        return failure == null ? null : new ServiceFailure(failure.kind(), masker.mask(failure.errorCode()), failure.statusCode(), failure.retryable(),
                masker.mask(failure.action()));
    }
}
