package io.jenkins.plugins.copilotautopilot.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.ProviderOptions;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.RunningCli;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One real autopilot session for a test: the real CLI, a {@link ScriptedModelServer} on 127.0.0.1, a
 * private working directory and COPILOT_HOME, the engine with a journal. Everything the test may want to
 * assert on is kept: the result, the log lines, the journal, the raw stdout, the run id.
 */
public final class E2eRun {
    private static final ObjectMapper JSON = new ObjectMapper();

    public final SessionResult result;
    public final ListLogSink log;
    public final Path journal;
    public final String rawStdout;
    public final String runId;
    public final ScriptedModelServer server;
    public final Path workDir;
    public final CliCommand command;

    private E2eRun(SessionResult result, ListLogSink log, Path journal, String rawStdout, String runId,
                   ScriptedModelServer server, Path workDir, CliCommand command) {
        this.result = result;
        this.log = log;
        this.journal = journal;
        this.rawStdout = rawStdout;
        this.runId = runId;
        this.server = server;
        this.workDir = workDir;
        this.command = command;
    }

    public static Builder with(ScriptedModelServer.Script script) {
        return new Builder(script);
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
        private String prompt = "Create hello.txt in the working directory, then finish.";
        private final List<Consumer<AutopilotOptions.Builder>> options = new ArrayList<>();
        private final List<SessionListener> listeners = new ArrayList<>();
        private final List<Consumer<AutopilotEngine>> engineHooks = new ArrayList<>();
        private final List<String> extraSecrets = new ArrayList<>();
        private String apiKey = "scripted-provider-key";
        private CliExecutable cli;

        private Builder(ScriptedModelServer.Script script) {
            this.script = script;
        }

        public Builder prompt(String value) {
            this.prompt = value;
            return this;
        }

        public Builder options(Consumer<AutopilotOptions.Builder> change) {
            options.add(change);
            return this;
        }

        /** Runs this CLI instead of the one the build installed. */
        public Builder cli(CliExecutable value) {
            this.cli = value;
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

        public Builder extraSecret(String value) {
            extraSecrets.add(value);
            return this;
        }

        public E2eRun run() throws IOException {
            Path root = Files.createTempDirectory("copilot-e2e-");
            Path work = Files.createDirectories(root.resolve("work"));
            Path home = Files.createDirectories(root.resolve("copilot-home"));
            Path journal = root.resolve("journal.jsonl");
            ScriptedModelServer server = ScriptedModelServer.start(script);
            try {
                AutopilotOptions.Builder b = AutopilotOptions.builder(prompt)
                        .model("fake-model")
                        .provider(new ProviderOptions(server.baseUrl(), "openai", apiKey, null, true));
                options.forEach(o -> o.accept(b));
                CliCommand command = CliCommandBuilder.build(b.build(), cli != null ? cli : TestCli.executable(), work.toString(), home.toString());
                ListLogSink log = new ListLogSink();
                AutopilotEngine.Builder engineBuilder = AutopilotEngine.builder(log)
                        .journalTo(Files.newOutputStream(journal))
                        .extraSecrets(extraSecrets);
                listeners.forEach(engineBuilder::listener);
                AutopilotEngine engine = engineBuilder.build();
                engineHooks.forEach(h -> h.accept(engine));
                ByteArrayOutputStream raw = new ByteArrayOutputStream();
                SessionResult result = engine.run(command, new TeeLauncher(new LocalCliLauncher(), raw));
                String rawText;
                synchronized (raw) {
                    rawText = raw.toString(StandardCharsets.UTF_8);
                }
                return new E2eRun(result, log, journal, rawText, command.runId(), server, work, command);
            } finally {
                server.close();
            }
        }
    }

    /** Copies the CLI's raw stdout aside, so a test can show what the engine had to mask. */
    static final class TeeLauncher implements CliLauncher {
        private final CliLauncher next;
        private final ByteArrayOutputStream copy;

        TeeLauncher(CliLauncher next, ByteArrayOutputStream copy) {
            this.next = next;
            this.copy = copy;
        }

        @Override
        public RunningCli launch(CliCommand command, OutputStream stdout, OutputStream stderr) throws IOException {
            OutputStream tee = new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    synchronized (copy) {
                        copy.write(b, off, len);
                    }
                    stdout.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    stdout.close();
                }
            };
            return next.launch(command, tee, stderr);
        }
    }
}
