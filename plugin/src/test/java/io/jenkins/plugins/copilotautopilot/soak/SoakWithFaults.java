package io.jenkins.plugins.copilotautopilot.soak;

import io.jenkins.plugins.copilotautopilot.soak.ControllerSide.AgentSpec;
import io.jenkins.plugins.copilotautopilot.soak.ControllerSide.BuildFacts;
import io.jenkins.plugins.copilotautopilot.soak.ControllerSide.BuildRef;
import io.jenkins.plugins.copilotautopilot.soak.ControllerSide.BuildState;
import io.jenkins.plugins.copilotautopilot.soak.ControllerSide.Waiting;
import io.jenkins.plugins.copilotautopilot.testing.CuttableRelay;
import io.jenkins.plugins.copilotautopilot.testing.InboundAgentProcess;
import io.jenkins.plugins.copilotautopilot.testing.ProcStat;

import io.jenkins.plugins.copilotautopilot.core.testing.GithubStandIn;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.jvnet.hudson.test.junit.jupiter.RealJenkinsExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The soak: a real controller in a JVM of its own, three inbound agents in JVMs of their own, and Pipeline and
 * Freestyle jobs of every {@link SessionKind} started so that {@code soak.sessions} sessions run at once for
 * {@code soak.minutes}, against the real Copilot CLI and the GitHub stand-in on 127.0.0.1, while {@link FaultInjector}
 * kills agents, cuts their connections, restarts and kills the controller, aborts builds, makes the service refuse and
 * fills an agent's disk. Each ended build's invariants are checked at once ({@link BuildInvariants}, nothing left in its
 * workspace), the run's at its end (nothing left on any machine, no file holding the token, the usage index's totals,
 * no SEVERE in the controller's log); {@code target/soak/soak-report.md} says what ran, what was injected and what broke.
 * Not part of the default suite: {@code mvn -pl plugin test -Psoak} (docs/reliability.md).
 */
class SoakWithFaults {
    private static final SoakSettings SETTINGS = SoakSettings.fromSystemProperties();
    private static final Path DIR = Path.of("target", "soak").toAbsolutePath();
    private static final int PORT = freePort();
    /** Jobs of each kind: a kind's builds run one at a time per job, so that a job's workspace is its build's. */
    private static final int JOBS_PER_KIND = 3;

    @RegisterExtension
    private final RealJenkinsExtension rr = new RealJenkinsExtension()
            .withTimeout((SETTINGS.minutes() + 40) * 60)
            .withPort(PORT)
            .withHttpListenAddress("127.0.0.1")
            .javaOptions("-Xmx1g", "-Djava.util.logging.config.file=" + DIR.resolve("logging.properties"),
                    // how long a node block waits for its agent after a restart: what users have (five minutes), not the
                    // 15 s Jenkins gives unit tests
                    "-Dorg.jenkinsci.plugins.workflow.support.pickles.ExecutorPickle.timeoutForNodeMillis=300000");

