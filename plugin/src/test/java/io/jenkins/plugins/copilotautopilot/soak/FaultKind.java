package io.jenkins.plugins.copilotautopilot.soak;

import java.util.Set;

/**
 * The faults the soak injects, how often each is drawn (its weight), whom it touches, and the build results it
 * explains besides what a build of its kind ends with untouched. A fault that explains nothing (a killed agent JVM
 * whose CLI runs on, a cut connection, a controller restart) must leave the results of the sessions it met running as
 * they would have been; it explains only the failure of a session it met while it was being launched.
 */
enum FaultKind {
    /** SIGKILL to one agent's JVM; its CLIs and tools run on; the agent is started again 5–20 s later. */
    AGENT_KILL_JVM(4, Target.AGENT, Set.of(), true),
    /** SIGKILL to one agent's process group: its JVM, CLIs and tools; the agent is started again 5–20 s later. */
    AGENT_KILL_GROUP(3, Target.AGENT, Set.of("FAILURE"), true),
    /** Every connection of one agent to the controller closed at once; the agent connects again by itself. */
    CHANNEL_CUT(4, Target.AGENT, Set.of(), true),
    /** The controller stopped as an administrator stops it, then started again. */
    CONTROLLER_RESTART(1, Target.CONTROLLER, Set.of(), true),
    /** SIGKILL to the controller, then started again. */
    CONTROLLER_KILL(1, Target.CONTROLLER, Set.of(), true),
    /** A running build's stop button, at a random moment of the build. */
    BUILD_ABORT(4, Target.BUILD, Set.of("ABORTED"), false),
    /** 429 with Retry-After for the next model calls, whoever makes them. */
    RATE_LIMIT_STORM(2, Target.SERVICE, Set.of("FAILURE"), false),
    /** 502/503 for the next model calls. */
    SERVER_ERRORS(2, Target.SERVICE, Set.of("FAILURE"), false),
    /** One agent's workspace disk full for a minute. */
    DISK_FULL(1, Target.AGENT, Set.of("FAILURE"), false);

    /** Whom a fault touches: the builds on one agent, every build, one build. */
    enum Target { AGENT, CONTROLLER, BUILD, SERVICE }

    final int weight;
    final Target target;
    final Set<String> explains;
    /**
     * Whether it explains a FAILURE of a session that never started its CLI: an agent or a controller lost while a
     * step launches leaves nothing to follow, for {@code sh} as for this step.
     */
    final boolean stopsALaunch;

    FaultKind(int weight, Target target, Set<String> explains, boolean stopsALaunch) {
        this.weight = weight;
        this.target = target;
        this.explains = explains;
        this.stopsALaunch = stopsALaunch;
    }
}
