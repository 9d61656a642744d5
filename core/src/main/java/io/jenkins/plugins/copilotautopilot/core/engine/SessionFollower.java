package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalDecision;
import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalRules;
import io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval;
import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.events.LineAssembler;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.outcome.OutcomeDecider;
import io.jenkins.plugins.copilotautopilot.core.outcome.ProcessEnd;
import io.jenkins.plugins.copilotautopilot.core.outcome.ServiceFailures;
import io.jenkins.plugins.copilotautopilot.core.outcome.SessionOutcome;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.render.LogRenderer;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.ToolCall;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import io.jenkins.plugins.copilotautopilot.core.verify.AcceptanceCheck;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.session.AiCredits;
import io.jenkins.plugins.copilotautopilot.core.session.UsageRecord;
import io.jenkins.plugins.copilotautopilot.core.session.UsageTotals;
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
 * <p>Long because a tick's steps must happen in this order on one thread (read, journal, render, limits, budgets,
 * the acceptance loop, the end); what each step decides lives elsewhere ({@link VerifyLoop}, {@code OutcomeDecider},
 * {@code LogRenderer}).
 */
public final class SessionFollower {
    /** How often what the journal holds in memory is written out, at the latest. */
    static final long JOURNAL_FLUSH_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);
    private final Duration timeout;
    private final Duration inactivityTimeout;
    private final CallLimits callLimits;
    private final Budget budget;
    private SpendGuard spendGuard;
    private int guardedCalls = -1;
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

    private final EventParser usageParser = new EventParser();
    private final VerifyLoop verifyLoop;
    /** The check of the agent's answers against the schema, or null when the session asks for none. */
    private final OutputCheck outputCheck;
    /** The calls that wait for a person, or null when the session has no {@code approveTools}. */
    private final ApprovalGate approvals;
    /** Decisions handed to the hook, by request: handed again while a look still finds the request open. */
    private final java.util.Map<String, String> decisionsHandedOver = new java.util.HashMap<>();

    private long outputOffset;
    private long stderrOffset;
    private long usageOffset;
    private WorkTreeChanges changes;
    private long lastActivityNanos = System.nanoTime();
    private long resultSeenAtNanos;
    private volatile boolean abortRequested;
    private volatile SessionResult result;
    private Stopping stopping;
    private boolean usageWarned;
    private boolean creditsWarned;
    /** Whether a step's budget (not a quota) stopped the session: its reason then gives the session's final total. */
    private boolean budgetStopped;
    private final boolean routed;
    private boolean routingFailureWarned;
    /** The startup limit was looked at once it had passed: from then on there is nothing to check. */
    private boolean startupChecked;
    private final List<String> warnings = new java.util.ArrayList<>();
    /** Where the GitHub token came from, as the user knows it, for what a failed authorization says to do; or null. */
    private String tokenSource;

    SessionFollower(SessionPlan plan, SecretMasker masker, EngineTimings timings, long startedAtMillis,
                    SessionTracker tracker, LogRenderer renderer, Mutable.Sink sink, Mutable.Stream journalStream,
                    SafeJournal journal, io.jenkins.plugins.copilotautopilot.core.mask.CliRedactions redactions, int maxLineBytes,
                    int maxStderrLineBytes) {
        this.timeout = plan.limit(SessionSettings.TIMEOUT);
        this.inactivityTimeout = plan.limit(SessionSettings.INACTIVITY_TIMEOUT);
        this.callLimits = new CallLimits(plan.limit(SessionSettings.TOOL_TIMEOUT), plan.limit(SessionSettings.STARTUP_TIMEOUT),
                plan.get(SessionSettings.VERIFY), plan.get(SessionSettings.MAX_VERIFY_ROUNDS));
        this.budget = new Budget(plan.get(SessionSettings.MAX_PREMIUM_REQUESTS), plan.get(SessionSettings.MAX_TOKENS),
                plan.get(SessionSettings.MAX_AI_CREDITS));
        this.routed = io.jenkins.plugins.copilotautopilot.core.render.LogRenderer.AUTO_MODEL.equals(plan.get(SessionSettings.MODEL));
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
        this.stderr = new StderrCollector(renderer, journal);
        this.stderrLines = new LineAssembler(stderr, maxStderrLineBytes);
        OutputCheck answers = OutputCheck.of(plan, masker, this::answerChecked);
        this.outputCheck = answers == null ? null : answers.follow(tracker);
        ApprovalRules approving = ApprovalRules.approving(plan);
        this.approvals = approving.isEmpty() ? null
                : new ApprovalGate(approving, ApprovalRules.denying(plan), ApprovalRules.timeout(plan), masker::mask);
        if (approvals != null) {
            approvals.addListener(new ApprovalRecords());
        }
        tracker.addListener(new PolicyWarnings());
        ServiceRetries serviceRetries = new ServiceRetries(plan.get(SessionSettings.SERVICE_RETRIES), timeout,
                java.time.Instant.ofEpochMilli(startedAtMillis), this::warn).follow(tracker);
        this.verifyLoop = new VerifyLoop(this.callLimits.verify() == null ? null
                : new AcceptanceCheck(this.callLimits.verify(), this.callLimits.maxVerifyRounds()), outputCheck, masker,
                serviceRetries).follow(tracker);
    }

    /** Each setting of the organisation's policy that overrode the session's permissions, once: a warning. */
    private final class PolicyWarnings implements io.jenkins.plugins.copilotautopilot.core.session.SessionListener {
        private final java.util.Set<String> warned = new java.util.HashSet<>();

        @Override
        public void onPolicyEnforced(String setting, String escalation, boolean failClosed) {
            if (warned.add(setting + "|" + escalation)) {
                warn(io.jenkins.plugins.copilotautopilot.core.session.ManagedPolicy.warning(setting, escalation, failClosed));
            }
        }
    }

    /** Where the GitHub token came from ({@code credential 'copilot-token'}), for what a failed authorization says to do. */
    synchronized void tokenSource(String description) {
        this.tokenSource = description;
    }

    /** An answer checked against the schema: a line in the log, a record in the journal. */
    private void answerChecked(io.jenkins.plugins.copilotautopilot.core.output.OutputVerdict verdict) {
        boolean again = !verdict.valid() && outputCheck.invalidRounds() < outputCheck.maxRounds();
        renderer.answerChecked(verdict, again);
        com.fasterxml.jackson.databind.node.ObjectNode data = EventParser.mapper().createObjectNode();
        data.put("round", verdict.round());
        data.put("valid", verdict.valid());
        data.put("characters", verdict.answer().length());
        verdict.errors().forEach(data.putArray("errors")::add);
        journal.recordOwn(EventJournal.OUTPUT_CHECKED, data);
    }

    /** A call that waits, and its end: a line in the log, a record in the journal (the session page reads it). */
    private final class ApprovalRecords implements ApprovalGate.Listener {
        @Override
        public void requested(PendingApproval call) {
            renderer.approvalRequested(call, approvals.timeout());
            journal.recordOwn(EventJournal.APPROVAL_REQUESTED, describe(call));
        }

        @Override
        public void decided(PendingApproval call, ApprovalDecision decision) {
            renderer.approvalDecided(call, decision);
            com.fasterxml.jackson.databind.node.ObjectNode data = describe(call);
            data.put("verdict", decision.verdict().name());
            data.put("by", decision.by());
            data.put("at", java.time.Instant.ofEpochMilli(decision.atMillis()).toString());
            data.put("reason", decision.reason());
            journal.recordOwn(EventJournal.APPROVAL_DECIDED, data);
        }

        private com.fasterxml.jackson.databind.node.ObjectNode describe(PendingApproval call) {
            com.fasterxml.jackson.databind.node.ObjectNode data = EventParser.mapper().createObjectNode();
            data.put("id", call.id());
            data.put("tool", call.tool());
            data.put("arguments", call.arguments());
            data.put("pattern", call.pattern());
            data.put("requestedAt", java.time.Instant.ofEpochMilli(call.requestedAtMillis()).toString());
            data.put("deadline", java.time.Instant.ofEpochMilli(call.deadlineMillis()).toString());
            return data;
        }
    }

    /**
     * Checks the session's usage against limits across runs as it grows ({@code null}: none): a session that reaches
     * one is stopped OVER_BUDGET with the guard's words.
     */
    public synchronized void spendGuard(SpendGuard guard) {
        this.spendGuard = guard;
    }

    /** The calls of this session that wait for a person, or null when it has no {@code approveTools}. */
    public ApprovalGate approvals() {
        return approvals;
    }

    /**
     * The approval hook's open requests as this look found them, and the decisions due: each handed to the hook, and
     * handed again while a later look still finds its request open (the first hand-over failed).
     */
    private void followApprovals(CliSession session, SessionPoll poll) throws InterruptedException {
        if (approvals == null) {
            return;
        }
        long now = System.currentTimeMillis();
        approvals.open(poll.approvals(), now);
        java.util.Map<String, String> handOver = new java.util.LinkedHashMap<>();
        if (poll.approvals() != null) {
            java.util.Set<String> open = new java.util.HashSet<>();
            poll.approvals().forEach(r -> open.add(r.id()));
            decisionsHandedOver.keySet().retainAll(open);
            decisionsHandedOver.forEach(handOver::put);
        }
        for (ApprovalDecision decision : approvals.due(now)) {
            decisionsHandedOver.put(decision.id(), decision.hookOutput());
            handOver.put(decision.id(), decision.hookOutput());
        }
        for (java.util.Map.Entry<String, String> decision : handOver.entrySet()) {
            try {
                session.decide(decision.getKey(), decision.getValue());
            } catch (IOException e) {
                // handed again when a later look still finds the request open
            }
        }
        if (approvals.waiting()) {
            lastActivityNanos = System.nanoTime(); // a wait for a person is no stalled agent: the other limits hold
        }
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
        followApprovals(session, poll);
        if (poll.ended()) {
            drain(session, poll);
            ProcessEnd end = poll.launchError() != null ? ProcessEnd.launchFailed(masker.mask(
                    io.jenkins.plugins.copilotautopilot.core.command.SandboxSupport.explain(poll.launchError())))
                    : ProcessEnd.exited(poll.exitCode() == null ? -1 : poll.exitCode(), null, true);
            return new Tick(true, finish(end));
        }
        checkUsageRecords(false);
        verifyLoop.answer(session, false);
        String spent = budget.spent(tracker.usage());
        if (spent == null) {
            spent = guardedSpend();
        }
        if (spent != null) {
            String why = spent;
            budgetStopped = budget.spent(tracker.usage()) != null;
            return stop(session, (exit, activity) -> ProcessEnd.overBudget(exit, why, activity), true);
        }
        long now = System.nanoTime();
        if (timeout != null && System.currentTimeMillis() - startedAtMillis >= timeout.toMillis()) {
            return stop(session, (exit, activity) -> ProcessEnd.stopped(ProcessEnd.Termination.TIMED_OUT, exit, timeout, activity), true);
        }
        if (tracker.scriptWorking() || tracker.backingOff()) {
            // the acceptance check prints at its end, a wait prints nothing, the CLI is silent between its retries of a
            // refused model call for as long as the service asks: the wall clock limits them
            lastActivityNanos = now;
        }
        if (inactivityTimeout != null && now - lastActivityNanos >= inactivityTimeout.toNanos()) {
            return stop(session,
                    (exit, activity) -> ProcessEnd.stopped(ProcessEnd.Termination.STALLED, exit, inactivityTimeout, activity), true);
        }
        Tick limited = checkCallLimits(session, now);
        if (limited != null) {
            return limited;
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

    /** The limits on one tool call and on the CLI's start; null when neither is reached. */
    private Tick checkCallLimits(CliSession session, long now) throws IOException, InterruptedException {
        Duration startup = callLimits.startupTimeout();
        if (startup != null && !startupChecked && System.currentTimeMillis() - startedAtMillis >= startup.toMillis()) {
            startupChecked = true;
            SessionState state = tracker.state();
            if (state.events() == 0 && state.plainLines() == 0) {
                return stop(session, (exit, activity) -> ProcessEnd.stoppedAt(ProcessEnd.Termination.STARTUP_TIMED_OUT, exit,
                        startup, null, activity), true);
            }
        }
        Duration perCall = callLimits.toolTimeout();
        if (perCall != null) {
            SessionTracker.RunningCall longest = tracker.longestRunningCall();
            if (longest != null && now - longest.sinceNanos() >= perCall.toNanos()) {
                ToolCall call = longest.call();
                String args = call.argumentSummary().isEmpty() ? "" : " (" + Texts.truncate(call.argumentSummary(), 60) + ")";
                String which = "'" + call.name() + "'" + args + " in turn " + call.turn();
                return stop(session, (exit, activity) -> ProcessEnd.stoppedAt(ProcessEnd.Termination.TOOL_TIMED_OUT, exit,
                        perCall, which, activity), true);
            }
        }
        return null;
    }

    /**
     * Limits on one tool call and on the start, and the acceptance check that a completion must pass.
     *
     * @param verify the verify command (the launch script runs it), or null
     * @param maxVerifyRounds how often it runs at most
     */
    private record CallLimits(Duration toolTimeout, Duration startupTimeout, String verify, int maxVerifyRounds) {
    }

    /**
     * A budget counts the usage records the CLI writes into its own session state, which is no interface of the CLI's:
     * when a budget is set and model calls end without records, the budget cannot stop anything, and the log and the
     * result say so, once. One record may come late (the CLI writes it with the next call); at the end, none may.
     */
    private void checkUsageRecords(boolean atTheEnd) {
        checkCreditsReported();
        if (usageWarned || !budget.isSet()) {
            return;
        }
        SessionState now = tracker.state();
        int calls = now.turns();
        int recorded = tracker.usage().calls();
        // a call the service refused (a rate limit, a quota) is not billed and has no record
        boolean refused = now.retries() > 0 || now.firstError() != null || tracker.riddenOut() > 0;
        if (calls - recorded >= (atTheEnd ? 1 : 2) && recorded == 0 && !refused) {
            usageWarned = true;
            warn("WARNING: " + budget.names() + " is set, but the Copilot CLI wrote no usage record for " + calls
                    + (calls == 1 ? " model call" : " model calls")
                    + " where it used to (its session state): the budget cannot stop the session.");
        }
    }

    /**
     * An AI-credit budget counts what GitHub bills, which an own provider (or a service that sends no amounts) never
     * says: once a call was recorded without one, the log and the result say the budget cannot stop the session.
     */
    private void checkCreditsReported() {
        UsageTotals usage = tracker.usage();
        if (creditsWarned || usage.calls() == usage.creditedCalls()) {
            return;
        }
        creditsWarned = true;
        String uncounted = spendGuard == null ? null : spendGuard.uncounted(usage);
        if (uncounted != null) {
            warn("WARNING: " + uncounted);
        }
        if (budget.maxAiCredits() == null) {
            return;
        }
        warn("WARNING: maxAiCredits is set, but the model provider reports no AI credits for "
                + (usage.creditedCalls() == 0 ? "the session's model calls (an own provider?)" : "some model calls")
                + ": the AI-credit budget cannot count " + (usage.creditedCalls() == 0 ? "them" : "those")
                + "; set maxTokens or maxPremiumRequests as well.");
    }

    /** The CLI's own count of premium requests (its result line) against the limit, which records may have missed. */
    private void checkReportedPremiumRequests(ResultInfo info) {
        if (budget.maxPremiumRequests() == null || info == null || info.premiumRequests() == null) {
            return;
        }
        double reported = info.premiumRequests();
        if (reported >= budget.maxPremiumRequests() && tracker.usage().premiumRequests() < budget.maxPremiumRequests()) {
            warn("WARNING: the Copilot CLI counted " + io.jenkins.plugins.copilotautopilot.core.text.Texts.number(reported)
                    + " premium requests, over the limit of " + io.jenkins.plugins.copilotautopilot.core.text.Texts.number(
                    budget.maxPremiumRequests()) + "; its usage records had counted fewer, so the budget did not stop it.");
        }
    }

    private void warn(String line) {
        String masked = masker.mask(line);
        renderer.note(masked);
        journal.recordOwn(EventJournal.WARNING, EventParser.mapper().createObjectNode().put("text", masked));
        warnings.add(masked);
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
        return timeout != null && System.currentTimeMillis() - startedAtMillis >= timeout.toMillis();
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

    /**
     * The CLI's output, with each usage record taken once the turn it belongs to has been followed by the start of the
     * next, as when they come one by one: a poll that brings many turns at once (what the CLI did while nobody followed
     * it) prints their tokens lines among them, not all after them.
     */
    private void writeOutput(byte[] output, java.util.Deque<CliEvent> usageRecords) {
        acceptUsageOfEndedTurns(usageRecords);
        if (usageRecords.size() < 2) {
            // as a live session brings them (one model call at a time): the record left belongs to the turn that runs
            stdoutLines.write(output, 0, output.length);
            return;
        }
        int from = 0;
        for (int i = 0; i < output.length && !usageRecords.isEmpty(); i++) {
            if (output[i] == '\n') {
                stdoutLines.write(output, from, i + 1 - from);
                from = i + 1;
                acceptUsageOfEndedTurns(usageRecords);
            }
        }
        stdoutLines.write(output, from, output.length - from);
    }

    private void acceptUsageOfEndedTurns(java.util.Deque<CliEvent> usageRecords) {
        while (!usageRecords.isEmpty() && tracker.laterTurnStarted(usageRecords.peek().root().path("parentId").asText(""))) {
            acceptUsage(usageRecords.poll());
        }
    }

    private void acceptUsage(CliEvent usageRecord) {
        UsageRecord usage = tracker.acceptUsage(usageRecord);
        journal.recordOwn(EventJournal.USAGE, describe(usage));
        if (routed && !tracker.autoModeResolved() && !routingFailureWarned) {
            // the CLI 1.0.102 marks the calls as auto even then: only the missing routing event tells
            routingFailureWarned = true;
            warn("WARNING: model 'auto': GitHub's routing did not choose a model for turn " + usage.turn() + ", so the Copilot CLI used "
                    + (usage.model() == null ? "its default model" : "its default model, " + usage.model()) + ", instead.");
        }
    }

    private static byte[] limit(byte[] bytes, long max) {
        return bytes.length <= max ? bytes : java.util.Arrays.copyOf(bytes, (int) Math.max(0, max));
    }

    private void feed(SessionPoll poll) {
        long eventsBefore = pipeline.events();
        java.util.ArrayDeque<CliEvent> usageRecords = new java.util.ArrayDeque<>();
        if (poll.usageConsumed() > 0) {
            for (String line : new String(poll.usage(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && usageParser.parse(line) instanceof CliEvent event) {
                    usageRecords.add(event);
                }
            }
            usageOffset += poll.usageConsumed();
        }
        if (poll.output().length > 0) {
            writeOutput(poll.output(), usageRecords);
            outputOffset += poll.output().length;
        }
        if (poll.stderr().length > 0) {
            stderrLines.write(poll.stderr(), 0, poll.stderr().length);
            stderrOffset += poll.stderr().length;
        }
        usageRecords.forEach(this::acceptUsage); // their turns still run, or were not seen
        if (poll.changes() != null) {
            changes = poll.changes();
        }
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
            tracker.stopping();
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

        if (approvals != null) {
            approvals.sessionEnded(System.currentTimeMillis());
        }
        checkUsageRecords(true);
        checkReportedPremiumRequests(tracker.state().result());
        SessionState state = tracker.state();
        ProcessEnd finalEnd = end.with(stderr.explanation(), end.outputEnded());
        if (budgetStopped && finalEnd.termination() == ProcessEnd.Termination.OVER_BUDGET && budget.spent(tracker.usage()) != null) {
            // calls recorded after the stop was decided count too: the reason and the totals say the same
            ProcessEnd total = ProcessEnd.overBudget(finalEnd.exitCode(), budget.spent(tracker.usage()), finalEnd.activity());
            finalEnd = finalEnd.unconfirmed() ? total.asUnconfirmed() : total;
        }
        if (finalEnd.termination() == ProcessEnd.Termination.EXITED && budget.maxAiCredits() != null && state.firstError() != null
                && "session_limits".equals(state.firstError().errorType())) {
            // the CLI's own cap, handed the same budget, stopped it first at a model call's end: the budget's stop
            UsageTotals spent = tracker.usage();
            finalEnd = ProcessEnd.overBudget(finalEnd.exitCode(), "AI credits used: " + (spent.aiCredits() == null ? "?"
                    : AiCredits.format(spent.aiCredits())) + ", limit " + AiCredits.format(budget.maxAiCredits())
                    + " (maxAiCredits; the Copilot CLI stopped at it)", state.activity());
        }
        io.jenkins.plugins.copilotautopilot.core.output.OutputVerdict answer = outputCheck == null ? null : outputCheck.latest();
        SessionOutcome outcome = OutcomeDecider.decide(state, finalEnd, outputCheck == null ? null
                : new OutcomeDecider.Answer(outputCheck.rounds(), outputCheck.invalidRounds() >= outputCheck.maxRounds(),
                        answer == null ? null : answer.problem()),
                callLimits.verify() == null ? null : new AcceptanceCheck(callLimits.verify(), callLimits.maxVerifyRounds()),
                new AcceptanceCheck.Rounds(tracker.verifyRounds(), tracker.verifyExitCode()));
        Duration duration = Duration.ofMillis(Math.max(0, System.currentTimeMillis() - startedAtMillis));
        UsageTotals usage = tracker.usage();
        ServiceFailure failure = masked(ServiceFailures.of(outcome.outcome(), state, finalEnd.exitCode(), stderr.startFailure(),
                tokenSource));
        renderer.closing(new SessionOutcome(outcome.outcome(), masker.mask(outcome.reason())), state, duration, usage, changes,
                finalEnd.exitCode(), failure);
        if (changes != null) {
            journal.recordOwn(EventJournal.CHANGES, describe(changes));
        }

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
        // the process's own, never the result line's: after a SIGTERM that says 0 while the process exits 143
        Integer exitCode = end.exitCode();
        Double premium = usage.sessionPremiumRequests(info);
        // the work tree's view of the changes includes what shell commands changed; the CLI counts only its own edits
        long added = changes != null ? changes.linesAdded() : info == null ? 0 : info.linesAdded();
        long removed = changes != null ? changes.linesRemoved() : info == null ? 0 : info.linesRemoved();
        int files = changes != null ? changes.fileCount() : info == null ? 0 : info.filesModified();
        List<ChangedFile> changed = changes == null ? List.of() : changes.files().stream()
                .map(f -> new ChangedFile(masker.mask(f.path()), f.status(), f.added(), f.removed())).toList();
        return new SessionResult(outcome.outcome(), masker.mask(outcome.reason()), masker.mask(state.taskSummary()),
                state.turns(), state.toolCalls(), state.failedToolCalls(), state.deniedToolCalls(), state.nudges(),
                premium, duration.toMillis(), info == null ? null : info.sessionId(), exitCode, state.model(),
                added, removed, files, usage.calls() > 0 ? usage.inputTokens() : null,
                usage.calls() > 0 ? usage.outputTokens() : null, usage.calls() > 0 ? usage.cacheReadTokens() : null, changed,
                changes == null ? null : masker.mask(changes.patch()), warnings,
                outcome.outcome() == Outcome.BLOCKED ? masker.mask(state.taskBlocker()) : null,
                changes != null && changes.patchCut(), tracker.deniedFetches(),
                tracker.deniedUrls().stream().map(masker::mask).toList(),
                callLimits.verify() == null || outcome.outcome() != Outcome.COMPLETED && outcome.outcome() != Outcome.NOT_VERIFIED
                        ? null : Boolean.valueOf(outcome.outcome() == Outcome.COMPLETED),
                tracker.verifyRounds(), tracker.verifyExitCode(), validAnswer(outcome.outcome()), outputCheck == null ? 0 : outputCheck.rounds(),
                findings(outcome.outcome()), usage.aiCredits(), usage.aiCreditsStatus(), failure, state.policyDeniedToolCalls());
    }

    private ServiceFailure masked(ServiceFailure failure) {
        return failure == null ? null : new ServiceFailure(failure.kind(), masker.mask(failure.errorCode()), failure.statusCode(), failure.retryable(),
                masker.mask(failure.action()));
    }

    /**
     * The latest answer when it followed the schema and the session ended with it (COMPLETED, or NOT_VERIFIED: the
     * work failed its check, the answer stands), else null: a blocked, failed or stopped session has no answer.
     */
    private String validAnswer(Outcome ended) {
        io.jenkins.plugins.copilotautopilot.core.output.OutputVerdict last = outputCheck == null ? null : outputCheck.latest();
        boolean stands = ended == Outcome.COMPLETED || ended == Outcome.NOT_VERIFIED;
        return stands && last != null && last.valid() ? last.answer() : null;
    }

    private List<io.jenkins.plugins.copilotautopilot.core.output.Finding> findings(Outcome ended) {
        String answer = validAnswer(ended);
        if (answer == null) {
            return List.of();
        }
        try {
            return io.jenkins.plugins.copilotautopilot.core.output.ReviewFindings.of(EventParser.mapper().readTree(answer));
        } catch (java.io.IOException e) {
            return List.of();
        }
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode describe(UsageRecord usage) {
        com.fasterxml.jackson.databind.node.ObjectNode data = EventParser.mapper().createObjectNode();
        data.put("turn", usage.turn());
        data.put("model", usage.model());
        if (usage.auto()) {
            data.put("auto", true);
        }
        data.put("inputTokens", usage.inputTokens());
        data.put("outputTokens", usage.outputTokens());
        data.put("cacheReadTokens", usage.cacheReadTokens());
        data.put("cacheWriteTokens", usage.cacheWriteTokens());
        data.put("premiumRequests", usage.premiumRequests());
        if (usage.nanoAiu() != null) {
            data.put("aiCredits", usage.aiCredits());
        }
        data.put("durationMs", usage.durationMillis());
        return data;
    }

    /** The journal's record of the changes: the files and the patch (masked like every record). */
    private static com.fasterxml.jackson.databind.node.ObjectNode describe(WorkTreeChanges changes) {
        com.fasterxml.jackson.databind.node.ObjectNode data = EventParser.mapper().createObjectNode();
        com.fasterxml.jackson.databind.node.ArrayNode files = data.putArray("files");
        for (ChangedFile f : changes.files()) {
            files.addObject().put("path", f.path()).put("status", f.status()).put("linesAdded", f.added())
                    .put("linesRemoved", f.removed());
        }
        data.put("filesLeftOut", changes.filesLeftOut());
        data.put("patch", changes.patch());
        data.put("patchCut", changes.patchCut());
        return data;
    }

    /** The spend guard's words once the session's totals grew past what it allows; null otherwise (or without one). */
    private String guardedSpend() {
        if (spendGuard == null) {
            return null;
        }
        UsageTotals usage = tracker.usage();
        if (usage.calls() == guardedCalls || usage.calls() == 0) {
            // asked only when the totals grew (the ledger counts what they add), and first once the session spent
            // something: by then the CLI has named its model, under which the ledger keeps the session
            return null;
        }
        guardedCalls = usage.calls();
        return spendGuard.reached(usage, tracker.model());
    }

    /** The limits on what the model calls may use; nulls for none. */
    private record Budget(Double maxPremiumRequests, Long maxTokens, Double maxAiCredits) {
        boolean isSet() {
            return maxPremiumRequests != null || maxTokens != null || maxAiCredits != null;
        }

        /** The limits set, by their option names. */
        String names() {
            List<String> names = new java.util.ArrayList<>();
            if (maxTokens != null) {
                names.add("maxTokens");
            }
            if (maxPremiumRequests != null) {
                names.add("maxPremiumRequests");
            }
            if (maxAiCredits != null) {
                names.add("maxAiCredits");
            }
            if (names.size() > 1) {
                return "Budgets (" + String.join(", ", names) + ")";
            }
            return switch (names.get(0)) {
                case "maxTokens" -> "A token budget (maxTokens)";
                case "maxPremiumRequests" -> "A premium-request budget (maxPremiumRequests)";
                default -> "An AI-credit budget (maxAiCredits)";
            };
        }

        /** How much was spent against which limit, once a limit is reached; else null. */
        String spent(UsageTotals usage) {
            if (maxTokens != null && usage.tokens() >= maxTokens) {
                return String.format(java.util.Locale.ROOT, "%,d tokens used, limit %,d", usage.tokens(), maxTokens);
            }
            if (maxPremiumRequests != null && usage.premiumRequests() >= maxPremiumRequests) {
                return "premium requests used: " + io.jenkins.plugins.copilotautopilot.core.text.Texts.number(usage.premiumRequests())
                        + ", limit " + io.jenkins.plugins.copilotautopilot.core.text.Texts.number(maxPremiumRequests);
            }
            if (maxAiCredits != null && usage.aiCredits() != null && usage.aiCredits() >= maxAiCredits) {
                return "AI credits used: " + AiCredits.format(usage.aiCredits()) + ", limit "
                        + AiCredits.format(maxAiCredits) + " (maxAiCredits)";
            }
            return null;
        }
    }
}
