package io.jenkins.plugins.copilotautopilot.core.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.output.Finding;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.mask.CliRedactions;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.parts.SpendGuard;
import io.jenkins.plugins.copilotautopilot.core.render.LogRenderer;
import io.jenkins.plugins.copilotautopilot.core.render.LogSink;
import io.jenkins.plugins.copilotautopilot.core.result.Activity;
import io.jenkins.plugins.copilotautopilot.core.result.Answer;
import io.jenkins.plugins.copilotautopilot.core.result.Changes;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import io.jenkins.plugins.copilotautopilot.core.result.ModelUsage;
import io.jenkins.plugins.copilotautopilot.core.result.Verification;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs autopilot tasks: launches the CLI detached from its control folder and follows it with a
 * {@link SessionFollower}, which streams its events through the parser, the tracker, the journal and the live
 * log, enforces the wall-clock and inactivity limits, stops the whole process tree when it has to, and decides
 * the outcome.
 *
 * <p>{@link #run} does all of it on the calling thread; {@link #abort()} (from any thread) or interrupting that
 * thread stops the task with {@code ABORTED}. {@link #launch} and {@link #resume} hand out followers for a
 * caller that ticks them itself (many sessions on a shared scheduler; a follower started again after a
 * restart).
 */
public final class AutopilotEngine {
    /** Longest event line read in full; longer lines are kept as a truncated excerpt. */
    public static final int DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;
    private static final int MAX_STDERR_LINE_BYTES = 64 * 1024;
    /** How much of the CLI's output a journal records unless told otherwise: 256 MiB of characters. */
    public static final long DEFAULT_JOURNAL_LIMIT_CHARS = 256L * 1024 * 1024;

    private final LogSink log;
    private final Collection<String> extraSecrets;
    private final OutputStream journalOut;
    private final List<SessionListener> listeners;
    private final int maxLineBytes;
    private final EngineTimings timings;
    private final long journalLimitChars;
    private final boolean agentTextInLog;
    private final List<java.util.function.Consumer<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate>> approvers;
    private final SpendGuard spendGuard;
    private final String tokenSource;
    private volatile boolean abortRequested;
    private volatile SessionFollower running;

    private AutopilotEngine(Builder b) {
        this.log = b.log;
        this.extraSecrets = List.copyOf(b.extraSecrets);
        this.journalOut = b.journalOut;
        this.listeners = List.copyOf(b.listeners);
        this.maxLineBytes = b.maxLineBytes;
        this.timings = b.timings;
        this.journalLimitChars = b.journalLimitChars;
        this.agentTextInLog = b.agentTextInLog;
        this.approvers = List.copyOf(b.approvers);
        this.spendGuard = b.spendGuard;
        this.tokenSource = b.tokenSource;
    }

    public static Builder builder(LogSink log) {
        return new Builder(log);
    }

    /** Asks a task that {@link #run} is running (or about to run) to stop; it ends ABORTED. */
    public void abort() {
        abortRequested = true;
        SessionFollower follower = running;
        if (follower != null) {
            follower.requestAbort();
        }
    }

    private SecretMasker masker(Collection<String> secrets) {
        List<String> all = new ArrayList<>(secrets);
        all.addAll(extraSecrets);
        return SecretMasker.of(all);
    }

    /** A launched session and its follower; {@code session} is null when the launch failed (the follower has then finished). */
    public record Running(SessionFollower follower, CliSession session) {
    }

    /**
     * Prints the header, starts the CLI with {@code launcher} and returns its follower. When the CLI cannot be
     * started, the follower has already finished with FAILED and the reason.
     */
    public Running launch(CliCommand command, CliLauncher launcher) throws InterruptedException {
        long started = System.currentTimeMillis();
        // the CLI takes a second to start: the follower (masker, renderer, journal, the header) is set up meanwhile,
        // on this thread, instead of before it (docs/performance.md: the runner's start)
        java.util.concurrent.FutureTask<CliSession> launching = new java.util.concurrent.FutureTask<>(() -> launcher.launch(command));
        Thread launchThread = new Thread(launching, "copilot-autopilot launch");
        launchThread.setDaemon(true);
        launchThread.start();
        SessionFollower follower;
        try {
            follower = follow(command, launcher.inheritedEnvironment(), started);
        } catch (RuntimeException | Error e) {
            stopLaunched(launching, e);
            throw e;
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    // a session that was started is always returned, so that whoever follows it also stops it
                    return new Running(follower, launching.get());
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof InterruptedException) {
                        interrupted = true;
                        follower.abortedBeforeStart();
                        return new Running(follower, null);
                    }
                    if (cause instanceof Error error) {
                        throw error;
                    }
                    String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
                    follower.launchFailed(message);
                    return new Running(follower, null);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Nobody will follow the session being launched: once it runs, it is stopped and its folder removed. */
    private static void stopLaunched(java.util.concurrent.Future<CliSession> launching, Throwable why) {
        try {
            CliSession session = launching.get(2, java.util.concurrent.TimeUnit.MINUTES);
            session.stop();
            session.cleanup();
        } catch (java.util.concurrent.ExecutionException e) {
            // it did not start: nothing to stop
        } catch (InterruptedException e) {
            why.addSuppressed(e);
            Thread.currentThread().interrupt();
        } catch (IOException | java.util.concurrent.TimeoutException | RuntimeException e) {
            why.addSuppressed(e);
        }
    }

    /**
     * A follower for {@code command}, which the caller launches itself: the header is printed and the journal
     * started. Tick it once the session runs, or call {@link SessionFollower#launchFailed} if it could not start.
     */
    public SessionFollower follow(CliCommand command, Map<String, String> inheritedEnvironment, long startedAtMillis) {
        SessionPlan plan = command.plan();
        SessionFollower follower = newFollower(plan, command.secretValues(inheritedEnvironment), startedAtMillis, false, 0);
        follower.header(command, () -> describe(command)); // no JSON is made (nor Jackson set up) without a journal
        follower.shortSecrets(command.secretsByVariable(inheritedEnvironment).entrySet().stream()
                .filter(e -> CliRedactions.isShort(e.getValue())).map(Map.Entry::getKey).toList());
        return follower;
    }

    /**
     * A follower for a session that an earlier follower left at {@code checkpoint} (the process that followed it
     * was restarted): it reads the session again up to the checkpoint without printing or journaling anything,
     * then goes on live. {@code journalOut} of this engine must continue the earlier journal, truncated to
     * {@link Checkpoint#journalBytes()}.
     *
     * @param plan    the plan the session started with (its limits count from {@code startedAtMillis})
     * @param secrets the values to mask, as {@link CliCommand#secretValues} gave them when the session started
     */
    public SessionFollower resume(SessionPlan plan, Collection<String> secrets, CliSession session, Checkpoint checkpoint,
                                  long startedAtMillis) throws IOException, InterruptedException {
        return resume(plan, secrets, session, checkpoint, startedAtMillis, null);
    }

    /**
     * @param stoppedAt when the follower before the restart decided to stop the session (its journal says so up to the
     *                  checkpoint), or null: the turns the CLI opened after it are not counted, as that follower did not
     */
    public SessionFollower resume(SessionPlan plan, Collection<String> secrets, CliSession session, Checkpoint checkpoint,
                                  long startedAtMillis, java.time.Instant stoppedAt) throws IOException, InterruptedException {
        SessionFollower follower = newFollower(plan, secrets, startedAtMillis, true, checkpoint.journalBytes());
        if (stoppedAt != null) {
            follower.stoppedAt(stoppedAt);
        }
        follower.catchUp(session, checkpoint);
        return follower;
    }

    private SessionFollower newFollower(SessionPlan plan, Collection<String> secrets, long startedAtMillis, boolean muted,
                                        long journalBytes) {
        SecretMasker masker = masker(secrets);
        Mutable.Sink sink = new Mutable.Sink(log, muted);
        LogRenderer renderer = new LogRenderer(sink, masker, agentTextInLog);
        if (muted) {
            renderer.planned(plan); // a resumed follower prints no header, which tells a new one
        }
        SessionTracker tracker = new SessionTracker();
        tracker.addListener(renderer);
        listeners.forEach(tracker::addListener);
        Mutable.Stream journalStream = new Mutable.Stream(journalOut == null ? OutputStream.nullOutputStream() : journalOut,
                muted, journalBytes);
        EventJournal journal = journalOut == null ? null : new EventJournal(journalStream, masker);
        SafeJournal safeJournal = new SafeJournal(journal, renderer, journalLimitChars);
        SessionFollower follower = new SessionFollower(plan, masker, timings, startedAtMillis, tracker, renderer, sink, journalStream,
                safeJournal, CliRedactions.of(secrets), maxLineBytes, MAX_STDERR_LINE_BYTES);
        if (follower.approvals() != null) {
            approvers.forEach(a -> a.accept(follower.approvals()));
        }
        follower.spendGuard(spendGuard);
        follower.tokenSource(tokenSource);
        return follower;
    }

    /**
     * Runs the task on this thread and returns when the CLI and everything it started are gone; the control
     * folder is removed. If the calling thread is interrupted, the task ends ABORTED and the interrupt flag is
     * set again on return.
     */
    public SessionResult run(CliCommand command, CliLauncher launcher) {
        boolean interrupted = Thread.interrupted();
        Running started;
        if (abortRequested || interrupted) {
            SessionFollower follower = follow(command, launcher.inheritedEnvironment(), System.currentTimeMillis());
            started = new Running(follower, null);
            follower.abortedBeforeStart();
        } else {
            try {
                started = launch(command, launcher);
            } catch (InterruptedException e) {
                SessionFollower follower = follow(command, launcher.inheritedEnvironment(), System.currentTimeMillis());
                started = new Running(follower, null);
                follower.abortedBeforeStart();
                interrupted = true;
            }
        }
        if (started.session() == null) {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return started.follower().result();
        }
        SessionFollower follower = started.follower();
        CliSession session = started.session();
        running = follower;
        SessionResult result = null;
        long delay = 0;
        try {
            while (result == null) {
                if (abortRequested || interrupted) {
                    follower.requestAbort();
                }
                boolean gotData = false;
                try {
                    SessionFollower.Tick tick = follower.tick(session);
                    result = tick.result();
                    gotData = tick.gotData();
                    delay = timings.nextDelayMillis(delay, gotData);
                } catch (InterruptedException e) {
                    interrupted = true;
                    continue;
                } catch (IOException e) {
                    result = follower.lost(session, "its output could not be read: " + e.getMessage());
                }
                // more may be waiting right after output; else look again later and later (or as soon as it ends);
                // an abort is acted upon at once
                if (result == null && !gotData && (!follower.abortRequested() || follower.isStopping())) {
                    try {
                        session.pause(delay);
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
        } finally {
            running = null;
            try {
                session.cleanup();
            } catch (io.jenkins.plugins.copilotautopilot.core.process.KeepingLauncher.SessionNotKeptException e) {
                log.println(LogRenderer.PREFIX + "WARNING: " + e.getMessage());
            } catch (IOException | InterruptedException | RuntimeException e) {
                log.println(LogRenderer.PREFIX + "WARNING: could not remove " + command.launchFolder() + ": " + e.getMessage());
            }
            if (interrupted || Thread.interrupted()) {
                Thread.currentThread().interrupt();
            }
        }
        return result;
    }

    /**
     * The journal's first record: what runs where, the whole task (as the model got it, at most the prompt limit), and
     * the session's plan, every setting the step or the defaults set (no secret is among them).
     */
    static ObjectNode describe(CliCommand command) {
        SessionPlan plan = command.plan();
        ObjectNode data = EventParser.mapper().createObjectNode();
        data.put("cli", command.executable().path());
        data.put("cliVersion", command.executable().version());
        data.put("workingDirectory", command.workingDirectory());
        data.put("commandLine", command.display());
        data.put("prompt", command.task().prompt());
        data.put("model", plan.get(SessionSettings.MODEL));
        data.put("providerBaseUrl", plan.get(SessionSettings.PROVIDER_BASE_URL));
        ObjectNode settings = data.putObject("plan");
        plan.values().forEach((name, value) -> settings.set(name, EventParser.mapper().valueToTree(
                value instanceof java.time.Duration d ? d.toSeconds() : value)));
        return data;
    }

    static ObjectNode describe(SessionResult result) {
        return PlainJson.object(result.toMap());
    }

    /**
     * Sets up, in a new JVM, what describing a session's end takes (the classes of a result and of its JSON tree, and
     * Jackson's reading of an answer), so that a runner can do it on a spare thread while the CLI runs rather than
     * after the CLI's end, when the user waits for it.
     *
     * @return the description of a sample result with every kind of value a result holds
     */
    public static ObjectNode warmUp() {
        SessionResult sample = new SessionResult(
                new Ending(Outcome.COMPLETED, "warm-up", "warm-up", null, new ServiceFailure(ServiceFailure.Kind.OTHER, "warm-up", 500,
                        false, "warm-up"), 0, 1, "warm-up", "warm-up"),
                new Activity(1, 1, 0, 0, 0, 0, List.of(), 0), new ModelUsage(1.0, 1.0, "complete", 1L, 1L, 0L),
                new Changes(1, 1, 1, List.of(new ChangedFile("a", "M", 1L, 1L)), null, false), new Verification(true, 1, 0),
                new Answer("{\"warm\":[1,true,null]}", 1, List.of(new Finding("a", 1, 1, Finding.Severity.values()[0], "warm-up", null,
                        null))), List.of("warm-up"));
        return describe(sample);
    }

    /** Configures an {@link AutopilotEngine}. */
    public static final class Builder {
        private final LogSink log;
        private final List<String> extraSecrets = new ArrayList<>();
        private final List<SessionListener> listeners = new ArrayList<>();
        private OutputStream journalOut;
        private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
        private EngineTimings timings = EngineTimings.DEFAULT;
        private long journalLimitChars = DEFAULT_JOURNAL_LIMIT_CHARS;
        private boolean agentTextInLog = true;
        private final List<java.util.function.Consumer<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate>> approvers =
                new ArrayList<>();
        private SpendGuard spendGuard;
        private String tokenSource;

        private Builder(LogSink log) {
            this.log = log;
        }

        /** Further values to mask (besides the token, the API key and the secret variables). */
        public Builder extraSecrets(Collection<String> values) {
            extraSecrets.addAll(values);
            return this;
        }

        /** Records the journal (JSONL) into this stream; the engine closes it when the session ends. */
        public Builder journalTo(OutputStream out) {
            this.journalOut = out;
            return this;
        }

        /** Also tells {@code listener} what happens (e.g. to build a report while the session runs). */
        public Builder listener(SessionListener listener) {
            listeners.add(listener);
            return this;
        }

        public Builder maxLineBytes(int bytes) {
            this.maxLineBytes = bytes;
            return this;
        }

        /** The most of the CLI's output the journal records, in characters; the rest is left out (the log says so). */
        public Builder journalLimit(long chars) {
            this.journalLimitChars = chars;
            return this;
        }

        /** False: what the agent writes stays out of the live log (it is in the journal), see {@link LogRenderer}. */
        public Builder agentTextInLog(boolean value) {
            this.agentTextInLog = value;
            return this;
        }

        /**
         * Hands {@code approver} the gate of each session with {@code approveTools} as its follower starts (before the CLI
         * runs): whoever decides on the calls that wait (a terminal, the build's page).
         */
        public Builder approver(java.util.function.Consumer<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate> approver) {
            approvers.add(approver);
            return this;
        }

        /** Checks each session's usage against limits across runs as it grows, see {@link SpendGuard}. */
        public Builder spendGuard(SpendGuard guard) {
            this.spendGuard = guard;
            return this;
        }

        /**
         * Where the session's GitHub token comes from, as the user knows it ({@code credential 'copilot-token'},
         * {@code $GH_TOKEN}): named in what a failed authorization says to do.
         */
        public Builder tokenSource(String description) {
            this.tokenSource = description;
            return this;
        }

        public Builder timings(EngineTimings value) {
            this.timings = value;
            return this;
        }

        public AutopilotEngine build() {
            return new AutopilotEngine(this);
        }
    }
}
