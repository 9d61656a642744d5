package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.command.SessionTask;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import io.jenkins.plugins.copilotautopilot.core.output.IssuesFile;
import io.jenkins.plugins.copilotautopilot.core.output.ReviewFindings;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.files.FileTrees;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ForwardingCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.KeepingLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.render.LogRenderer;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader;
import io.jenkins.plugins.copilotautopilot.core.report.TimelineSvg;
import io.jenkins.plugins.copilotautopilot.core.render.PrintStreamLogSink;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The standalone runner: one autopilot task from a terminal, with the same engine the Jenkins plugin uses.
 * Exit code: 0 COMPLETED, 2 INCOMPLETE, 4 BLOCKED, 1 FAILED, 3 OVER_BUDGET, 124 TIMED_OUT/STALLED, 64 bad arguments; stopped by Ctrl-C
 * (SIGINT) 130, by SIGTERM 143 (both ABORTED). Either signal stops the CLI and everything it started, and the
 * runner exits only after the journal and timeline are complete and its private folder is deleted.
 */
public final class RunnerMain {
    public static final int EXIT_USAGE = 64;
    static final String NAME = "copilot-autopilot";
    /** How long Ctrl-C or SIGTERM waits for the task to stop and clean up before the JVM exits anyway. */
    private static final long SHUTDOWN_WAIT_SECONDS = 60;
    /** Counted down once the CLI is started: the warm-up of the session's end waits for it, so as not to delay it. */
    private static final CountDownLatch CLI_STARTED = new CountDownLatch(1);

    private final Map<String, String> env;
    private final InputStream stdin;
    private final PrintStream out;
    private final PrintStream err;
    private final boolean installShutdownHook;
    /** Where {@code --approve-tool} asks: the process's terminal, or none (every call that would wait is denied). */
    java.io.BufferedReader approvalTerminal;
    /**
     * The environment the CLI starts with: this process's. A test sets variables here that only a test needs (the
     * address of a GitHub stand-in), apart from {@code env}, from which the runner reads its settings and credentials.
     */
    Map<String, String> cliEnvironment = System.getenv();

    RunnerMain(Map<String, String> env, InputStream stdin, PrintStream out, PrintStream err, boolean installShutdownHook) {
        this.env = env;
        this.stdin = stdin;
        this.out = out;
        this.err = err;
        this.installShutdownHook = installShutdownHook;
    }

    public static void main(String[] args) {
        startWarmUp();
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        RunnerMain runner = new RunnerMain(System.getenv(), System.in, out, err, true);
        runner.approvalTerminal = TerminalApprover.processTerminal();
        int code = runner.run(args);
        out.flush();
        System.exit(code);
    }

