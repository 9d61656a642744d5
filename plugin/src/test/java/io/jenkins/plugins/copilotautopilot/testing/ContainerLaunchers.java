package io.jenkins.plugins.copilotautopilot.testing;

import hudson.EnvVars;
import hudson.Launcher;
import hudson.LauncherDecorator;
import hudson.Proc;
import hudson.model.Node;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Launchers decorated as kubernetes-plugin's {@code container {}} and docker-workflow's {@code docker.image().inside}
 * decorate them, with their real {@code launch} quoting and their real {@code kill} (read in their sources:
 * {@code ContainerExecDecorator}, {@code WithContainerStep.Decorator}). The "container" is this machine, but as in a pod
 * the node's own process killer cannot reach what runs in it: the node's cookie does not reach the container's
 * processes. So only the step's own stop can end the CLI there.
 */
public final class ContainerLaunchers {
    /** How many commands each kind of launcher ran, and how many kills it was asked for. */
    public static final AtomicInteger LAUNCHES = new AtomicInteger();
    public static final AtomicInteger KILLS = new AtomicInteger();

    private ContainerLaunchers() {
    }

    /** The variable the node's process killer marks a build's processes with (workflow-durable-task-step). */
    private static final String NODE_COOKIE = "JENKINS_NODE_COOKIE";
    private static final String COOKIE = "JENKINS_SERVER_COOKIE";

