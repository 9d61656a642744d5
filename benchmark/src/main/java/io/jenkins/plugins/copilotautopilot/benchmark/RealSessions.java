package io.jenkins.plugins.copilotautopilot.benchmark;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ForwardingCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Real Copilot CLI sessions against a scripted model on 127.0.0.1: with and without the engine. */
final class RealSessions {
    private final CliExecutable cli;
    private final ScriptedModelServer server;
    private final Path root;

    RealSessions(CliExecutable cli, ScriptedModelServer server, Path root) {
        this.cli = cli;
        this.server = server;
        this.root = root;
    }

    /** The same sessions with {@code other} as the CLI (a wrapper around it). */
    RealSessions with(CliExecutable other) {
        return new RealSessions(other, server, root);
    }

    CliCommand command(String prompt) throws IOException {
        Path run = Files.createTempDirectory(root, "run-");
        Path work = Files.createDirectories(run.resolve("work"));
        TaskSpec options = TaskSpec.of(prompt).set(MODEL, "fake-model").set(ALLOW_ALL_TOOLS, true)
                .provider(server.baseUrl(), "openai", "sk-benchmark-key-0001", null, true);
        return Commands.build(options, cli, work.toString(), run.resolve("control").toString(), Map.of());
    }

    /** When a session's process was started and when it had ended, on the wall clock and on the monotonic one. */
    record Span(Instant start, Instant end, long nanos) {
        static Span of(ProcessBuilder builder, String what) throws IOException, InterruptedException {
            Instant start = Instant.now();
            long t0 = System.nanoTime();
            Process process = builder.start();
            if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new IOException(what + " failed");
            }
            long nanos = System.nanoTime() - t0;
            return new Span(start, Instant.now(), nanos);
        }
    }

    /** The bare CLI: same command and environment, output to /dev/null. Wall nanoseconds. */
    long bare() throws IOException, InterruptedException {
        return bareSpan().nanos();
    }

    /** {@link #bare}, with when its process started and ended. */
    Span bareSpan() throws IOException, InterruptedException {
        CliCommand command = command("Create hi.txt");
        Path prompt = Files.writeString(Path.of(command.workingDirectory()).resolveSibling("prompt.txt"), command.task().prompt());
        Files.createDirectories(Path.of(command.launchFolder(), "copilot-home"));
        ProcessBuilder builder = new ProcessBuilder(command.commandLine()).directory(Path.of(command.workingDirectory()).toFile())
                .redirectInput(prompt.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(command.environment());
        return Span.of(builder, "the bare CLI");
    }

    /** Through the engine, in-process as Jenkins runs it: live log, journal, masking. Wall nanoseconds. */
    long engine() throws IOException {
        CliCommand command = command("Create hi.txt");
        long start = System.nanoTime();
        SessionResult result;
        try (OutputStream journal = Files.newOutputStream(Path.of(command.workingDirectory()).resolveSibling("journal.jsonl"))) {
            result = AutopilotEngine.builder(line -> { }).journalTo(journal).build().run(command, new LocalCliLauncher());
        }
        long took = System.nanoTime() - start;
        if (result.outcome() != Outcome.COMPLETED) {
            throw new IOException("the engine's session ended " + result.outcome() + ": " + result.reason());
        }
        return took;
    }

    /**
     * The standalone runner as a user starts it ({@code ./copilot-autopilot}: the script, then its JVM with the
     * class data archive), everything included. Wall nanoseconds.
     */
    long runner(Path script) throws IOException, InterruptedException {
        return runnerSpan(script).nanos();
    }

    /** {@link #runner}, with when its process started and ended. */
    Span runnerSpan(Path script) throws IOException, InterruptedException {
        CliCommand command = command("Create hi.txt");
        List<String> args = new ArrayList<>(List.of(script.toString(), "--copilot", cli.path(), "--offline", "--allow-all-tools",
                "-C", command.workingDirectory(), "-p", "Create hi.txt"));
        ProcessBuilder builder = new ProcessBuilder(args).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(Map.of("COPILOT_CLI", cli.path(), "COPILOT_PROVIDER_BASE_URL", server.baseUrl(),
                "COPILOT_PROVIDER_API_KEY", "sk-benchmark-key-0001", "COPILOT_MODEL", "fake-model"));
        // the same JVM as this benchmark's (the class data archive was made by the build's)
        builder.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + java.io.File.pathSeparator
                + System.getenv().getOrDefault("PATH", ""));
        return Span.of(builder, "the runner");
    }

    /** A streaming session: raw stdout bytes and rendered log bytes. */
    long[] streamingBytes() throws IOException {
        CliCommand command = command("Write 800 words");
        AtomicLong raw = new AtomicLong();
        AtomicLong rendered = new AtomicLong();
        CliLauncher counting = c -> {
            CliSession session = new LocalCliLauncher().launch(c);
            return new ForwardingCliSession(session) {
                @Override
                public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException, InterruptedException {
                    return poll(outputOffset, stderrOffset, 0, maxBytes);
                }

                @Override
                public SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes)
                        throws IOException, InterruptedException {
                    // as the runner reads it: the usage records too
                    SessionPoll poll = super.poll(outputOffset, stderrOffset, usageOffset, maxBytes);
                    raw.addAndGet(poll.output().length);
                    return poll;
                }
            };
        };
        SessionResult result = AutopilotEngine.builder(line -> rendered.addAndGet(line.getBytes(StandardCharsets.UTF_8).length + 1))
                .build().run(command, counting);
        if (result.outcome() != Outcome.COMPLETED) {
            throw new IOException("the streaming session ended " + result.outcome() + ": " + result.reason());
        }
        return new long[] {raw.get(), rendered.get()};
    }

    /** The model's script: a shell call then task_complete; or 800 words in 4-character pieces then task_complete. */
    static ScriptedModelServer.Script script() {
        StringBuilder words = new StringBuilder();
        for (int i = 0; i < 800; i++) {
            words.append('w').append(i).append(' ');
        }
        String text = words.toString().trim();
        return request -> {
            String prompt = request.body().path("messages").toString();
            if (prompt.contains("Write 800 words")) {
                return request.used("task_complete") ? ScriptedModelServer.Reply.text("ok")
                        : ScriptedModelServer.Reply.taskComplete("Wrote 800 words.").withText(text).chunked(4, 0);
            }
            return ScriptedModelServer.Scripts.bashThenComplete("echo hi > hi.txt && cat hi.txt", "Created hi.txt.").reply(request);
        };
    }
}
