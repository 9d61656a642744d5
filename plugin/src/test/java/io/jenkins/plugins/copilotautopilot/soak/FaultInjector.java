package io.jenkins.plugins.copilotautopilot.soak;

import io.jenkins.plugins.copilotautopilot.testing.InboundAgentProcess;


import io.jenkins.plugins.copilotautopilot.core.testing.GithubStandIn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Injects one fault at a time, at random (exponentially distributed gaps of {@code soak.faultSeconds} on average), and
 * logs each with its time. Faults with a duration (a killed agent started again, a full disk freed, a restarted
 * controller) end before the next one starts.
 */
final class FaultInjector implements Runnable {
    /** What the injector acts on: the controller and the running builds. */
    interface Controller {
        void restart(boolean forcibly) throws Exception;

        /** Aborts one of the running builds at random; its name, or null when none runs. */
        String abortOne(Random random) throws Exception;
    }

    private final SoakSettings settings;
    private final Random random;
    private final List<InboundAgentProcess> agents;
    private final GithubStandIn service;
    private final Controller controller;
    private final List<FaultEvent> log = new CopyOnWriteArrayList<>();
    private final Consumer<String> say;
    private final Supplier<Boolean> running;
    private volatile boolean stop;
    private volatile FaultEvent underWay;

    FaultInjector(SoakSettings settings, Random random, List<InboundAgentProcess> agents, GithubStandIn service, Controller controller,
                  Supplier<Boolean> running, Consumer<String> say) {
        this.settings = settings;
        this.random = random;
        this.agents = agents;
        this.service = service;
        this.controller = controller;
        this.running = running;
        this.say = say;
    }

    /** The faults so far, the one under way (its end not yet known) last. */
    List<FaultEvent> log() {
        FaultEvent now = underWay;
        if (now == null) {
            return List.copyOf(log);
        }
        List<FaultEvent> all = new ArrayList<>(log);
        all.add(now);
        return all;
    }

    /** A fault with a duration is known from its start: builds that end while it lasts are judged with it. */
    private void begin(FaultKind kind, String target, long at, String what) {
        underWay = new FaultEvent(kind, target, at, FaultEvent.UNDER_WAY, what + " (under way)");
    }

    /** Injects no more; the fault under way ends first. */
    void stop() {
        stop = true;
    }

    @Override
    public void run() {
        while (!stop && running.get()) {
            long gap = (long) (-Math.log(1 - random.nextDouble()) * settings.faultSeconds() * 1000);
            if (!sleep(Math.max(3_000, gap))) {
                return;
            }
            if (stop) {
                return;
            }
            FaultKind kind = draw();
            try {
                FaultEvent event = inject(kind);
                if (event != null) {
                    log.add(event);
                    say.accept("fault " + log.size() + ": " + event);
                }
            } catch (Exception e) {
                say.accept("fault " + kind + " could not be injected: " + e);
                log.add(new FaultEvent(kind, "?", System.currentTimeMillis(), System.currentTimeMillis(), "NOT INJECTED: " + e));
            } finally {
                underWay = null;
            }
        }
    }

    private FaultKind draw() {
        List<FaultKind> kinds = new ArrayList<>();
        for (FaultKind k : FaultKind.values()) {
            if (settings.injects(k)) {
                for (int i = 0; i < k.weight; i++) {
                    kinds.add(k);
                }
            }
        }
        return kinds.get(random.nextInt(kinds.size()));
    }

    private FaultEvent inject(FaultKind kind) throws Exception {
        long at = System.currentTimeMillis();
        InboundAgentProcess agent = agents.get(random.nextInt(agents.size()));
        switch (kind) {
            case AGENT_KILL_JVM, AGENT_KILL_GROUP -> {
                begin(kind, agent.name, at, "killed");
                if (kind == FaultKind.AGENT_KILL_JVM) {
                    agent.killJvm();
                } else {
                    agent.killWithItsProcesses();
                }
                int down = 5 + random.nextInt(16);
                sleep(down * 1000L);
                agent.start();
                return new FaultEvent(kind, agent.name, at, System.currentTimeMillis(), "down " + down + " s, started again");
            }
            case CHANNEL_CUT -> {
                int cut = agent.cut();
                return new FaultEvent(kind, agent.name, at, at, cut + " connection(s) closed");
            }
            case CONTROLLER_RESTART, CONTROLLER_KILL -> {
                begin(kind, "controller", at, "stopped");
                controller.restart(kind == FaultKind.CONTROLLER_KILL);
                return new FaultEvent(kind, "controller", at, System.currentTimeMillis(), "up again at "
                        + Instant.ofEpochMilli(System.currentTimeMillis()));
            }
            case BUILD_ABORT -> {
                String build = controller.abortOne(random);
                return build == null ? null : new FaultEvent(kind, build, at, at, "stop button");
            }
            case RATE_LIMIT_STORM -> {
                int calls = 5 + random.nextInt(16);
                service.rateLimited(calls, 1 + random.nextInt(3));
                return new FaultEvent(kind, "service", at, at + 120_000, "429 for the next " + calls + " model calls");
            }
            case SERVER_ERRORS -> {
                int calls = 3 + random.nextInt(10);
                int status = random.nextBoolean() ? 502 : 503;
                service.serverError(status, calls);
                return new FaultEvent(kind, "service", at, at + 120_000, status + " for the next " + calls + " model calls");
            }
            case DISK_FULL -> {
                begin(kind, agent.name, at, "filling the disk");
                agent.fillDisk();
                sleep(60_000);
                agent.freeDisk();
                return new FaultEvent(kind, agent.name, at, System.currentTimeMillis(), "workspace disk full for 60 s");
            }
            default -> throw new IllegalStateException(kind.name());
        }
    }

    private static boolean sleep(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