    private static final int REMOTE_SECONDS = 120;
    private final java.util.concurrent.ExecutorService calls = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "soak-controller-call");
        t.setDaemon(true);
        return t;
    });
    private final Random random = new Random(SETTINGS.seed());
    private final ReentrantReadWriteLock controllerLock = new ReentrantReadWriteLock(true);
    private final List<Ticket> tickets = Collections.synchronizedList(new ArrayList<>());
    private final List<Violation> violations = Collections.synchronizedList(new ArrayList<>());
    private final List<SoakReport.Sample> samples = new ArrayList<>();
    private final List<String> harnessErrors = Collections.synchronizedList(new ArrayList<>());
    private final List<InboundAgentProcess> agents = new ArrayList<>();
    private final Map<Long, Long> controllerCpu = new LinkedHashMap<>();
    private volatile boolean scheduling = true;
    /** The kinds this run starts: {@link SessionKind#DOCKER} only when a Docker engine has its image. */
    private List<SessionKind> kinds = List.of();
    private FaultInjector faults;

    @Test
    void manySessionsWhileAgentsDieTheControllerRestartsAndTheServiceFails() throws Throwable {
        prepareFolder();
        say("soak: " + SETTINGS + "; Jenkins on 127.0.0.1:" + PORT + "; report in " + DIR.resolve("soak-report.md"));
        long began = System.currentTimeMillis();
        try (GithubStandIn service = GithubStandIn.start(new SoakModel()).keepingNoRequests()) {
            rr.startJenkins();
            setUp(service);
            faults = new FaultInjector(SETTINGS, random, agents, service, new FaultInjector.Controller() {
                @Override
                public void restart(boolean forcibly) throws Exception {
                    restartController(forcibly);
                }

                @Override
                public String abortOne(Random r) throws Exception {
                    try {
                        return abortOneBuild(r);
                    } catch (Exception | Error e) {
                        throw e;
                    } catch (Throwable e) {
                        throw new Exception(e);
                    }
                }
            }, () -> scheduling, this::say);
            Thread injector = new Thread(faults, "soak-faults");
            injector.start();
            long deadline = began + TimeUnit.MINUTES.toMillis(SETTINGS.minutes());
            while (System.currentTimeMillis() < deadline) {
                step(true);
                Thread.sleep(1_000);
            }
            scheduling = false;
            faults.stop();
            injector.join();
            say("no new builds: waiting for " + active().size() + " to end");
            while (!active().isEmpty() || tickets.stream().anyMatch(t -> t.state == Ticket.State.ENDED)) {
                step(false);
                Thread.sleep(1_000);
            }
            runInvariants();
            rr.stopJenkins();
            stoppedInvariants();
        } finally {
            for (InboundAgentProcess a : agents) {
                try {
                    a.close();
                } catch (Exception e) {
                    say("could not close " + a.name + ": " + e);
                }
            }
            List<FaultEvent> injected = faults == null ? List.of() : faults.log();
            new SoakReport(SETTINGS, began, System.currentTimeMillis(), tickets, injected, violations, samples, harnessErrors)
                    .write(DIR);
            say("report: " + DIR.resolve("soak-report.md"));
        }
        assertEquals(List.of(), violations, "the soak's invariants (" + DIR.resolve("soak-report.md") + ")");
    }

    // ---- setting up ----

    private void prepareFolder() throws IOException {
        if (Files.exists(DIR)) {
            try (var old = Files.walk(DIR)) {
                for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    if (!p.equals(DIR) && !p.startsWith(DIR.resolve("agents"))) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
        Files.createDirectories(DIR);
        Files.writeString(DIR.resolve("logging.properties"), String.join("\n",
                "handlers=java.util.logging.ConsoleHandler,java.util.logging.FileHandler",
                ".level=INFO",
                "java.util.logging.ConsoleHandler.level=WARNING",
                "java.util.logging.FileHandler.pattern=" + DIR.resolve("controller-%g.log"),
                "java.util.logging.FileHandler.limit=50000000",
                "java.util.logging.FileHandler.count=5",
                "java.util.logging.FileHandler.append=true",
                "java.util.logging.FileHandler.level=WARNING",
                "java.util.logging.FileHandler.formatter=java.util.logging.SimpleFormatter",
                "java.util.logging.SimpleFormatter.format=%1$tFT%1$tT.%1$tL%1$tz %4$s %3$s %5$s%6$s%n", ""));
    }

    private void setUp(GithubStandIn service) throws Throwable {
        Path agentJar = DIR.resolve("agent.jar");
        try (InputStream in = new URL(rr.getUrl(), "jnlpJars/agent.jar").openStream()) {
            Files.copy(in, agentJar, StandardCopyOption.REPLACE_EXISTING);
        }
        ArrayList<AgentSpec> specs = new ArrayList<>();
        for (int i = 1; i <= SETTINGS.agents(); i++) {
            String name = "soak-" + i;
            Path root = DIR.resolve("agents").resolve(name);
            if (Files.isDirectory(root.resolve("workspace"))) {
                new ProcessBuilder("umount", "-l", root.resolve("workspace").toString()).start().waitFor(30, TimeUnit.SECONDS);
            }
            deleteTree(root);
            Files.createDirectories(root);
            InboundAgentProcess agent = new InboundAgentProcess(name, root, agentJar, CuttableRelay.to(PORT), rr.getUrl().getPath());
            agent.mountWorkspace(SETTINGS.diskMegabytes());
            agents.add(agent);
            Map<String, String> variables = new LinkedHashMap<>(service.variables(DIR.resolve("cache-" + name)));
            variables.put("COPILOT_CLI", TestCli.executable().path());
            specs.add(new AgentSpec(name, root.toString(), SETTINGS.executorsPerAgent(), variables));
        }
        String token = GithubStandIn.TOKEN;
        int jobsPerKind = JOBS_PER_KIND;
        kinds = new ArrayList<>(java.util.Arrays.stream(SessionKind.values()).filter(SETTINGS::runs).toList());
        String noDocker = "";
        if (kinds.contains(SessionKind.DOCKER) && !dockerIsThere()) {
            kinds.remove(SessionKind.DOCKER);
            noDocker = " (no DOCKER: no Docker engine with the image " + SessionKind.DOCKER_IMAGE + ", see docs/testing.md, \"Real Docker\")";
        }
        say("kinds: " + kinds + noDocker);
        ArrayList<SessionKind> jobKinds = new ArrayList<>(kinds);
        String insideArgs = insideArgs();
        Map<String, String> secrets = remote(r -> new LinkedHashMap<>(ControllerSide.setUp(token, specs, jobsPerKind, jobKinds, insideArgs)));
        for (InboundAgentProcess a : agents) {
            a.secret(secrets.get(a.name));
            a.start();
        }
        ArrayList<String> names = new ArrayList<>(agents.stream().map(a -> a.name).toList());
        long until = System.currentTimeMillis() + 120_000;
        while (!remote(r -> ControllerSide.online(names))) {
            if (System.currentTimeMillis() > until) {
                throw new AssertionError("the agents did not come online within 2 minutes: see " + DIR.resolve("agents"));
            }
            Thread.sleep(500);
        }
        checkTheLogIsRead();
        remote(r -> {
            ProductionTimeouts.asUsersHaveThem();
            return Boolean.TRUE;
        });
        ProductionTimeouts.atEveryStart(rr.getHome().toPath());
        checkTimeoutsAreUsers();
        say("controller and " + agents.size() + " agents up");
    }

    /** Whether a Docker engine answers and has the image of {@link SessionKind#DOCKER}. */
    private static boolean dockerIsThere() {
        try {
            Process p = new ProcessBuilder("docker", "image", "inspect", SessionKind.DOCKER_IMAGE).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The host's network; the CLI's folder and the soak's (the agents' CLI caches), and the unpacked CLI those caches
     * link to, at the same paths in the container.
     */
    private static String insideArgs() throws IOException {
        String cli = TestCli.executable().path().toString();
        String folder = cli.contains("/node_modules/") ? cli.substring(0, cli.indexOf("/node_modules/")) : Path.of(cli).getParent().toString();
        StringBuilder args = new StringBuilder("--network host -v " + folder + ":" + folder + ":ro -v " + DIR + ":" + DIR);
        Path pkg = DIR.resolve("cache-soak-1").resolve("copilot").resolve("pkg");
        if (Files.isSymbolicLink(pkg)) {
            Path unpacked = pkg.toRealPath();
            args.append(" -v ").append(unpacked).append(':').append(unpacked);
        }
        return args.toString();
    }

    /** A {@code timeout}'s body gets the minute users' controllers give it ({@link ProductionTimeouts}). */
    private void checkTimeoutsAreUsers() throws Throwable {
        long grace = remote(r -> ProductionTimeouts.graceMillis());
        if (grace != ProductionTimeouts.USERS_GRACE_MILLIS) {
            throw new AssertionError("the controller gives a timeout's body " + grace + " ms once its time is up, users' "
                    + ProductionTimeouts.USERS_GRACE_MILLIS + " ms: the timeout builds would be judged by other rules");
        }
    }

    /** The SEVERE check reads the controller's log file: a WARNING logged on purpose must be found there. */
    private void checkTheLogIsRead() throws Throwable {
        String probe = "soak: the harness reads this log " + System.nanoTime();
        remote(r -> {
            java.util.logging.Logger.getLogger(SoakWithFaults.class.getName()).warning(probe);
            return Boolean.TRUE;
        });
        long until = System.currentTimeMillis() + 10_000;
        while (RunChecks.entries(DIR).stream().noneMatch(e -> e.text().contains(probe))) {
            if (System.currentTimeMillis() > until) {
                throw new AssertionError("the controller's log does not reach " + DIR + "/controller-*.log: the SEVERE check would see nothing");
            }
            Thread.sleep(200);
        }
    }

    // ---- the loop ----

    /** One look at every build: their states, ends, leftovers, hangs, approvals; then new builds if {@code start}. */
    private void step(boolean start) {
        try {
            follow();
            decideApprovals();
            if (start && scheduling) {
                startBuilds();
            }
            sample();
        } catch (Throwable e) {
            harnessErrors.add(Instant.now() + " " + e);
            say("harness: " + e);
        }
    }

    private List<Ticket> active() {
        synchronized (tickets) {
            return tickets.stream().filter(Ticket::active).toList();
        }
    }

    private void follow() throws Throwable {
        ArrayList<BuildRef> refs = new ArrayList<>(active().stream().map(t -> t.ref).toList());
        if (!refs.isEmpty()) {
            List<BuildState> states = remote(r -> ControllerSide.states(refs));
            for (BuildState s : states) {
                Ticket t = ticket(s.ref());
                if ("RUNNING".equals(s.state()) && t.state == Ticket.State.QUEUED) {
                    t.state = Ticket.State.RUNNING;
                } else if ("ENDED".equals(s.state())) {
                    ended(t);
                } else if ("NO_EXECUTION".equals(s.state())) {
                    harnessErrors.add(Instant.now() + " " + t.ref + " has no Pipeline execution: the controller was killed as it started ("
                            + lastFault(t) + "); Jenkins shows it running for ever, and nothing stops it");
                    t.state = Ticket.State.CLEAN;
                } else if ("GONE".equals(s.state()) && System.currentTimeMillis() - t.startedAt > 60_000 && controllerStoppedSince(t)) {
                    // scheduled, then forgotten by a controller killed before it saved its queue, or a Freestyle build
                    // the controller's stop or kill ended unsaved: no build to check (a build slow to leave the queue for
                    // its executor is waited for: the no-hang limit covers it)
                    harnessErrors.add(Instant.now() + " " + t.ref + " gone after the controller was stopped or killed: a queue item it"
                            + " forgot, or a Freestyle build, which does not survive either (" + lastFault(t) + ")");
                    t.lostWithController = true;
                    t.state = Ticket.State.CLEAN;
                }
            }
        }
        long now = System.currentTimeMillis();
        for (Ticket t : active()) {
            long limit = t.startedAt + TimeUnit.SECONDS.toMillis(t.kind.limitSeconds + 120 + faultAllowance(t));
            if (now > limit && t.abortedAt == 0) {
                BuildRef ref = t.ref;
                // after a fault, a Pipeline may never go on for reasons the step cannot help: Jenkins' program lost its
                // place (workflow-cps) after a controller stop or kill, or another plugin's step holds it (docker-workflow's
                // container start, or its `sh`, whose process died with its agent: durable-task calls that only after two
                // heartbeat checks five minutes apart); told apart by what the program still runs
                String heldUp = remote(r -> ControllerSide.heldUpByThePipeline(ref));
                if (heldUp != null) {
                    harnessErrors.add(Instant.now() + " " + t.ref + " did not go on after " + lastFault(t)
                            + ", with no copilotAutopilot step running: " + heldUp + "; aborted by the harness");
                    t.heldUpByThePipeline = true;
                } else {
                    violations.add(new Violation("no hang", t.ref.toString(), lastFault(t), "still running after "
                            + (now - t.startedAt) / 1000 + " s (limit " + (limit - t.startedAt) / 1000 + " s): aborted by the harness"));
                }
                t.abortedAt = now;
                remote(r -> ControllerSide.abort(ref));
            } else if (t.abortedAt > 0 && now > t.abortedAt + 360_000) {
                harnessErrors.add(Instant.now() + " " + t.ref + " could not be stopped in 6 minutes; no longer waited for");
                t.state = Ticket.State.CLEAN;
            } else if (t.abortedAt > 0 && now > t.abortedAt + 60_000) {
                BuildRef ref = t.ref;
                remote(r -> {
                    ControllerSide.kill(ref);
                    return Boolean.TRUE;
                });
            }
        }
        for (Ticket t : tickets.stream().filter(t -> t.state == Ticket.State.ENDED).toList()) {
            checkLeftovers(t);
        }
    }

    /** Seconds a build may take longer for the faults it met: a minute and each fault's length, five minutes at most. */
    private long faultAllowance(Ticket t) {
        long end = t.endedAt == 0 ? Long.MAX_VALUE : t.endedAt;
        return Math.min(300, faults.log().stream().filter(f -> f.atMillis() >= t.startedAt && f.atMillis() <= end)
                .mapToLong(f -> 60 + Math.min(300, (f.endMillis() - f.atMillis()) / 1000)).sum());
    }

    private void ended(Ticket t) throws Throwable {
        BuildRef ref = t.ref;
        BuildFacts facts = remote(r -> ControllerSide.facts(ref));
        t.facts = facts;
        t.endedAt = System.currentTimeMillis();
        t.state = Ticket.State.ENDED;
        List<Violation> found = new ArrayList<>(BuildInvariants.check(t.kind, facts, faults.log()));
        if (t.heldUpByThePipeline) {
            // the harness's abort, and the steps' nodes a program that lost its place lost with it, told as such
            found.removeIf(v -> v.invariant().equals("result explained") || v.invariant().equals("a session's lines in the console"));
        }
        if (t.kind == SessionKind.KEPT) {
            found.addAll(BuildInvariants.keptConversation(facts, lastFault(t), n -> earlierFacts(ref.job(), n)));
        }
        if (!found.isEmpty() || t.abortedAt > 0) {
            keepConsole(t); // a build the harness had to abort (no hang) is evidence too
            violations.addAll(found);
        }
        say("ended " + ref + " " + facts.result() + " (" + t.kind + ", " + facts.durationMillis() / 1000 + " s on " + facts.agents() + ")");
    }

    /** How an earlier build of a job ended, as the harness saw it; null when it did not. */
    private BuildFacts earlierFacts(String job, int number) {
        synchronized (tickets) {
            return tickets.stream().filter(t -> t.ref.job().equals(job) && t.ref.number() == number && !t.superseded).map(t -> t.facts)
                    .filter(java.util.Objects::nonNull).findFirst().orElse(null);
        }
    }

    /** The console of a build with a violation, kept beside the report as evidence. */
    private void keepConsole(Ticket t) throws IOException {
        Path builds = Files.createDirectories(DIR.resolve("builds"));
        Files.write(builds.resolve(t.ref.job() + "-" + t.ref.number() + ".log"), t.facts.console());
    }

    /** An ended build's workspaces hold no process and no session folder, within a bounded time. */
    private void checkLeftovers(Ticket t) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (InboundAgentProcess a : agents) {
            dirs.add(a.workspace().resolve(t.ref.job()));
            dirs.add(a.workspace().resolve(t.ref.job() + "@tmp"));
        }
        List<String> processes = Leftovers.processesIn(dirs);
        List<Path> folders = new ArrayList<>();
        for (InboundAgentProcess a : agents) {
            Path tmp = a.workspace().resolve(t.ref.job() + "@tmp");
            if (Files.isDirectory(tmp)) {
                try (var inside = Files.list(tmp)) {
                    // a folder an earlier build left is that build's (reported once, at its end), not this one's; an sh
                    // step's control folder (docker-workflow's) is not a session's: noted at the run's end
                    inside.filter(p -> p.getFileName().toString().startsWith("copilot-autopilot-"))
                            .filter(p -> madeSince(p, t.startedAt - 5_000)).forEach(folders::add);
                }
            }
        }
        if (processes.isEmpty() && folders.isEmpty()) {
            t.state = Ticket.State.CLEAN;
            return;
        }
        // an agent that was down deletes late: the controller asks again every 15 s once it is back
        long allowed = 90_000 + faultAllowance(t) * 1000;
        if (System.currentTimeMillis() > t.endedAt + allowed) {
            violations.add(new Violation("nothing left in the workspace", t.ref.toString(), lastFault(t),
                    (allowed / 1000) + " s after the end: processes " + processes + ", folders " + Leftovers.described(folders)));
            keepConsole(t);
            Leftovers.keep(folders, DIR.resolve("leftovers").resolve(t.ref.job() + "-" + t.ref.number()));
            t.state = Ticket.State.CLEAN;
        }
    }

    private static boolean madeSince(Path p, long millis) {
        try {
            return Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class).lastModifiedTime().toMillis() >= millis;
        } catch (IOException e) {
            return false; // gone meanwhile
        }
    }

    private void decideApprovals() throws Throwable {
        ArrayList<BuildRef> running = new ArrayList<>(active().stream().filter(t -> t.kind == SessionKind.APPROVAL && t.state == Ticket.State.RUNNING)
                .map(t -> t.ref).toList());
        if (running.isEmpty()) {
            return;
        }
        List<Waiting> waiting = remote(r -> ControllerSide.waiting(running));
        long now = System.currentTimeMillis();
        for (Waiting w : waiting) {
            Ticket t = ticket(w.ref());
            long at = t.decideAt.computeIfAbsent(w.callId(), id -> now + 2_000 + random.nextInt(25_000));
            if (now >= at) {
                boolean approve = random.nextInt(5) > 0;
                remote(r -> ControllerSide.decide(w, approve));
                t.decideAt.put(w.callId(), Long.MAX_VALUE);
            }
        }
    }

    private void startBuilds() throws Throwable {
        int running = active().stream().mapToInt(Ticket::sessions).sum();
        while (running < SETTINGS.sessions()) {
            SessionKind kind = drawKind();
            List<String> free = new ArrayList<>();
            for (int i = 1; i <= JOBS_PER_KIND; i++) {
                String job = ControllerSide.jobName(kind, i);
                if (tickets.stream().noneMatch(t -> t.ref.job().equals(job) && t.state != Ticket.State.CLEAN)) {
                    free.add(job);
                }
            }
            if (free.isEmpty()) {
                return;
            }
            String job = free.get(random.nextInt(free.size()));
            BuildRef ref = remote(r -> ControllerSide.start(job));
            Ticket t = new Ticket(ref, kind, System.currentTimeMillis());
            synchronized (tickets) {
                for (Ticket before : tickets) {
                    if (before.ref.equals(ref) && !before.superseded) {
                        // a number Jenkins handed out again: the build it was first given went with a killed controller
                        // before the job's next number was saved
                        before.superseded = true;
                        harnessErrors.add(Instant.now() + " " + ref + " given again to a new build: the first went with the controller ("
                                + lastFault(before) + ")");
                    }
                }
                tickets.add(t);
            }
            running += t.sessions();
        }
    }

    private SessionKind drawKind() {
        int total = 0;
        for (SessionKind k : kinds) {
            total += k.weight;
        }
        int pick = random.nextInt(total);
        for (SessionKind k : kinds) {
            pick -= k.weight;
            if (pick < 0) {
                return k;
            }
        }
        throw new IllegalStateException();
    }

    private long lastSample;

    private void sample() throws Throwable {
        long now = System.currentTimeMillis();
        if (now - lastSample < 10_000) {
            return;
        }
        lastSample = now;
        long[] heap = remote(r -> ControllerSide.heap());
        long pid = rr.getProcess().pid();
        try {
            controllerCpu.put(pid, ProcStat.cpuMillis(String.valueOf(pid)));
        } catch (IOException e) {
            // it is being restarted
        }
        long cpu = controllerCpu.values().stream().mapToLong(Long::longValue).sum();
        int sessions = active().stream().filter(t -> t.state == Ticket.State.RUNNING).mapToInt(Ticket::sessions).sum();
        samples.add(new SoakReport.Sample(now, cpu, heap[0], heap[1], sessions, ProcStat.loadAverage()));
    }

    // ---- faults that need the controller ----

    private void restartController(boolean forcibly) throws Exception {
        controllerLock.writeLock().lock();
        try {
            if (forcibly) {
                rr.stopJenkinsForcibly();
            } else {
                rr.stopJenkins();
            }
            // the test harness's start has failed once in a run (Jetty could not start): as a service manager would, try again
            for (int attempt = 1; ; attempt++) {
                try {
                    rr.startJenkins();
                    break;
                } catch (Exception e) {
                    harnessErrors.add(Instant.now() + " the controller did not start (attempt " + attempt + "): " + e);
                    if (attempt == 3) {
                        throw e;
                    }
                }
            }
            checkTimeoutsAreUsers();
        } catch (Throwable e) {
            throw new Exception("the controller's restart failed", e);
        } finally {
            controllerLock.writeLock().unlock();
        }
    }

    private String abortOneBuild(Random r) throws Throwable {
        List<Ticket> running = active().stream().filter(t -> t.state == Ticket.State.RUNNING).toList();
        if (running.isEmpty()) {
            return null;
        }
        Ticket t = running.get(r.nextInt(running.size()));
        BuildRef ref = t.ref;
        return remote(x -> ControllerSide.abort(ref)) ? ref.toString() : null;
    }

    // ---- the run's invariants ----

    /** With the controller and the agents up: no session process and no session folder anywhere. */
    private void runInvariants() throws Exception {
        long until = System.currentTimeMillis() + 120_000;
        List<String> processes;
        List<Path> folders;
        do {
            processes = Leftovers.processes(DIR); // this run's: other tests on the machine may run sessions of their own
            folders = new ArrayList<>();
            for (InboundAgentProcess a : agents) {
                folders.addAll(Leftovers.sessionFolders(a.workspace()));
            }
            if (processes.isEmpty() && folders.isEmpty()) {
                break;
            }
            Thread.sleep(1_000);
        } while (System.currentTimeMillis() < until);
        if (!processes.isEmpty()) {
            violations.add(new Violation("no process left", "the run", lastFault(), "2 minutes after the last build: " + processes));
        }
        if (!folders.isEmpty()) {
            violations.add(new Violation("no session folder left", "the run", lastFault(), "2 minutes after the last build: " + Leftovers.described(folders)));
            Leftovers.keep(folders, DIR.resolve("leftovers").resolve("the-run"));
        }
        List<Path> shFolders = new ArrayList<>();
        for (InboundAgentProcess a : agents) {
            shFolders.addAll(Leftovers.shStepFolders(a.workspace()));
        }
        if (!shFolders.isEmpty()) {
            harnessErrors.add(Instant.now() + " sh steps' control folders left (docker-workflow runs docker through sh; a launch"
                    + " its agent's connection cut short leaves its script): " + Leftovers.described(shFolders));
        }
        if (kinds.contains(SessionKind.DOCKER)) {
            removeContainers();
        }
    }

    /**
     * Containers docker-workflow left (a build that never came back to end its {@code inside}): noted and removed. What
     * ran in them is judged above, as every process of the run.
     */
    private void removeContainers() throws Exception {
        Process ps = new ProcessBuilder("docker", "ps", "-aq", "--filter", "ancestor=" + SessionKind.DOCKER_IMAGE).start();
        List<String> left = new String(ps.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                .filter(l -> !l.isBlank()).toList();
        ps.waitFor(30, TimeUnit.SECONDS);
        if (!left.isEmpty()) {
            harnessErrors.add("containers docker-workflow left, removed: " + left);
            List<String> rm = new ArrayList<>(List.of("docker", "rm", "-f"));
            rm.addAll(left);
            new ProcessBuilder(rm).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(60, TimeUnit.SECONDS);
        }
    }

    /** With the controller stopped: no file holds the token; the usage index's totals; no SEVERE in its log. */
    private void stoppedInvariants() throws IOException {
        List<Path> holding = new ArrayList<>();
        for (InboundAgentProcess a : agents) {
            holding.addAll(Leftovers.filesHolding(a.root, GithubStandIn.TOKEN));
        }
        for (int i = 1; i <= agents.size(); i++) {
            holding.addAll(Leftovers.filesHolding(DIR.resolve("cache-soak-" + i), GithubStandIn.TOKEN));
        }
        holding.addAll(Leftovers.filesHolding(rr.getHome().toPath(), GithubStandIn.TOKEN));
        if (!holding.isEmpty()) {
            violations.add(new Violation("no file holds the token", "the run", lastFault(), holding.toString()));
        }
        List<String> setApart = new ArrayList<>();
        violations.addAll(RunChecks.usage(rr.getHome().toPath(), tickets, lastFault(), setApart));
        setApart.forEach(s -> harnessErrors.add("usage counted apart: " + s));
        violations.addAll(RunChecks.severe(DIR, faults.log()));
    }

    // ---- helpers ----

    /**
     * A call into the controller, bounded in time: an answer that never comes (seen once, on a controller that had
     * served every call before) fails this call, not the harness; the call is left to end on its own.
     */
    private <T extends java.io.Serializable> T remote(RealJenkinsExtension.Step2<T> step) throws Throwable {
        controllerLock.readLock().lock();
        try {
            java.util.concurrent.Future<T> call = calls.submit(() -> {
                try {
                    return rr.runRemotely(step);
                } catch (Exception | Error e) {
                    throw e;
                } catch (Throwable e) {
                    throw new java.util.concurrent.ExecutionException(e);
                }
            });
            try {
                return call.get(REMOTE_SECONDS, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause();
            } catch (java.util.concurrent.TimeoutException e) {
                throw new IOException("the controller did not answer a call of the harness within " + REMOTE_SECONDS + " s");
            }
        } finally {
            controllerLock.readLock().unlock();
        }
    }

    private Ticket ticket(BuildRef ref) {
        synchronized (tickets) {
            return tickets.stream().filter(t -> t.ref.equals(ref) && !t.superseded).findFirst().orElseThrow();
        }
    }

    /** Whether the controller was stopped or killed after the build was scheduled. */
    private boolean controllerStoppedSince(Ticket t) {
        return faults.log().stream().anyMatch(f -> (f.kind() == FaultKind.CONTROLLER_KILL || f.kind() == FaultKind.CONTROLLER_RESTART)
                && f.endMillis() >= t.startedAt);
    }

    private String lastFault(Ticket t) {
        long end = t.endedAt == 0 ? System.currentTimeMillis() : t.endedAt;
        return faults.log().stream().filter(f -> f.during(t.startedAt, end)).reduce((a, b) -> b).map(FaultEvent::toString).orElse("none");
    }

    private String lastFault() {
        List<FaultEvent> log = faults.log();
        return log.isEmpty() ? "none" : log.get(log.size() - 1).toString();
    }

    private void say(String line) {
        System.out.println("[soak " + Instant.now().toString().substring(11, 19) + "] " + line);
    }

    private static void deleteTree(Path root) throws IOException {
        if (Files.exists(root)) {
            try (var paths = Files.walk(root)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
