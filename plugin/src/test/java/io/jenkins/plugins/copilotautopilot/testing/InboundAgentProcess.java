package io.jenkins.plugins.copilotautopilot.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An inbound WebSocket agent as a service manager runs it: a JVM of its own in a process group of its own, connected
 * through a {@link CuttableRelay}; optionally with its workspaces on a small tmpfs so that its disk can fill up. Tests
 * kill it (alone, or with every process it started), cut its connection (the JVM lives on and connects again by
 * itself) and fill its disk; a killed agent is started again with {@link #start()}, as its service manager would.
 */
public final class InboundAgentProcess implements AutoCloseable {
    public final String name;
    /** The agent's root (remote FS). */
    public final Path root;
    private final Path agentJar;
    private final Path log;
    private final CuttableRelay relay;
    /** The controller's context path, e.g. {@code /jenkins/}. */
    private final String contextPath;
    private volatile String secret;
    private volatile Process jvm;
    private volatile boolean mounted;

    /**
     * An agent named {@code name} with its root, the controller's {@code agent.jar}, the relay it connects through and
     * the controller's context path (e.g. {@code /jenkins/}); {@link #secret} and {@link #start} start it.
     */
    public InboundAgentProcess(String name, Path root, Path agentJar, CuttableRelay relay, String contextPath) {
        this.name = name;
        this.contextPath = contextPath;
        this.root = root;
        this.agentJar = agentJar;
        this.log = root.resolve("agent.log");
        this.relay = relay;
    }

    /** Mounts a tmpfs of {@code megabytes} on the agent's {@code workspace}, the disk the harness fills up. */
    public void mountWorkspace(int megabytes) throws IOException, InterruptedException {
        Path workspace = Files.createDirectories(root.resolve("workspace"));
        run(List.of("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m,mode=0755", "soak-" + name, workspace.toString()),
                "the soak fills an agent's disk on a tmpfs of its own: run it as root on Linux");
        mounted = true;
    }

    public Path workspace() {
        return root.resolve("workspace");
    }

    public void secret(String value) {
        this.secret = value;
    }

    /** Starts the agent's JVM (its output in {@code agent.log} of its root). */
    public synchronized void start() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder command = new ProcessBuilder("setsid", java, "-Xmx256m", "-jar", agentJar.toString(), "-url",
                "http://127.0.0.1:" + relay.port() + contextPath, "-name", name, "-secret", secret, "-webSocket", "-workDir",
                root.resolve("remoting-work").toString());
        command.directory(root.toFile());
        command.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        jvm = command.start();
    }

    public long pid() {
        return jvm.pid();
    }

    public boolean isAlive() {
        Process p = jvm;
        return p != null && p.isAlive();
    }

    /** SIGKILL to the agent's JVM only: what it started detached (durable-task's tasks, the CLI) runs on. */
    public synchronized void killJvm() throws InterruptedException {
        jvm.destroyForcibly();
        jvm.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGKILL to the agent's process group: the JVM and everything it started (the CLI and its tools too). */
    public synchronized void killWithItsProcesses() throws IOException, InterruptedException {
        run(List.of("kill", "-KILL", "--", "-" + jvm.pid()), "could not kill the process group " + jvm.pid());
        jvm.waitFor(30, TimeUnit.SECONDS);
    }

    /** Cuts the agent's connection to the controller; returns how many connections were open. */
    public int cut() {
        return relay.cut();
    }

    /** Fills the agent's workspace disk to the last byte; {@link #freeDisk()} undoes it. */
    public void fillDisk() throws IOException, InterruptedException {
        // dd stops at "No space left on device" (status 1): the disk is full, which is what was asked
        Process dd = new ProcessBuilder("dd", "if=/dev/zero", "of=" + workspace().resolve(".soak-fill"), "bs=1M")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        dd.waitFor(120, TimeUnit.SECONDS);
    }

    public void freeDisk() throws IOException {
        Files.deleteIfExists(workspace().resolve(".soak-fill"));
    }

    @Override
    public synchronized void close() throws Exception {
        Process p = jvm;
        if (p != null && p.isAlive()) {
            new ProcessBuilder("kill", "-KILL", "--", "-" + p.pid()).start().waitFor(30, TimeUnit.SECONDS);
        }
        relay.close();
        if (mounted) {
            freeDisk();
            new ProcessBuilder("umount", "-l", workspace().toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static void run(List<String> command, String orElse) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(orElse + ": " + String.join(" ", command) + " gave " + out);
        }
    }
}
