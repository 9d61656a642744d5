package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CLI behind a wrapper that notes when it starts and when it has ended, so that a session's process time splits
 * into before the CLI, the CLI itself and after it: the wrapper (bash 5) appends {@code $EPOCHREALTIME} to a file, a
 * variable of bash's own, so no process is started for a stamp; it runs the CLI as its child and exits with its exit
 * code. Starting the wrapper itself (bash, a few ms) lands in "before" on both sides alike, the bare CLI's and the
 * runner's.
 */
final class StampedCli {
    /** A stamp: seconds, the locale's decimal separator (one or more bytes), six digits of microseconds. */
    private static final Pattern STAMP = Pattern.compile("(\\d+)\\D+(\\d{6})");
    /** The most the wall clock may drift from the monotonic one over a session before its split is not trusted. */
    private static final long CLOCK_SLACK_NANOS = 50_000_000;

    private final CliExecutable wrapper;
    private final Path stamps;

    private StampedCli(CliExecutable wrapper, Path stamps) {
        this.wrapper = wrapper;
        this.stamps = stamps;
    }

    /**
     * A wrapper around {@code cli} in a new folder in {@code folder}.
     *
     * @throws IOException when there is no bash 5 on the PATH (none that sets {@code $EPOCHREALTIME})
     */
    static StampedCli around(CliExecutable cli, Path folder) throws IOException, InterruptedException {
        Path bash = bash(System.getenv().getOrDefault("PATH", ""));
        Path dir = Files.createTempDirectory(folder, "stamped-cli-");
        Path stamps = dir.resolve("stamps.txt");
        Path script = dir.resolve("copilot");
        Files.writeString(script, "#!" + bash + "\n"
                + "printf 'start %s\\n' \"$EPOCHREALTIME\" >> " + quote(stamps) + "\n"
                + quote(Path.of(cli.path())) + " \"$@\"\n"
                + "code=$?\n"
                + "printf 'end %s\\n' \"$EPOCHREALTIME\" >> " + quote(stamps) + "\n"
                + "exit $code\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return new StampedCli(new CliExecutable(script.toString(), cli.version()), stamps);
    }

    /** The first bash on {@code path} that sets {@code $EPOCHREALTIME}. */
    static Path bash(String path) throws IOException, InterruptedException {
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "bash");
            if (!Files.isExecutable(candidate)) {
                continue;
            }
            Process probe = new ProcessBuilder(candidate.toString(), "-c", "printf %s \"$EPOCHREALTIME\"")
                    .redirectErrorStream(true).start();
            String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            if (probe.waitFor(10, TimeUnit.SECONDS) && STAMP.matcher(out).matches()) {
                return candidate.toAbsolutePath();
            }
        }
        throw new IOException("no bash 5 on the PATH (one that sets $EPOCHREALTIME) for the CLI's stamping wrapper");
    }

    /** What to run in place of the CLI. */
    CliExecutable executable() {
        return wrapper;
    }

    /** One session's time around the CLI, in nanoseconds. */
    record Split(long before, long cli, long after) {
    }

    /** Forgets the stamps of the session before: call it before each session. */
    void reset() throws IOException {
        Files.deleteIfExists(stamps);
    }

    /**
     * Splits the session whose process ran in {@code span} (and ran this wrapper once) by the wrapper's stamps: from
     * the process's start to the CLI's, the CLI's run, from its end to the process's.
     *
     * @throws IOException when the session did not run the wrapper once from start to end, or the wall clock moved
     *                     against the monotonic one meanwhile (the stamps are on the wall clock)
     */
    Split split(RealSessions.Span span) throws IOException {
        List<String> lines = Files.exists(stamps) ? Files.readAllLines(stamps, StandardCharsets.ISO_8859_1) : List.of();
        if (lines.size() != 2 || !lines.get(0).startsWith("start ") || !lines.get(1).startsWith("end ")) {
            throw new IOException("the session did not run the CLI's wrapper once, from start to end (its stamps: " + lines + ")");
        }
        long start = micros(span.start());
        long cliStart = epochMicros(lines.get(0).substring(6));
        long cliEnd = epochMicros(lines.get(1).substring(4));
        long end = micros(span.end());
        if (start > cliStart || cliStart > cliEnd || cliEnd > end
                || Math.abs((end - start) * 1000 - span.nanos()) > CLOCK_SLACK_NANOS) {
            throw new IOException("the wall clock moved during the session: its stamps do not fit in the process's run");
        }
        return new Split((cliStart - start) * 1000, (cliEnd - cliStart) * 1000, (end - cliEnd) * 1000);
    }

    /** {@code $EPOCHREALTIME} in microseconds. */
    static long epochMicros(String stamp) {
        Matcher m = STAMP.matcher(stamp.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("not an $EPOCHREALTIME stamp: " + stamp);
        }
        return Long.parseLong(m.group(1)) * 1_000_000 + Long.parseLong(m.group(2));
    }

    private static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1000;
    }

    private static String quote(Path path) {
        return "'" + path.toString().replace("'", "'\\''") + "'";
    }
}
