package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real capture prepared for replay at its recorded pace: its stdout lines, when each is written (the events'
 * own timestamps, after the time the CLI took to print its first event: the capture's wall time minus the span of
 * its timestamps), and which rendered log line each stdout line causes — found by feeding the capture to a
 * follower one line per look, once, before the benchmark. A live session's n-th rendered line is then known to
 * come from a known stdout line, whose write the writer stamps.
 */
final class ReplayCapture {
    /** Every capture in {@code core/src/test/resources/captures}. */
    static final List<String> NAMES = List.of("cli-happy", "cli-nudge", "cli-never-max2", "cli-longstream", "cli-error400",
            "cli-error500", "cli-perm-allowtool-touch", "cli-perm-autopilot-noallow");
    private static final Pattern TIMESTAMP = Pattern.compile("\"timestamp\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern WALL = Pattern.compile("wall_ms=(\\d+)");

    final String name;
    /** The stdout lines, each with its line feed. */
    final byte[][] lines;
    /** When each line is written, nanoseconds after the session started. */
    final long[] dueNanos;
    final int exitCode;
    /** Per stdout line: the index of its write stamp, or -1 when it renders nothing. */
    final int[] stampIndex;
    final int stamps;
    /** Per rendered log line, in order: the write stamp it is measured from, or -1 (header, closing block). */
    final int[] renderedFrom;
    final String expectedOutcome;
    /**
     * Per stdout line: whether the CLI also keeps it in its session state ({@code session-state/<id>/events.jsonl}):
     * every event but the ephemeral ones and the final {@code result} line.
     */
    final boolean[] persisted;

    private ReplayCapture(String name, byte[][] lines, long[] dueNanos, int exitCode, int[] stampIndex, int stamps,
                          int[] renderedFrom, String expectedOutcome) {
        this.name = name;
        this.lines = lines;
        this.dueNanos = dueNanos;
        this.exitCode = exitCode;
        this.stampIndex = stampIndex;
        this.stamps = stamps;
        this.renderedFrom = renderedFrom;
        this.expectedOutcome = expectedOutcome;
        this.persisted = new boolean[lines.length];
        for (int i = 0; i < lines.length; i++) {
            String line = new String(lines[i], StandardCharsets.UTF_8);
            persisted[i] = !line.contains("\"ephemeral\":true") && !line.startsWith("{\"type\":\"result\"");
        }
    }

    /** Lines per second of session time, at this pace. */
    double linesPerSecond() {
        return lines.length * 1e9 / durationNanos();
    }

    long durationNanos() {
        return dueNanos[dueNanos.length - 1];
    }

    /**
     * @param speedup how many times faster than recorded (1: as recorded)
     * @param command a command like the sessions' (same header)
     */
    static ReplayCapture load(String name, double speedup, CliCommand command) {
        String text = Captures.stdoutText(name);
        List<byte[]> lines = new ArrayList<>();
        List<Instant> times = new ArrayList<>();
        Instant last = null;
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            Matcher m = TIMESTAMP.matcher(line);
            if (m.find()) {
                last = Instant.parse(m.group(1));
            }
            lines.add((line + "\n").getBytes(StandardCharsets.UTF_8));
            times.add(last);
        }
        Instant first = times.stream().filter(t -> t != null).findFirst().orElseThrow();
        long span = java.time.Duration.between(first, times.get(times.size() - 1)).toNanos();
        long preRoll = Math.max(0, wallMillis(name) * 1_000_000L - span);
        long[] due = new long[lines.size()];
        for (int i = 0; i < due.length; i++) {
            Instant t = times.get(i) == null ? first : times.get(i);
            due[i] = (long) ((preRoll + java.time.Duration.between(first, t).toNanos()) / speedup);
        }
        byte[][] bytes = lines.toArray(new byte[0][]);
        int exit = Captures.exitCode(name);

        // which stdout line each rendered line comes from: one line per look
        List<Integer> renderedFrom = new ArrayList<>();
        int[] current = {-1};
        SessionFollower follower = AutopilotEngine.builder(l -> renderedFrom.add(current[0])).build()
                .follow(command, Map.of(), System.currentTimeMillis());
        CliSession oneLineAtATime = new CliSession() {
            private int next;

            @Override
            public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) {
                if (next < bytes.length) {
                    current[0] = next;
                    return new SessionPoll(bytes[next++], new byte[0], null, false);
                }
                current[0] = -1;
                return new SessionPoll(new byte[0], new byte[0], exit, true);
            }

            @Override
            public void stop() {
            }

            @Override
            public void cleanup() {
            }
        };
        SessionResult result;
        try {
            SessionFollower.Tick tick;
            do {
                tick = follower.tick(oneLineAtATime);
            } while (!tick.finished());
            result = tick.result();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        int[] stampIndex = new int[bytes.length];
        Arrays.fill(stampIndex, -1);
        int stamps = 0;
        int[] from = new int[renderedFrom.size()];
        for (int r = 0; r < from.length; r++) {
            int line = renderedFrom.get(r);
            if (line >= 0 && stampIndex[line] < 0) {
                stampIndex[line] = stamps++;
            }
            from[r] = line < 0 ? -1 : stampIndex[line];
        }
        return new ReplayCapture(name, bytes, due, exit, stampIndex, stamps, from, result.outcome().name());
    }

    private static long wallMillis(String name) {
        try (InputStream in = Captures.class.getResourceAsStream("/captures/" + name + "/exit.txt")) {
            Matcher m = WALL.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
