package io.jenkins.plugins.copilotautopilot.testing;

import hudson.model.TaskListener;
import hudson.slaves.ComputerLauncher;
import hudson.slaves.DumbSlave;
import hudson.slaves.RetentionStrategy;
import hudson.slaves.SlaveComputer;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import org.jvnet.hudson.test.JenkinsRule;

/**
 * An agent in a JVM of its own, in a process group of its own (as a service manager starts it), whose death the
 * tests choose: the JVM alone ({@link #killJvm()}, as when only the agent crashes), the whole group with every
 * process the agent started ({@link #killWithItsProcesses()}, as a service manager stops a unit), or a JVM that
 * stops answering without dying ({@link #freeze()}). A disconnect ends only the JVM, as an inbound agent's does.
 */
public final class AgentJvm extends ComputerLauncher {
    private final String agentJar;
    /** The OS user the agent runs as (through {@code su}, so the tests run as root), or null for this one. */
    private final String user;
    private transient volatile Process jvm;

    private AgentJvm(String agentJar, String user) {
        this.agentJar = agentJar;
        this.user = user;
    }

    /** Adds an agent named {@code name} (also its label) and waits until it is online. */
    public static AgentJvm add(JenkinsRule j, String name, Path root) throws Exception {
        return add(j, name, root, null);
    }

    /**
     * Adds an agent that runs as the ordinary OS user {@code user}, as real agents do (a service account), and waits
     * until it is online; {@code root} must be that user's to write.
     */
    public static AgentJvm add(JenkinsRule j, String name, Path root, String user) throws Exception {
        AgentJvm launcher = new AgentJvm(new File(j.jenkins.getJnlpJars("agent.jar").getURL().toURI()).getAbsolutePath(), user);
        DumbSlave agent = new DumbSlave(name, root.toString(), launcher);
        agent.setLabelString(name);
        agent.setRetentionStrategy(RetentionStrategy.NOOP);
        j.jenkins.addNode(agent);
        j.waitOnline(agent);
        return launcher;
    }

    @Override
    public void launch(SlaveComputer computer, TaskListener listener) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder command = user == null ? new ProcessBuilder("setsid", java, "-jar", agentJar)
                : new ProcessBuilder("setsid", "su", "-s", "/bin/sh", user, "-c", "exec \"$0\" -jar \"$1\"", java, agentJar);
        Process started = command.redirectError(ProcessBuilder.Redirect.INHERIT).start();
        jvm = started;
        // this JVM ends with its own channel: a disconnect's clean-up, which may run after the next connect has
        // started another JVM, never reaches the new one
        computer.setChannel(started.getInputStream(), started.getOutputStream(), listener.getLogger(), new hudson.remoting.Channel.Listener() {
            @Override
            public void onClosed(hudson.remoting.Channel channel, IOException cause) {
                started.destroy();
            }
        });
    }

    /** SIGKILL to the agent's JVM only: what it started detached (durable-task's tasks) runs on. */
    public void killJvm() throws InterruptedException {
        Process p = jvm;
        p.destroyForcibly();
        p.waitFor();
    }

    /** SIGKILL to the agent's whole process group: the JVM and everything it started, durable-task's tasks too. */
    public void killWithItsProcesses() throws Exception {
        Process p = jvm;
        Process kill = new ProcessBuilder("kill", "-KILL", "--", "-" + p.pid()).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("could not kill the process group " + p.pid());
        }
        p.waitFor();
    }

    /** SIGSTOP to the agent's JVM: its channel stays open and never answers. */
    public void freeze() throws Exception {
        signal("STOP");
    }

    public void thaw() throws Exception {
        signal("CONT");
    }

    private void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(jvm.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("could not send SIG" + name + " to " + jvm.pid());
        }
    }
}
