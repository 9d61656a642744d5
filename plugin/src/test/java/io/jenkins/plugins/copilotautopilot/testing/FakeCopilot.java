package io.jenkins.plugins.copilotautopilot.testing;

import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A stand-in {@code copilot} executable for the plugin's tests: a shell script that replays a real captured
 * CLI output line by line with small delays, optionally prints extra event lines first (e.g. one that
 * echoes the token from its environment), records its arguments, and can hang in a child process until
 * killed. The plugin launches it exactly as it would launch the real CLI.
 */
public final class FakeCopilot {
    private final Path dir;
    private String capture = "cli-happy";
    private Integer exitCode;
    private final StringBuilder before = new StringBuilder();
    private String hangMarker;
    private boolean hangApart;
    private Path gate;
    private String summary;
    private String blocker;
    private final StringBuilder afterFirstTurn = new StringBuilder();
    private Path runs;
    private Path gatesPerRun;

    private FakeCopilot(Path dir) {
        this.dir = dir;
    }

    public static FakeCopilot in(Path dir) {
        return new FakeCopilot(dir);
    }

    public FakeCopilot replaying(String captureName) {
        this.capture = captureName;
        return this;
    }

    public FakeCopilot exitingWith(int code) {
        this.exitCode = code;
        return this;
    }

    /** Prints an assistant message with this shell-expanded text before the capture (e.g. "$COPILOT_GITHUB_TOKEN"). */
    public FakeCopilot sayingFirst(String shellText) {
        before.append("printf '{\"type\":\"assistant.message\",\"data\":{\"content\":\"%s\"}}\\n' \"")
                .append(shellText).append("\"\n");
        return this;
    }

    /** After the first turn starts, runs {@code sleep <marker>} in a child process and waits for it. */
    public FakeCopilot hangingWith(String sleepSeconds) {
        this.hangMarker = sleepSeconds;
        return this;
    }

    /**
     * {@link #hangingWith}, the sleep in a session and process group of its own, as the real CLI runs a shell tool: a
     * kill of the agent's process group does not reach it.
     */
    public FakeCopilot hangingApartWith(String sleepSeconds) {
        this.hangApart = true;
        return hangingWith(sleepSeconds);
    }

    /**
     * After the first turn starts, waits until the test creates {@code file} (at most two minutes), then goes on: a
     * session that holds on for as long as the test needs, whatever the machine's speed.
     */
    public FakeCopilot pausingAfterTheFirstTurnUntil(Path file) {
        this.gate = file;
        return this;
    }

    /**
     * With {@link #countingRunsIn}: after the first turn starts, the Nth run of the script waits until the test creates
     * {@code go.N} in {@code folder} (at most two minutes): each of several sessions holds on until the test lets it go.
     */
    public FakeCopilot pausingEachRunAfterTheFirstTurnUntilLetGo(Path folder) {
        this.gatesPerRun = folder;
        return this;
    }

    /** Replaces the agent's summary in the replayed capture (any text; it is JSON-escaped here). */
    public FakeCopilot withSummary(String text) {
        this.summary = text;
        return this;
    }

    /**
     * Ends the replayed capture's task with the outcome {@code blocked} and this blocker (a JSON value), as the CLI's
     * completion review reports it.
     */
    public FakeCopilot blockedBy(String blockerJson) {
        this.blocker = blockerJson;
        return this;
    }

    /**
     * After the first turn starts, the model call's usage appears in the CLI's session state, where the real CLI
     * writes it ({@code $COPILOT_HOME/session-state/<id>/events.jsonl}).
     */
    public FakeCopilot usingTokens(long input, long output) {
        afterFirstTurn.append("mkdir -p \"$COPILOT_HOME/session-state/fake\"\n")
                .append("printf '%s\\n' '{\"type\":\"session.usage_record\",\"data\":{\"usage\":{\"model\":\"fake-model\",")
                .append("\"inputTokens\":").append(input).append(",\"outputTokens\":").append(output)
                .append(",\"cost\":0}},\"id\":\"u1\",\"parentId\":\"086d0187-ca6d-4184-8b6c-72fe2e5df663\"}'")
                .append(" >> \"$COPILOT_HOME/session-state/fake/events.jsonl\"\n");
        return this;
    }

    /**
     * After the first turn starts, prints an assistant message "Looking around" 2.5 s later (longer than the plugin
     * waits between checkpoints, so that its hand-over saves one) and one with this text (no quotes or backslashes)
     * half a second after that (sooner than the next checkpoint is due).
     */
    public FakeCopilot sayingAfterTheFirstTurn(String text) {
        afterFirstTurn.append("sleep 2.5\n").append(assistantMessage("Looking around"))
                .append("sleep 0.5\n").append(assistantMessage(text));
        return this;
    }

    /**
     * After the first turn starts, prints {@code pieces} pieces of a tool's output ({@code tool.shell_output}), 50 ms
     * apart, then an assistant message with this text (no quotes or backslashes): what streams, then what a person
     * waits for.
     */
    public FakeCopilot streamingAfterTheFirstTurn(int pieces, String text) {
        afterFirstTurn.append("i=0; while [ $i -lt ").append(pieces).append(" ]; do i=$((i+1)); ")
                .append("printf '{\"type\":\"tool.shell_output\",\"data\":{\"toolCallId\":\"streamed\",\"text\":\"piece %s\"}}\\n' $i; ")
                .append("sleep 0.05; done\n").append(assistantMessage(text));
        return this;
    }

