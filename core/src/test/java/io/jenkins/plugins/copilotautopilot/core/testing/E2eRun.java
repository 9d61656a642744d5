package io.jenkins.plugins.copilotautopilot.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ForwardingCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.ForwardingCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One real autopilot session for a test: the real CLI, a {@link ScriptedModelServer} on 127.0.0.1 (BYOK, {@link #with})
 * or a {@link GithubStandIn} (GitHub-token mode, {@link #withGithub}), a private working directory and COPILOT_HOME,
 * the engine with a journal. Everything the test may want to assert on is kept: the result, the log lines, the
 * journal, the raw stdout, the run id.
 */
public final class E2eRun {
    private static final ObjectMapper JSON = new ObjectMapper();

    public final SessionResult result;
    public final ListLogSink log;
    public final Path journal;
    public final String rawStdout;
    public final String runId;
    /** The scripted model of a BYOK run, or null in GitHub-token mode. */
    public final ScriptedModelServer server;
    /** The stand-in of a GitHub-token run (the test's to close), or null. */
    public final GithubStandIn github;
    public final Path workDir;
    public final CliCommand command;

    private E2eRun(SessionResult result, ListLogSink log, Path journal, String rawStdout, String runId,
                   ScriptedModelServer server, GithubStandIn github, Path workDir, CliCommand command) {
        this.result = result;
        this.log = log;
        this.journal = journal;
        this.rawStdout = rawStdout;
        this.runId = runId;
        this.server = server;
        this.github = github;
        this.workDir = workDir;
        this.command = command;
    }

    public static Builder with(ScriptedModelServer.Script script) {
        return new Builder(script, null);
    }

    /**
     * A session in GitHub-token mode against {@code github}: the token {@link GithubStandIn#TOKEN} in the task (as a
     * step's credential is), model {@link GithubStandIn#MODEL}, no BYOK variables, the API URLs pointing at the stand-in
     * and a cache folder of the session's own. The test starts and closes the stand-in, and asserts on its requests.
     */
    public static Builder withGithub(GithubStandIn github) {
        return new Builder(null, github);
    }

    /** The journal, one JSON object per line. */
    public List<JsonNode> journalLines() throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(journal, StandardCharsets.UTF_8)) {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }

    public String journalText() throws IOException {
        return Files.readString(journal, StandardCharsets.UTF_8);
    }

    /** Builds and runs a session. */
    public static final class Builder {
        private final ScriptedModelServer.Script script;
        private final GithubStandIn github;
        private String prompt = "Create hello.txt in the working directory, then finish.";
        private final List<Consumer<TaskSpec>> options = new ArrayList<>();
        private final List<SessionListener> listeners = new ArrayList<>();
        private final List<Consumer<AutopilotEngine>> engineHooks = new ArrayList<>();
        private io.jenkins.plugins.copilotautopilot.core.parts.SpendGuard spendGuard;
        private final List<Consumer<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate>> approvers = new ArrayList<>();
        private final List<String> extraSecrets = new ArrayList<>();
        private String apiKey = "scripted-provider-key";
        private CliExecutable cli;
        private WorkDirSetup setup = dir -> { };
        private final java.util.Map<String, String> environment = new java.util.HashMap<>(System.getenv());
        private Path keepIn;
        private Path controlParent;
        private java.util.function.UnaryOperator<CliSession> sessionWrapper = session -> session;

        private Builder(ScriptedModelServer.Script script, GithubStandIn github) {
            this.script = script;
            this.github = github;
        }

        public Builder prompt(String value) {
            this.prompt = value;
            return this;
        }

        public Builder options(Consumer<TaskSpec> change) {
            options.add(change);
            return this;
        }

        /** Runs this CLI instead of the one the build installed. */
        public Builder cli(CliExecutable value) {
            this.cli = value;
            return this;
        }

        /** Prepares the working directory before the CLI starts (e.g. makes it a git work tree). */
        public Builder workDir(WorkDirSetup value) {
            this.setup = value;
            return this;
        }

        public Builder apiKey(String value) {
            this.apiKey = value;
            return this;
        }

        public Builder listener(SessionListener listener) {
            listeners.add(listener);
            return this;
        }

        /** Gets the engine before it runs (to abort it from a listener, say). */
        public Builder engine(Consumer<AutopilotEngine> hook) {
            engineHooks.add(hook);
            return this;
        }

        /** Keeps the session's state in this file at the end (as {@code --session} does). */
        /** Decides on the calls that wait ({@code approveTools}). */
        public Builder approver(Consumer<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate> approver) {
            approvers.add(approver);
            return this;
        }

        public Builder spendGuard(io.jenkins.plugins.copilotautopilot.core.parts.SpendGuard guard) {
            this.spendGuard = guard;
            return this;
        }

        public Builder keepSessionIn(Path file) {
            this.keepIn = file;
            options.add(o -> o.set(io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.SESSION, "kept"));
            return this;
        }

        /** Leaves a variable out of the environment the run starts with. */
        public Builder withoutEnvironment(String name) {
            environment.remove(name);
            return this;
        }

        /** Puts the control folder into {@code parent} (as a job's runs share its @tmp folder) instead of the run's own folder. */
        public Builder controlFolderIn(Path parent) {
            this.controlParent = parent;
            return this;
        }

        /** A variable of the environment the run starts with (and the CLI's command is built from). */
        public Builder environment(String name, String value) {
            environment.put(name, value);
            return this;
        }

        /** Wraps the launched session (to hold back what the follower tells the launch script, say). */
        public Builder session(java.util.function.UnaryOperator<CliSession> wrapper) {
            this.sessionWrapper = wrapper;
            return this;
        }

        public Builder extraSecret(String value) {
            extraSecrets.add(value);
            return this;
        }

        public E2eRun run() throws IOException {
            Path root = Files.createTempDirectory(TestFolders.root(), "e2e-");
            Path work = Files.createDirectories(root.resolve("work"));
            setup.prepare(work);
            Path control = controlParent == null ? root.resolve("control")
                    : controlParent.resolve("session-" + java.util.UUID.randomUUID());
            Path journal = root.resolve("journal.jsonl");
            ScriptedModelServer server = github == null ? ScriptedModelServer.start(script) : null;
            try {
                TaskSpec b;
                Map<String, String> environment = this.environment;
                if (github == null) {
                    b = TaskSpec.of(prompt).set(io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.MODEL, "fake-model")
                            .provider(server.baseUrl(), "openai", apiKey, null, true);
                } else {
                    b = TaskSpec.of(prompt).set(io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.MODEL, GithubStandIn.MODEL)
                            .githubToken(GithubStandIn.TOKEN);
                    environment = github.environment(environment, root.resolve("cache"));
                }
                options.forEach(o -> o.accept(b));
                CliCommand command = CliCommandBuilder.build(b.plan(), b.task(), cli != null ? cli : TestCli.executable(),
                        work.toString(), control.toString(), environment);
                ListLogSink log = new ListLogSink();
                AutopilotEngine.Builder engineBuilder = AutopilotEngine.builder(log)
                        .journalTo(Files.newOutputStream(journal))
                        .extraSecrets(extraSecrets);
                listeners.forEach(engineBuilder::listener);
                approvers.forEach(engineBuilder::approver);
                engineBuilder.spendGuard(spendGuard);
                AutopilotEngine engine = engineBuilder.build();
                engineHooks.forEach(h -> h.accept(engine));
                io.jenkins.plugins.copilotautopilot.core.process.CliLauncher local = new LocalCliLauncher(
                        io.jenkins.plugins.copilotautopilot.core.process.ProcessTreeKiller.DEFAULT_GRACE, environment);
                TeeLauncher launcher = new TeeLauncher(keepIn == null ? local
                        : new io.jenkins.plugins.copilotautopilot.core.process.KeepingLauncher(local, keepIn), sessionWrapper);
                SessionResult result = engine.run(command, launcher);
                return new E2eRun(result, log, journal, launcher.stdout(), command.runId(), server, github, work, command);
            } finally {
                if (server != null) {
                    server.close();
                }
            }
        }
    }

    /** Prepares a working directory. */
    @FunctionalInterface
    public interface WorkDirSetup {
        void prepare(Path dir) throws IOException;
    }

    /** Keeps a copy of the CLI's raw stdout before the control folder is removed, to show what the engine had to mask. */
    static final class TeeLauncher extends ForwardingCliLauncher {
        private final java.util.function.UnaryOperator<CliSession> wrapper;
        private volatile String stdout = "";

        TeeLauncher(CliLauncher next, java.util.function.UnaryOperator<CliSession> wrapper) {
            super(next);
            this.wrapper = wrapper;
        }

        String stdout() {
            return stdout;
        }

        @Override
        public CliSession launch(CliCommand command) throws IOException, InterruptedException {
            CliSession session = wrapper.apply(super.launch(command));
            Path output = Path.of(command.launchFolder(), ControlFolder.OUTPUT);
            return ForwardingCliSession.beforeCleanup(session, () -> {
                if (Files.exists(output)) {
                    stdout = Files.readString(output, StandardCharsets.UTF_8);
                }
            });
        }
    }
}
