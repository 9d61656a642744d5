package io.jenkins.plugins.copilotautopilot.soak;

/**
 * How long and how hard the soak runs, from system properties: {@code soak.minutes} (30), {@code soak.sessions}
 * (sessions at once, 20), {@code soak.agents} (3), {@code soak.faultSeconds} (the mean time between two faults, 25),
 * {@code soak.seed} (the random faults' and kinds' seed; the time by default, printed), {@code soak.diskMegabytes}
 * (each agent's workspace disk, 512), {@code soak.faults} (the kinds to inject, all by default), {@code soak.kinds} (the
 * kinds of session to run, all by default).
 */
record SoakSettings(int minutes, int sessions, int agents, int faultSeconds, long seed, int diskMegabytes, String faults,
                    String kinds) {
    static SoakSettings fromSystemProperties() {
        return new SoakSettings(Integer.getInteger("soak.minutes", 30), Integer.getInteger("soak.sessions", 20),
                Integer.getInteger("soak.agents", 3), Integer.getInteger("soak.faultSeconds", 25),
                Long.getLong("soak.seed", System.currentTimeMillis()), Integer.getInteger("soak.diskMegabytes", 512),
                System.getProperty("soak.faults", ""), System.getProperty("soak.kinds", ""));
    }

    /** Whether sessions of {@code kind} are run. */
    boolean runs(SessionKind kind) {
        return kinds.isBlank() || java.util.Arrays.asList(kinds.split(",")).contains(kind.name());
    }

    /** Whether {@code kind} is injected. */
    boolean injects(FaultKind kind) {
        return faults.isBlank() || java.util.Arrays.asList(faults.split(",")).contains(kind.name());
    }

    /** An agent's executors: enough for its share of the sessions when another agent is down. */
    int executorsPerAgent() {
        return Math.max(2, (int) Math.ceil(sessions * 1.5 / Math.max(1, agents - 1)));
    }
}
