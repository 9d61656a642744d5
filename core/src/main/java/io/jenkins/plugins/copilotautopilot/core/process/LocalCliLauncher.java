package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the CLI as a child of this JVM, with this JVM's environment plus the command's variables. No shell
 * is involved: arguments reach the CLI byte for byte.
 */
public final class LocalCliLauncher implements CliLauncher {
    private final Duration killGrace;

    public LocalCliLauncher() {
        this(ProcessTreeKiller.DEFAULT_GRACE);
    }

    /** @param killGrace how long processes get to stop after SIGTERM before they are killed */
    public LocalCliLauncher(Duration killGrace) {
        this.killGrace = killGrace;
    }

    @Override
    public Map<String, String> inheritedEnvironment() {
        return System.getenv();
    }

    @Override
    public RunningCli launch(CliCommand command, OutputStream stdout, OutputStream stderr) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command.commandLine());
        if (command.workingDirectory() != null) {
            File dir = new File(command.workingDirectory());
            if (!dir.isDirectory()) {
                throw new IOException("the working directory " + dir + " does not exist");
            }
            builder.directory(dir);
        }
        Map<String, String> env = builder.environment();
        env.putAll(command.environment());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IOException(describeStartFailure(command, e), e);
        }
        process.getOutputStream().close();
        Thread out = pump(process.getInputStream(), stdout, "copilot-stdout-" + process.pid());
        Thread err = pump(process.getErrorStream(), stderr, "copilot-stderr-" + process.pid());
        return new LocalRunningCli(process, command.runId(), killGrace, out, err);
    }

    private static String describeStartFailure(CliCommand command, IOException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        // ProcessBuilder says "Cannot run program "x": error=13, Permission denied" – keep the useful part
        int errorAt = message.indexOf("error=");
        String cause = errorAt >= 0 ? message.substring(errorAt) : message;
        return "cannot run " + command.executable().path() + " (" + cause + ")";
    }

    private static Thread pump(InputStream from, OutputStream to, String name) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (from; to) {
                int n;
                while ((n = from.read(buffer)) >= 0) {
                    to.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // the process went away; the engine decides what that means
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** A CLI process started by {@link LocalCliLauncher}. */
    static final class LocalRunningCli implements RunningCli {
        private final Process process;
        private final String runId;
        private final Duration killGrace;
        private final Thread stdoutPump;
        private final Thread stderrPump;

        LocalRunningCli(Process process, String runId, Duration killGrace, Thread stdoutPump, Thread stderrPump) {
            this.process = process;
            this.runId = runId;
            this.killGrace = killGrace;
            this.stdoutPump = stdoutPump;
            this.stderrPump = stderrPump;
        }

        @Override
        public Integer waitFor(Duration timeout) throws InterruptedException {
            if (process.waitFor(Math.max(timeout.toMillis(), 0), TimeUnit.MILLISECONDS)) {
                return process.exitValue();
            }
            return null;
        }

        @Override
        public void killTree() {
            ProcessTreeKiller.kill(process.toHandle(), runId, killGrace);
        }

        long pid() {
            return process.pid();
        }

        boolean pumpsDone() {
            return !stdoutPump.isAlive() && !stderrPump.isAlive();
        }
    }
}
