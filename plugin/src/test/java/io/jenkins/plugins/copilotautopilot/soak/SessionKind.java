package io.jenkins.plugins.copilotautopilot.soak;

import java.util.Locale;

/**
 * The sessions the soak runs, each a job of its own kind: what its Pipeline (or Freestyle step) asks, the result a
 * build of it ends with when no fault touches it, and how long it may take. {@link SoakModel} answers each kind by the
 * {@code soak-kind=…} words in its prompt.
 */
enum SessionKind {
    /** One short command, then task_complete. */
    QUICK(4, "SUCCESS", 180),
    /** A tool that prints nothing for 90 s. */
    QUIET(3, "SUCCESS", 300),
    /** A tool that prints a 200-byte line a second for 60 s. */
    PRINTING(3, "SUCCESS", 240),
    /** A long answer streamed in small deltas. */
    STREAMING(2, "SUCCESS", 180),
    /** An acceptance check that fails once: the agent fixes it and completes again. */
    VERIFY_ONCE(2, "SUCCESS", 240),
    /** A call that waits for a person: the harness approves or denies it after a while. */
    APPROVAL(2, "SUCCESS", 420),
    /** A token budget that stops an agent that never completes. */
    BUDGET(2, "FAILURE", 180),
    /** A Pipeline {@code timeout} around a tool that would run for ten minutes. */
    TIMEOUT(1, "ABORTED", 180),
    /** Two sessions in {@code parallel} branches of one build. */
    PARALLEL(2, "SUCCESS", 240),
    /** A kept session: each build continues the conversation of the job's last build that kept it. */
    KEPT(2, "SUCCESS", 180),
    /** The Freestyle build step. */
    FREESTYLE(2, "SUCCESS", 180),
    /** One command in docker-workflow's {@code docker.image().inside {}}: only when a Docker engine and the image are there. */
    DOCKER(2, "SUCCESS", 240);

    static final String CREDENTIAL = "copilot-token";
    /** The tool of {@link #QUIET}. */
    static final int QUIET_SECONDS = 90;
    static final int PRINT_SECONDS = 60;
    static final int TIMEOUT_SECONDS = 45;
    static final String KEPT_SESSION = "soak-kept";
    /** The Debian image of the plugin's Docker tests (docs/testing.md, "Real Docker"). */
    static final String DOCKER_IMAGE = "copilot-debian:12";

    final int weight;
    final String expected;
    final int limitSeconds;

    /** Its sessions at once: two for the parallel kind. */
    int sessions() {
        return this == PARALLEL ? 2 : 1;
    }

    SessionKind(int weight, String expected, int limitSeconds) {
        this.weight = weight;
        this.expected = expected;
        this.limitSeconds = limitSeconds;
    }

    String tag() {
        return "soak-kind=" + name();
    }

    static SessionKind of(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    boolean freestyle() {
        return this == FREESTYLE;
    }

    /** The step's arguments for a session of {@code kind} (its prompt first), as the Pipeline writes them. */
    static String stepArguments(SessionKind kind, String extra) {
        String prompt = kind == KEPT ? "\"" + kind.tag() + " Remember code word W${env.BUILD_NUMBER}.\"" : "'" + kind.tag() + " Do the task.'";
        return "prompt: " + prompt + ", credentialsId: '" + CREDENTIAL + "', model: 'gpt-5', allowAllTools: true" + extra;
    }

    /**
     * The Pipeline of a job of this kind (not for {@link #FREESTYLE}); {@code insideArgs}: what {@link #DOCKER}'s
     * container is run with (the host's network, the CLI's folder and the soak's folder mounted at the same paths).
     */
    String pipeline(String insideArgs) {
        return switch (this) {
            case VERIFY_ONCE -> node("deleteDir()\n    copilotAutopilot " + stepArguments(this, ", verify: 'test -f fixed.txt'"));
            case APPROVAL -> node("copilotAutopilot " + stepArguments(this, ", approveTools: ['shell(touch)']"));
            case BUDGET -> node("copilotAutopilot " + stepArguments(this, ", maxTokens: 2500"));
            case TIMEOUT -> node("timeout(time: " + TIMEOUT_SECONDS + ", unit: 'SECONDS') {\n      copilotAutopilot "
                    + stepArguments(this, "") + "\n    }");
            case PARALLEL -> "parallel quick: {\n  " + node("copilotAutopilot " + stepArguments(QUICK, "")) + "\n}, printing: {\n  "
                    + node("copilotAutopilot " + stepArguments(PRINTING, "")) + "\n}\n";
            case KEPT -> node("copilotAutopilot " + stepArguments(this, ", session: '" + KEPT_SESSION + "'"));
            case DOCKER -> node("docker.image('" + DOCKER_IMAGE + "').inside('" + insideArgs + "') {\n      copilotAutopilot "
                    + stepArguments(this, "") + "\n    }");
            case FREESTYLE -> throw new IllegalStateException("a Freestyle job has no Pipeline");
            default -> node("copilotAutopilot " + stepArguments(this, ""));
        };
    }

    private static String node(String body) {
        return "node('soak') {\n    " + body + "\n}\n";
    }
}
