package io.jenkins.plugins.copilotautopilot.core.testing;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Consumer;

/**
 * A misbehaving stand-in for the CLI: a real process (a shell script) that the engine starts, reads and
 * stops exactly as it would the CLI. For faults the real CLI cannot be made to show on demand.
 */
public final class ScriptCli {
    private ScriptCli() {
    }

    /** Writes an executable {@code sh} script with this body into {@code dir}. */
    public static Path write(Path dir, String body) throws IOException {
        Files.createDirectories(dir);
        Path script = dir.resolve("copilot");
        Files.writeString(script, "#!/bin/sh\n" + body + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    /** Writes a capture's stdout next to the script, for the script to replay with {@code cat}. */
    public static Path capture(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".jsonl");
        Files.write(file, Captures.stdout(name));
        return file;
    }

    /** A finished run of a script CLI. */
    public record Run(SessionResult result, ListLogSink log, String journal, String runId) {
    }

    public static Run run(Path executable, Path workDir, Consumer<TaskSpec> options,
                          Consumer<AutopilotEngine> engineHook) throws IOException {
        return run(executable, workDir, options, new SessionListener() { }, engineHook);
    }

    /** A run whose {@code listener} hears of the session as the log does ({@code engineHook} gets the engine first). */
    public static Run run(Path executable, Path workDir, Consumer<TaskSpec> options, SessionListener listener,
                          Consumer<AutopilotEngine> engineHook) throws IOException {
        return run(executable, workDir, options, listener, b -> { }, engineHook);
    }

    /** A run whose engine is configured by {@code builderHook} as well (after the test's own settings). */
    public static Run run(Path executable, Path workDir, Consumer<TaskSpec> options, SessionListener listener,
                          Consumer<AutopilotEngine.Builder> builderHook, Consumer<AutopilotEngine> engineHook) throws IOException {
        TaskSpec b = TaskSpec.of("Do the task").githubToken("github_pat_scriptCliToken_0001");
        options.accept(b);
        Path control = Files.createTempDirectory("script-cli-control-");
        CliCommand command = CliCommandBuilder.build(b.plan(), b.task(), new CliExecutable(executable.toString(), null),
                workDir.toString(), control.toString(), java.util.Map.of());
        ListLogSink log = new ListLogSink();
        java.io.ByteArrayOutputStream journal = new java.io.ByteArrayOutputStream();
        AutopilotEngine.Builder builder = AutopilotEngine.builder(log).journalTo(journal).timings(Commands.FAST).listener(listener);
        builderHook.accept(builder);
        AutopilotEngine engine = builder.build();
        engineHook.accept(engine);
        SessionResult result = engine.run(command, new LocalCliLauncher(java.time.Duration.ofSeconds(1)));
        return new Run(result, log, journal.toString(StandardCharsets.UTF_8), command.runId());
    }

    public static Run run(Path executable, Path workDir) throws IOException {
        return run(executable, workDir, o -> { }, e -> { });
    }
}
