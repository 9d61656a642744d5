package io.jenkins.plugins.copilotautopilot.core.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.events.LineAssembler;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.outcome.OutcomeDecider;
import io.jenkins.plugins.copilotautopilot.core.outcome.ProcessEnd;
import io.jenkins.plugins.copilotautopilot.core.outcome.SessionOutcome;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.RunningCli;
import io.jenkins.plugins.copilotautopilot.core.render.LogRenderer;
import io.jenkins.plugins.copilotautopilot.core.render.LogSink;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one autopilot task end to end: launches the CLI, streams its events through the parser, the
 * tracker, the journal and the live log, enforces the wall-clock and inactivity limits, stops the whole
 * process tree when it has to, and decides the outcome.
 *
 * <p>One engine runs one task. {@link #run} blocks; {@link #abort()} (from any thread) or interrupting the
 * running thread stops the task with {@code ABORTED}.
 */
public final class AutopilotEngine {
    /** Longest event line read in full; longer lines are kept as a truncated excerpt. */
    public static final int DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;
    private static final int MAX_STDERR_LINE_BYTES = 64 * 1024;
    private static final Duration TICK = Duration.ofMillis(100);
    /** After its result line the CLI should exit promptly; if it does not, it is stopped. */
    private static final Duration EXIT_AFTER_RESULT = Duration.ofSeconds(10);
    /** How long to wait for the rest of the output once the process is gone. */
    private static final Duration OUTPUT_DRAIN = Duration.ofSeconds(5);
    private static final Duration EXIT_AFTER_KILL = Duration.ofSeconds(10);
    private static final int MAX_PROMPT_IN_JOURNAL = 20_000;

    private final LogSink log;
    private final Collection<String> extraSecrets;
    private final OutputStream journalOut;
    private final List<SessionListener> listeners;
    private final int maxLineBytes;
    private volatile boolean abortRequested;

    private AutopilotEngine(Builder b) {
        this.log = b.log;
        this.extraSecrets = List.copyOf(b.extraSecrets);
        this.journalOut = b.journalOut;
        this.listeners = List.copyOf(b.listeners);
        this.maxLineBytes = b.maxLineBytes;
    }

    public static Builder builder(LogSink log) {
        return new Builder(log);
    }

    /** Asks a running (or about to run) task to stop; it ends ABORTED. */
    public void abort() {
        abortRequested = true;
    }

    /**
     * The masker this engine applies for {@code command}: the options' secrets, the values of their
     * {@code secretEnvVars} in the environment the CLI gets, and the extra secrets.
     */
    public SecretMasker maskerFor(CliCommand command, Map<String, String> inheritedEnvironment) {
        Map<String, String> environment = new HashMap<>(inheritedEnvironment);
        environment.putAll(command.environment());
        List<String> secrets = new ArrayList<>(command.options().secretValues(environment));
        secrets.addAll(extraSecrets);
        return SecretMasker.of(secrets);
    }

    /**
     * Runs the task and returns when the CLI and everything it started are gone.
     * If the calling thread is interrupted, the task ends ABORTED and the interrupt flag is set again on return.
     */
    public SessionResult run(CliCommand command, CliLauncher launcher) {
        long started = System.nanoTime();
        SecretMasker masker = maskerFor(command, launcher.inheritedEnvironment());
        SessionTracker tracker = new SessionTracker();
        LogRenderer renderer = new LogRenderer(log, masker);
        tracker.addListener(renderer);
        listeners.forEach(tracker::addListener);
        EventJournal journal = journalOut == null ? null : new EventJournal(journalOut, masker);
        SafeJournal safeJournal = new SafeJournal(journal, renderer);

        EventPipeline pipeline = new EventPipeline(tracker, safeJournal);
        LineAssembler stdoutLines = new LineAssembler(pipeline, maxLineBytes);
        ActivityStream stdout = new ActivityStream(stdoutLines);
        StderrCollector stderr = new StderrCollector(renderer, safeJournal);
        LineAssembler stderrLines = new LineAssembler(stderr, MAX_STDERR_LINE_BYTES);

        renderer.header(command);
        safeJournal.recordOwn(EventJournal.RUN_STARTED, describe(command));

        Supervision supervision = new Supervision();
        ProcessEnd end = null;
        if (abortRequested || Thread.currentThread().isInterrupted()) {
            supervision.interrupted = Thread.interrupted();
            end = ProcessEnd.stopped(ProcessEnd.Termination.ABORTED, null, null, "before the Copilot CLI was started");
        } else {
            RunningCli cli;
            try {
                cli = launcher.launch(command, stdout, stderrLines);
            } catch (IOException | RuntimeException e) {
                cli = null;
                String message = e.getMessage() == null ? e.toString() : e.getMessage();

                end = ProcessEnd.launchFailed(masker.mask(message));
            }
            if (cli != null) {
                end = supervise(cli, command.options(), pipeline, stdout, tracker, supervision);
                awaitOutput(stdout, supervision);
                cli.killTree(); // whatever the agent left running (background jobs) goes too
            }
        }
        stdoutLines.close();
        stderrLines.close();
        pipeline.close();
        stderr.close();

        SessionState state = tracker.state();
        ProcessEnd finalEnd = end.with(stderr.explanation(), stdout.ended());
        SessionOutcome outcome = OutcomeDecider.decide(state, finalEnd);
        Duration duration = Duration.ofNanos(System.nanoTime() - started);
        renderer.closing(new SessionOutcome(outcome.outcome(), masker.mask(outcome.reason())), state, duration);

        SessionResult result = toResult(outcome, state, duration, finalEnd, masker);
        safeJournal.recordOwn(EventJournal.RUN_FINISHED, describe(result));
        safeJournal.close();
        if (supervision.interrupted) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    /** Waits for the process to end, stopping it when a limit is hit or an abort is asked for. */
    private ProcessEnd supervise(RunningCli cli, AutopilotOptions options, EventPipeline pipeline,
                                 ActivityStream stdout, SessionTracker tracker, Supervision supervision) {
        long started = System.nanoTime();
        Duration timeout = options.timeout();
        Duration inactivity = options.inactivityTimeout();
        long resultSeenAt = 0;
        while (true) {
            if (abortRequested || supervision.interrupted) {
                return stop(cli, ProcessEnd.Termination.ABORTED, null, tracker, supervision);
            }
            Integer exit;
            try {
                exit = cli.waitFor(TICK);
            } catch (InterruptedException e) {
                supervision.interrupted = true;
                continue;
            }
            if (exit != null) {
                return ProcessEnd.exited(exit, null, false);
            }
            long now = System.nanoTime();
            if (timeout != null && now - started >= timeout.toNanos()) {
                return stop(cli, ProcessEnd.Termination.TIMED_OUT, timeout, tracker, supervision);
            }
            if (inactivity != null && stdout.nanosSinceActivity() >= inactivity.toNanos()) {
                return stop(cli, ProcessEnd.Termination.STALLED, inactivity, tracker, supervision);
            }
            if (pipeline.resultSeen()) {
                if (resultSeenAt == 0) {
                    resultSeenAt = now;
                } else if (now - resultSeenAt >= EXIT_AFTER_RESULT.toNanos()) {
                    // the session is over but the process lingers: stop it and judge the session as reported
                    cli.killTree();
                    Integer reported = pipeline.reportedExitCode();
                    return ProcessEnd.exited(reported == null ? 0 : reported, null, false);
                }
            }
        }
    }

    private static ProcessEnd stop(RunningCli cli, ProcessEnd.Termination why, Duration limit, SessionTracker tracker,
                                   Supervision supervision) {
        String activity = tracker.state().activity();
        cli.killTree();
        Integer exit = null;
        try {
            exit = cli.waitFor(EXIT_AFTER_KILL);
        } catch (InterruptedException e) {
            supervision.interrupted = true;
        }
        return ProcessEnd.stopped(why, exit, limit, activity);
    }

    private static void awaitOutput(ActivityStream stdout, Supervision supervision) {
        try {
            stdout.awaitEnd(OUTPUT_DRAIN.toMillis());
        } catch (InterruptedException e) {
            supervision.interrupted = true;
        }
    }

    private static SessionResult toResult(SessionOutcome outcome, SessionState state, Duration duration, ProcessEnd end,
                                          SecretMasker masker) {
        ResultInfo result = state.result();
        Integer exitCode = end.exitCode() != null ? end.exitCode() : result == null ? null : result.exitCode();
        return new SessionResult(outcome.outcome(), masker.mask(outcome.reason()), masker.mask(state.taskSummary()),
                state.turns(), state.toolCalls(), state.failedToolCalls(), state.deniedToolCalls(), state.nudges(),
                result == null ? null : result.premiumRequests(), duration.toMillis(),
                result == null ? null : result.sessionId(), exitCode, state.model(),
                result == null ? 0 : result.linesAdded(), result == null ? 0 : result.linesRemoved(),
                result == null ? 0 : result.filesModified());
    }

    private static ObjectNode describe(CliCommand command) {
        AutopilotOptions o = command.options();
        ObjectNode data = EventParser.mapper().createObjectNode();
        data.put("cli", command.executable().path());
        data.put("cliVersion", command.executable().version());
        data.put("workingDirectory", command.workingDirectory());
        data.put("commandLine", command.display());
        data.put("prompt", Texts.truncate(o.prompt(), MAX_PROMPT_IN_JOURNAL));
        data.put("model", o.model());
        data.put("providerBaseUrl", o.provider() == null ? null : o.provider().baseUrl());
        if (o.maxAutopilotContinues() != null) {
            data.put("maxAutopilotContinues", o.maxAutopilotContinues());
        }
        data.put("allowAllTools", o.allowAllTools());
        o.allowTools().forEach(data.putArray("allowTools")::add);
        o.denyTools().forEach(data.putArray("denyTools")::add);
        o.addDirs().forEach(data.putArray("addDirs")::add);
        if (o.timeout() != null) {
            data.put("timeoutSeconds", o.timeout().toSeconds());
        }
        if (o.inactivityTimeout() != null) {
            data.put("inactivityTimeoutSeconds", o.inactivityTimeout().toSeconds());
        }
        return data;
    }

    private static ObjectNode describe(SessionResult result) {
        return EventParser.mapper().valueToTree(result.toMap());
    }

    /** Flags shared between the supervision steps. */
    private static final class Supervision {
        boolean interrupted;
    }

    /** Configures an {@link AutopilotEngine}. */
    public static final class Builder {
        private final LogSink log;
        private final List<String> extraSecrets = new ArrayList<>();
        private final List<SessionListener> listeners = new ArrayList<>();
        private OutputStream journalOut;
        private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;

        private Builder(LogSink log) {
            this.log = log;
        }

        /** Further values to mask (besides the token and API key in the options). */
        public Builder extraSecrets(Collection<String> values) {
            extraSecrets.addAll(values);
            return this;
        }

        /** Records the journal (JSONL) into this stream; the engine closes it. */
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

        public AutopilotEngine build() {
            return new AutopilotEngine(this);
        }
    }
}