    /**
     * Sets up, on a second thread, what a session needs a moment later and takes long to set up in a new JVM
     * (the random source of the run's id, Jackson for the events the tracker reads in full and for the outcome):
     * the main thread meanwhile parses the arguments and starts the CLI, which takes a second to print its first
     * event. Whichever thread needs a class first sets it up; the other waits for it, so nothing is done twice. Once
     * the CLI is started, the same thread sets up the description of the session's end (otherwise about 20 ms after
     * the CLI's end).
     */
    private static void startWarmUp() {
        Thread warmUp = new Thread(() -> {
            try {
                java.util.UUID.randomUUID();
                com.fasterxml.jackson.databind.ObjectMapper mapper = io.jenkins.plugins.copilotautopilot.core.events.EventParser.mapper();
                mapper.writeValueAsString(mapper.readTree("{\"type\":\"warm-up\",\"data\":{\"list\":[1,2.5,true,null,\"x\"]}}"));
                mapper.valueToTree(Map.of("warm", List.of(1L, "up")));
                if (CLI_STARTED.await(10, TimeUnit.SECONDS)) {
                    AutopilotEngine.warmUp();
                }
            } catch (IOException | RuntimeException e) {
                // only a warm-up: the session sets up whatever is missing itself
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, NAME + "-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    int run(String[] args) {
        if (Demo.asked(args)) {
            return demo(args);
        }
        return runArguments(args);
    }

    /** {@code --demo}: the same run with the demo model, task and folder; says where the result is. */
    private int demo(String[] args) {
        try {
            Demo.refuseATask(args);
        } catch (RunnerArguments.UsageException e) {
            err.println(NAME + ": " + e.getMessage() + " (see --help)");
            return EXIT_USAGE;
        }
        try (io.jenkins.plugins.copilotautopilot.core.demo.DemoModel model = io.jenkins.plugins.copilotautopilot.core.demo.DemoModel.start()) {
            Path folder = Demo.folder();
            out.println(NAME + ": demo: a scripted model on " + model.baseUrl() + " plays the agent; the Copilot CLI, its tools"
                    + " and everything shown are real. The agent works in " + folder);
            int code = runArguments(Demo.arguments(args, model, folder));
            if (Files.exists(folder.resolve("NOTES.md"))) {
                out.println(NAME + ": demo: the agent wrote " + folder.resolve("NOTES.md"));
            }
            return code;
        } catch (IOException e) {
            err.println(NAME + ": demo: cannot start the demo model: " + e.getMessage());
            return 1;
        }
    }

    private int runArguments(String[] args) {
        RunnerArguments.Parsed parsed;
        try {
            parsed = RunnerArguments.parse(args, env, stdin);
        } catch (RunnerArguments.UsageException e) {
            if (e.credentials()) {
                err.println(NAME + ": " + e.getMessage());
                return 1;
            }
            err.println(NAME + ": " + e.getMessage() + " (see --help)");
            return EXIT_USAGE;
        }
        if (parsed.help()) {
            out.println(RunnerHelp.text());
            return 0;
        }
        if (parsed.version()) {
            return RunnerVersion.print(parsed, env.get("PATH"), out, err);
        }
        // validated by the parser, problems named by option, the credentials too
        Path workDir = Path.of(parsed.workingDirectory() == null ? "." : parsed.workingDirectory()).toAbsolutePath().normalize();
        String dirProblem = RunnerChecks.workingDirectory(workDir);
        if (dirProblem != null) {
            err.println(NAME + ": " + dirProblem);
            return EXIT_USAGE;
        }
        String outputProblem = parsed.journal() == null ? null : RunnerChecks.outputFile("--journal", parsed.journal());
        if (outputProblem == null && parsed.timeline() != null) {
            outputProblem = RunnerChecks.outputFile("--timeline", parsed.timeline());
        }
        if (outputProblem == null && parsed.changes() != null) {
            outputProblem = RunnerChecks.outputFile("--changes", parsed.changes());
        }
        if (outputProblem == null && parsed.outputFile() != null) {
            outputProblem = RunnerChecks.outputFile("--output-file", parsed.outputFile());
        }
        if (outputProblem == null && parsed.issuesFile() != null) {
            outputProblem = RunnerChecks.outputFile("--issues-file", parsed.issuesFile());
        }
        if (outputProblem != null) {
            err.println(NAME + ": " + outputProblem);
            return EXIT_USAGE;
        }
        CliExecutable cli;
        try {
            cli = new CliLocator().locate(parsed.copilotPath(), env.get("PATH"), RunnerArguments.HOW_TO_SET_CLI);
        } catch (CliNotFoundException e) {
            err.println(NAME + ": " + e.getMessage());
            return 1;
        }
        if (parsed.keptSession() != null) {
            out.println(LogRenderer.PREFIX + (parsed.task().keptState() != null ? "Continuing the session kept in " + parsed.keptSession()
                    : "No session kept in " + parsed.keptSession() + " yet: starting a new one, kept there at its end"));
        }
        return runTask(parsed, cli, workDir);
    }

    /**
     * Runs the task with Ctrl-C (SIGINT) and SIGTERM stopping it: the JVM's shutdown then waits until the CLI's
     * processes are gone, the journal and timeline are complete and the private folder (the CLI's COPILOT_HOME
     * with the session's full, unmasked state) is deleted.
     */
    private int runTask(RunnerArguments.Parsed parsed, CliExecutable cli, Path workDir) {
        SessionPlan plan = parsed.plan();
        SessionTask task = parsed.task();
        Path journal = parsed.journal();
        Path timeline = parsed.timeline();
        Path changes = parsed.changes();
        Path keptSession = parsed.keptSession();
        AtomicReference<AutopilotEngine> engine = new AtomicReference<>();
        AtomicBoolean stopRequested = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopRequested.set(true);
            AutopilotEngine running = engine.get();
            if (running != null) {
                running.abort();
            }
            try {
                finished.await(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, NAME + "-shutdown");
        if (installShutdownHook) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        Path controlFolder = null;
        Path journalFile = journal;
        try {
            controlFolder = Files.createTempDirectory("copilot-autopilot-");
            if (journalFile == null && timeline != null) {
                journalFile = Files.createTempFile("copilot-autopilot-journal-", ".jsonl");
            }
            CliCommand command = CliCommandBuilder.build(plan, task, cli, workDir.toString(), controlFolder.toString(), env);
            String tokenVariable = io.jenkins.plugins.copilotautopilot.core.command.EnvironmentTokens.githubTokenVariable(env);
            AutopilotEngine.Builder builder = AutopilotEngine.builder(new PrintStreamLogSink(out))
                    .approver(new TerminalApprover(approvalTerminal, out))
                    .tokenSource(tokenVariable == null ? null : "$" + tokenVariable);
            if (journalFile != null) {
                try {
                    builder.journalTo(openJournal(journalFile));
                } catch (IOException e) {
                    err.println(NAME + ": " + RunnerChecks.cannotWrite("--journal", journalFile, e));
                    return 1;
                }
            }
            engine.set(builder.build());
            if (stopRequested.get()) {
                engine.get().abort();
            }
            LocalCliLauncher local = new LocalCliLauncher(io.jenkins.plugins.copilotautopilot.core.process.ProcessTreeKiller.DEFAULT_GRACE,
                    cliEnvironment);
            CliLauncher launcher = keptSession == null ? local : new KeepingLauncher(local, keptSession);
            if (plan.get(io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.OTEL)) {
                launcher = new SpanKeeping(launcher, SpanKeeping.besideJournal(journal), env, err);
            }
            SessionResult result = engine.get().run(command, new StartSignalling(launcher));
            if (timeline != null) {
                try {
                    writeTimeline(journalFile, timeline);
                } catch (IOException e) {
                    err.println(NAME + ": " + RunnerChecks.cannotWrite("--timeline", timeline, e));
                }
            }
            if (changes != null) {
                writeChanges(result, changes);
            }
            if (parsed.outputFile() != null) {
                writeAnswer(result, parsed.outputFile());
            }
            if (parsed.issuesFile() != null) {
                writeIssues(result, workDir, parsed.issuesFile());
            }
            return result.outcome().exitCode();
        } catch (IOException e) {
            err.println(NAME + ": " + e.getMessage());
            return 1;
        } finally {
            if (controlFolder != null) {
                deleteQuietly(controlFolder);
            }
            if (journal == null && journalFile != null) {
                deleteQuietly(journalFile);
            }
            finished.countDown();
            if (installShutdownHook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // Ctrl-C or SIGTERM: the hook is running and waited for us
                }
            }
        }
    }

    /** Counts {@link #CLI_STARTED} down once the CLI is started; otherwise the launcher it wraps. */
    private static final class StartSignalling extends ForwardingCliLauncher {
        StartSignalling(CliLauncher launcher) {
            super(launcher);
        }

        @Override
        public CliSession launch(CliCommand command) throws IOException, InterruptedException {
            CliSession session = super.launch(command);
            CLI_STARTED.countDown();
            return session;
        }
    }

    /** {@code --changes}: what the agent changed in the git work tree, as a patch (empty when nothing, or no work tree). */
    private void writeChanges(SessionResult result, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, result.changes().patch() == null ? "" : result.changes().patch(), StandardCharsets.UTF_8);
            out.println(LogRenderer.PREFIX + (result.changes().patch() == null
                    ? "Changes: the working directory is not in a git work tree; " + file.toAbsolutePath() + " is empty"
                    : "Changes: " + file.toAbsolutePath()));
        } catch (IOException e) {
            err.println(NAME + ": " + RunnerChecks.cannotWrite("--changes", file, e));
        }
    }

    /** {@code --output-file}: the answer when it followed the schema, else nothing (the file is removed). */
    private void writeAnswer(SessionResult result, Path file) {
        try {
            if (result.answer().output() == null) {
                Files.deleteIfExists(file);
                out.println(LogRenderer.PREFIX + "Answer: none that follows the schema; nothing written to " + file.toAbsolutePath());
                return;
            }
            write(file, result.answer().output().getBytes(StandardCharsets.UTF_8));
            out.println(LogRenderer.PREFIX + "Answer: " + file.toAbsolutePath());
        } catch (IOException e) {
            err.println(NAME + ": " + RunnerChecks.cannotWrite("--output-file", file, e));
        }
    }

    /** {@code --issues-file}: the findings in the working directory, in analysis-model's JSON (an empty list when none). */
    private void writeIssues(SessionResult result, Path workDir, Path file) {
        ReviewFindings.Held held = ReviewFindings.inWorkspace(result.answer().findings(), workDir, null);
        held.warnings(true).forEach(w -> out.println(LogRenderer.PREFIX + "WARNING: " + w));
        try {
            write(file, IssuesFile.of(held.findings()));
            out.println(LogRenderer.PREFIX + "Findings: " + held.findings().size() + " in " + file.toAbsolutePath());
        } catch (IOException e) {
            err.println(NAME + ": " + RunnerChecks.cannotWrite("--issues-file", file, e));
        }
    }

    private static void write(Path file, byte[] content) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.write(file, content);
    }

    private void writeTimeline(Path journal, Path svg) throws IOException {
        Path parent = svg.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(svg, TimelineSvg.render(SessionReportReader.read(journal)), StandardCharsets.UTF_8);
        out.println(LogRenderer.PREFIX + "Timeline: " + svg.toAbsolutePath());
    }

    private static OutputStream openJournal(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return Files.newOutputStream(file);
    }

    private static void deleteQuietly(Path dir) {
        try {
            FileTrees.delete(dir);
        } catch (IOException e) {
            // best effort: temporary files
        }
    }
}
