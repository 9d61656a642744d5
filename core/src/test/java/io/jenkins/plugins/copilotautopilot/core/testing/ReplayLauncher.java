package io.jenkins.plugins.copilotautopilot.core.testing;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A launcher that starts no process: its session ({@link FakeSession}) plays recorded stdout (and stderr) bytes
 * into the engine in small pieces, then ends with the given exit code. For testing the engine on captures and
 * crafted streams without the CLI.
 */
public final class ReplayLauncher implements CliLauncher {
    private final byte[] stdout;
    private final byte[] stderr;
    private final int exitCode;
    private final int pieceSize;
    private Map<String, String> environment = Map.of();
    private FakeSession session;

    public ReplayLauncher(byte[] stdout, byte[] stderr, int exitCode, int pieceSize) {
        this.stdout = stdout;
        this.stderr = stderr;
        this.exitCode = exitCode;
        this.pieceSize = pieceSize;
    }

    public static ReplayLauncher ofCapture(String name) {
        return new ReplayLauncher(Captures.stdout(name), new byte[0], Captures.exitCode(name), 997);
    }

    public static ReplayLauncher ofText(String stdout, int exitCode) {
        return new ReplayLauncher(stdout.getBytes(StandardCharsets.UTF_8), new byte[0], exitCode, 997);
    }

    /** Pretends the CLI inherits this environment. */
    public ReplayLauncher withEnvironment(Map<String, String> env) {
        this.environment = env;
        return this;
    }

    @Override
    public Map<String, String> inheritedEnvironment() {
        return environment;
    }

    /** The session it launched, or null. */
    public FakeSession session() {
        return session;
    }

    @Override
    public CliSession launch(CliCommand command) {
        session = new FakeSession(stdout, stderr, exitCode, pieceSize, false);
        return session;
    }
}