    private static String assistantMessage(String text) {
        return "printf '%s\\n' '{\"type\":\"assistant.message\",\"data\":{\"content\":\"" + text + "\"}}'\n";
    }

    /** After the first turn starts, writes this file (relative to the working directory) with this content. */
    public FakeCopilot writingFile(String relativePath, String content) {
        afterFirstTurn.append("printf '%s' ").append(quoted(content)).append(" > ").append(quoted(relativePath)).append('\n');
        return this;
    }

    private static String quoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /**
     * Counts the scripts running at once in {@code folder}: each start appends how many run (itself included) to
     * {@code counts.txt} and its job's name to {@code starts.txt}; each end takes itself out before it exits.
     */
    public FakeCopilot countingRunsIn(Path folder) {
        this.runs = folder;
        return this;
    }

    /** Where the script records its arguments, one per line. */
    public Path argsFile() {
        return dir.resolve("args.txt");
    }

    /** Where the script records its standard input (the task). */
    public Path stdinFile() {
        return dir.resolve("stdin.txt");
    }

    /** Where the script records the variables the CLI was started with, {@code NAME=value} per line. */
    public Path envFile() {
        return dir.resolve("env.txt");
    }

    /**
     * The value of {@code name} in the environment the CLI was started with, once the script has written it: the file
     * is written as the CLI starts, maybe in pieces, so it is read once it holds the line, end and all (30 s at most).
     */
    public String environment(String name) throws IOException, InterruptedException {
        java.util.regex.Pattern line = java.util.regex.Pattern.compile("(?m)^" + java.util.regex.Pattern.quote(name) + "=(.*)\n");
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (true) {
            String text = Files.exists(envFile()) ? Files.readString(envFile(), StandardCharsets.UTF_8) : "";
            java.util.regex.Matcher found = line.matcher(text);
            if (found.find()) {
                return found.group(1);
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the fake CLI wrote no " + name + " into " + envFile() + " within 30 s");
            }
            Thread.sleep(50);
        }
    }

    /** The run marker the CLI was started with ({@link #environment}). */
    public String runId() throws IOException, InterruptedException {
        return environment(io.jenkins.plugins.copilotautopilot.core.command.CliCommand.RUN_MARKER_VARIABLE);
    }

    /** Writes the script and returns its path. */
    public Path write() throws IOException {
        Files.createDirectories(dir);
        Path events = dir.resolve(capture + ".jsonl");
        String replay = Captures.stdoutText(capture);
        if (summary != null) {
            String json = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(summary);
            replay = replay.replace("\"Created hello.txt containing 'hello-from-fake-model'.\"", json);
        }
        if (blocker != null) {
            replay = replay.replace("\"success\": true}", "\"success\": false, \"outcome\": \"blocked\", \"blocker\": " + blocker + "}");
        }
        Files.writeString(events, replay, StandardCharsets.UTF_8);
        int exit = exitCode != null ? exitCode : Captures.exitCode(capture);
        StringBuilder script = new StringBuilder("#!/bin/sh\n")
                .append("for a in \"$@\"; do printf '%s\\n' \"$a\"; done > '").append(argsFile()).append("'\n")
                .append("pwd > '").append(dir.resolve("pwd.txt")).append("'\n")
                .append("cat > '").append(stdinFile()).append("'\n")
                .append("env > '").append(envFile()).append("'\n")
                .append(before);
        if (runs != null) {
            Files.createDirectories(runs.resolve("running"));
            script.append("touch '").append(runs.resolve("running")).append("'/run.$$\n")
                    .append("ls '").append(runs.resolve("running")).append("' | wc -l | tr -d ' ' >> '").append(runs.resolve("counts.txt")).append("'\n")
                    .append("printf '%s\\n' \"$JOB_NAME\" >> '").append(runs.resolve("starts.txt")).append("'\n");
        }
        if (gatesPerRun != null && runs == null) {
            throw new IllegalStateException("a gate per run needs countingRunsIn");
        }
        boolean split = hangMarker != null || gate != null || gatesPerRun != null || afterFirstTurn.length() > 0;
        if (split) {
            script.append("head -n 8 '").append(events).append("'\n")
                    .append("sleep 0.3\n") // the follower sees the turn start before what comes next
                    .append(afterFirstTurn);
        }
        if (hangMarker != null) {
            script.append(hangApart ? "setsid sleep " : "sleep ").append(hangMarker).append(" &\n")
                    .append("wait\n");
        }
        if (gate != null) {
            script.append("i=0; while [ ! -e '").append(gate).append("' ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done\n");
        }
        if (gatesPerRun != null) {
            script.append("n=$(wc -l < '").append(runs.resolve("starts.txt")).append("' | tr -d ' ')\n")
                    .append("i=0; while [ ! -e '").append(gatesPerRun).append("'/go.$n ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done\n");
        }
        script.append("tail -n +").append(split ? 9 : 1).append(" '").append(events).append("'")
                .append(" | while IFS= read -r line; do printf '%s\\n' \"$line\"; sleep 0.005; done\n");
        if (runs != null) {
            script.append("rm -f '").append(runs.resolve("running")).append("'/run.$$\n");
        }
        script.append("exit ").append(exit).append('\n');
        Path executable = dir.resolve("copilot");
        Files.writeString(executable, script, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(executable, PosixFilePermissions.fromString("rwxr-xr-x"));
        return executable;
    }
}
