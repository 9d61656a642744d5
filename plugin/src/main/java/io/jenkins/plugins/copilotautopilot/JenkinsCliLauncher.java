package io.jenkins.plugins.copilotautopilot;

import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.Proc;
import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.MacroEscaping;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.RunningCli;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts the CLI through the build's {@link Launcher}, so it runs on the build's agent (and inside
 * {@code container} / {@code docker.image().inside} blocks), with the build's environment, whose cookies
 * let Jenkins stop it with the build. The agent's stdout arrives in the engine's stream on the controller.
 */
final class JenkinsCliLauncher implements CliLauncher {
    private static final Logger LOGGER = Logger.getLogger(JenkinsCliLauncher.class.getName());

    private final Launcher launcher;
    private final EnvVars env;
    private final FilePath workDir;

    JenkinsCliLauncher(Launcher launcher, EnvVars env, FilePath workDir) {
        this.launcher = launcher;
        this.env = env;
        this.workDir = workDir;
    }

    @Override
    public Map<String, String> inheritedEnvironment() {
        return env;
    }

    @Override
    public RunningCli launch(CliCommand command, OutputStream stdout, OutputStream stderr) throws IOException {
        Map<String, String> envs = new HashMap<>(env);
        // Launchers expand $VAR in arguments and variables: our values (prompt, secrets) must arrive unchanged.
        envs.putAll(MacroEscaping.escapeValues(command.environment()));
        Proc proc = launcher.launch()
                .cmds(MacroEscaping.escapeAll(command.commandLine()))
                .envs(envs)
                .pwd(workDir)
                .stdout(stdout)
                .stderr(stderr)
                .quiet(true)
                .start();
        return new JenkinsRunningCli(proc, launcher.getChannel(), command.runId(), stdout, stderr);
    }

    /** A CLI started on an agent. */
    static final class JenkinsRunningCli implements RunningCli {
        private final Proc proc;
        private final VirtualChannel channel;
        private final String runId;
        private final CompletableFuture<Integer> exit = new CompletableFuture<>();

        JenkinsRunningCli(Proc proc, VirtualChannel channel, String runId, OutputStream stdout, OutputStream stderr) {
            this.proc = proc;
            this.channel = channel;
            this.runId = runId;
            Thread waiter = new Thread(() -> {
                try {
                    // join() returns once the agent has delivered all output into our streams
                    exit.complete(proc.join());
                } catch (IOException | InterruptedException e) {
                    write(stderr, "Error: lost the Copilot CLI process on the agent: " + e.getMessage());
                    exit.complete(-1);
                } finally {
                    close(stdout);
                    close(stderr);
                }
            }, "copilot-autopilot-join " + runId);
            waiter.setDaemon(true);
            waiter.start();
        }

        @Override
        public Integer waitFor(Duration timeout) throws InterruptedException {
            try {
                return exit.get(Math.max(timeout.toMillis(), 0), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                return null;
            } catch (ExecutionException e) {
                return -1;
            }
        }

        @Override
        public void killTree() {
            boolean interrupted = Thread.interrupted();
            try {
                proc.kill(); // Jenkins' way: SIGTERM to the process tree, found by its cookie
            } catch (IOException | InterruptedException e) {
                LOGGER.log(Level.FINE, "could not kill the Copilot CLI", e);
            }
            try {
                if (channel != null) {
                    channel.call(new KillMarkedProcessesCallable(runId)); // and SIGKILL for what ignored it
                }
            } catch (IOException | InterruptedException e) {
                LOGGER.log(Level.FINE, "could not sweep the Copilot CLI's processes", e);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private static void write(OutputStream out, String line) {
            try {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                LOGGER.log(Level.FINE, "could not report", e);
            }
        }

        private static void close(OutputStream out) {
            try {
                out.close();
            } catch (IOException e) {
                LOGGER.log(Level.FINE, "could not close", e);
            }
        }
    }
}
