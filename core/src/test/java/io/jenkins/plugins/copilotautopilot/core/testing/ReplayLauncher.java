package io.jenkins.plugins.copilotautopilot.core.testing;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.RunningCli;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A launcher that starts no process: it plays recorded stdout (and stderr) bytes into the engine, in
 * small pieces like a pipe would, then "exits" with the given code. For testing the engine on captures and
 * crafted streams without the CLI.
 */
public final class ReplayLauncher implements CliLauncher {
    private final byte[] stdout;
    private final byte[] stderr;
    private final int exitCode;
    private final int pieceSize;
    private volatile boolean killed;
    private Map<String, String> environment = Map.of();

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

    public boolean killed() {
        return killed;
    }

    @Override
    public RunningCli launch(CliCommand command, OutputStream out, OutputStream err) {
        CountDownLatch done = new CountDownLatch(1);
        Thread player = new Thread(() -> {
            try (out; err) {
                err.write(stderr);
                for (int i = 0; i < stdout.length && !killed; i += pieceSize) {
                    out.write(stdout, i, Math.min(pieceSize, stdout.length - i));
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } finally {
                done.countDown();
            }
        }, "replay");
        player.setDaemon(true);
        player.start();
        return new RunningCli() {
            @Override
            public Integer waitFor(Duration timeout) throws InterruptedException {
                return done.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? (killed ? 143 : exitCode) : null;
            }

            @Override
            public void killTree() {
                killed = true;
            }
        };
    }
}