    /**
     * kubernetes-plugin: a shell in the container reads {@code cd "<pwd>"}, an {@code export NAME='value'} per variable
     * and the command with every argument in double quotes (only {@code "} escaped, {@code $$} turned into {@code \$});
     * its kill is {@code kill `grep -l 'JENKINS_SERVER_COOKIE=<cookie>' /proc/*}{@code /environ | cut -d / -f 3 `}
     * (SIGTERM only, the cookie variable only).
     */
    public static final class Kubernetes extends LauncherDecorator implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Launcher decorate(Launcher launcher, Node node) {
            return new Launcher.DecoratedLauncher(launcher) {
                @Override
                public Proc launch(Launcher.ProcStarter starter) throws IOException {
                    LAUNCHES.incrementAndGet();
                    StringBuilder script = new StringBuilder();
                    if (starter.pwd() != null) {
                        script.append("cd \"").append(starter.pwd().getRemote()).append("\"\n");
                    }
                    EnvVars env = new EnvVars();
                    for (String pair : starter.envs()) {
                        env.addLine(pair);
                    }
                    env.remove(NODE_COOKIE);
                    for (Map.Entry<String, String> e : env.entrySet()) {
                        if (e.getKey().matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
                            String value = e.getValue().replace("$$", "$"); // fixDoubleDollar
                            script.append("export ").append(e.getKey()).append("='").append(value.replace("'", "'\\''")).append("'\n");
                        }
                    }
                    script.append(starter.cmds().stream()
                            .map(c -> "\"" + c.replace("$$", "\\$").replace("\"", "\\\"") + "\"")
                            .collect(Collectors.joining(" "))).append("\nexit\n");
                    return getInner().launch(starter.cmds("sh", "-c", script.toString()).envs(new String[0]));
                }

                @Override
                public void kill(Map<String, String> modelEnvVars) throws IOException, InterruptedException {
                    KILLS.incrementAndGet();
                    String cookie = modelEnvVars.get(COOKIE);
                    int exitCode = getInner().launch().cmds("sh", "-c",
                            "kill `grep -l '" + COOKIE + "=" + cookie + "' /proc/*/environ | cut -d / -f 3 `")
                            .quiet(true).start().join();
                    getListener().getLogger().println("Attempt to gracefully kill processes finished with exit code " + exitCode);
                }
            };
        }
    }

    /**
     * docker-workflow: {@code docker exec --env NAME=value … <container> <command>} (arguments passed as they are);
     * its kill lists {@code ps -A -o pid,command e} in the container, keeps the lines holding
     * {@code JENKINS_SERVER_COOKIE=<cookie>}, and runs {@code kill} on their pids. With {@code busybox}, as in an
     * Alpine image, {@code ps} knows no {@code e}: the kill fails ("failed to run ps") and kills nothing.
     */
    public static final class Docker extends LauncherDecorator implements Serializable {
        private static final long serialVersionUID = 1L;
        private final boolean busybox;

        Docker(boolean busybox) {
            this.busybox = busybox;
        }

        @Override
        public Launcher decorate(Launcher launcher, Node node) {
            return new Launcher.DecoratedLauncher(launcher) {
                @Override
                public Proc launch(Launcher.ProcStarter starter) throws IOException {
                    LAUNCHES.incrementAndGet();
                    List<String> cmds = new ArrayList<>(List.of("env"));
                    for (String pair : starter.envs()) {
                        if (!pair.startsWith("PATH=") && !pair.startsWith(NODE_COOKIE + "=")) {
                            cmds.add(pair.replace("$$", "$")); // no shell: the value as it is
                        }
                    }
                    cmds.addAll(starter.cmds());
                    return getInner().launch(starter.cmds(cmds).envs(new String[0]));
                }

                @Override
                public void kill(Map<String, String> modelEnvVars) throws IOException, InterruptedException {
                    KILLS.incrementAndGet();
                    ByteArrayOutputStream baos = new ByteArrayOutputStream();
                    List<String> ps = busybox ? List.of("sh", "-c", "echo 'ps: bad -o argument' >&2; exit 1")
                            : List.of("ps", "-A", "-o", "pid,command", "e");
                    if (getInner().launch().cmds(ps).stdout(baos).quiet(true).start()
                            .joinWithTimeout(180, TimeUnit.SECONDS, getListener()) != 0) {
                        throw new IOException("failed to run ps");
                    }
                    List<String> pids = new ArrayList<>();
                    LINE:
                    for (String line : baos.toString(Charset.defaultCharset().name()).split("\n")) {
                        for (Map.Entry<String, String> entry : modelEnvVars.entrySet()) {
                            if (!line.contains(entry.getKey() + "=" + entry.getValue())) {
                                continue LINE;
                            }
                        }
                        line = line.trim();
                        int spc = line.indexOf(' ');
                        if (spc == -1) {
                            continue;
                        }
                        pids.add(line.substring(0, spc));
                    }
                    if (!pids.isEmpty()) {
                        List<String> cmds = new ArrayList<>(Arrays.asList("kill"));
                        cmds.addAll(pids);
                        if (getInner().launch().cmds(cmds).quiet(true).start().joinWithTimeout(180, TimeUnit.SECONDS, getListener()) != 0) {
                            throw new IOException("failed to run kill");
                        }
                    }
                }
            };
        }
    }

    /** A container whose {@code exec} fails (the container is gone): nothing starts in it. */
    public static final class Broken extends LauncherDecorator implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Launcher decorate(Launcher launcher, Node node) {
            return new Launcher.DecoratedLauncher(launcher) {
                @Override
                public Proc launch(Launcher.ProcStarter starter) throws IOException {
                    throw new IOException("container copilot is not running");
                }
            };
        }
    }

    /** A Windows container: commands would run with cmd.exe. */
    public static final class Windows extends LauncherDecorator implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Launcher decorate(Launcher launcher, Node node) {
            return new Launcher.DecoratedLauncher(launcher) {
                @Override
                public boolean isUnix() {
                    return false;
                }
            };
        }
    }

    /** The decorator for {@code kind}: kubernetes, docker, alpine (docker with busybox), broken or windows. */
    public static LauncherDecorator of(String kind) {
        return switch (kind) {
            case "kubernetes" -> new Kubernetes();
            case "docker" -> new Docker(false);
            case "alpine" -> new Docker(true);
            case "broken" -> new Broken();
            case "windows" -> new Windows();
            default -> throw new IllegalArgumentException(kind);
        };
    }
}
