package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;

/**
 * The CLI behind a wrapper that notes when it starts and when it has ended, so that a session's time splits into
 * before the CLI, the CLI itself and after it: the wrapper (bash) appends {@code $EPOCHREALTIME} to a file, a variable
 * of bash's own, so no process is started for a stamp; it runs the CLI as its child and exits with its exit code. The
 * wrapper's own start (a few ms) lands in "before" on both sides alike, the bare CLI's and the runner's.
 */
final class StampedCli {
    private final CliExecutable wrapper;
    private final Path stamps;

    private StampedCli(CliExecutable wrapper, Path stamps) {
        this.wrapper = wrapper;
        this.stamps = stamps;
    }

    /** A wrapper around {@code cli} in {@code folder} (a new folder of its own). */
    static StampedCli around(CliExecutable cli, Path folder) throws IOException {
        Path dir = Files.createTempDirectory(folder, "stamped-cli-");
        Path stamps = dir.resolve("stamps.txt");
        Path script = dir.resolve("copilot");
        Files.writeString(script, "#!/usr/bin/env bash\n"
                + "printf 'start %s\\n' \"$EPOCHREALTIME\" >> " + quote(stamps) + "\n"
                + quote(Path.of(cli.path())) + " \"$@\"\n"
                + "code=$?\n"
                + "printf 'end %s\\n' \"$EPOCHREALTIME\" >> " + quote(stamps) + "\n"
                + "exit $code\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return new StampedCli(new CliExecutable(script.toString(), cli.version()), stamps);
    }

    /** What to run in place of the CLI. */
    CliExecutable executable() {
        return wrapper;
    }

    /** One session's time around the CLI, in nanoseconds. */
    record Split(long before, long cli, long after) {
    }

    /**
     * Runs {@code session} (which runs this wrapper once) and splits its wall time by the wrapper's stamps: from the
     * session's start to the CLI's, the CLI's run, from its end to the session's.
     */
    Split time(Session session) throws IOException, InterruptedException {
        Files.deleteIfExists(stamps);
        Instant start = Instant.now();
        session.run();
        Instant end = Instant.now();
        List<String> lines = Files.exists(stamps) ? Files.readAllLines(stamps, StandardCharsets.UTF_8) : List.of();
        if (lines.size() != 2 || !lines.get(0).startsWith("start ") || !lines.get(1).startsWith("end ")) {
            throw new IOException("the session did not run the CLI's wrapper once, from start to end (its stamps: " + lines + ")");
        }
        long cliStart = epochMicros(lines.get(0).substring(6));
        long cliEnd = epochMicros(lines.get(1).substring(4));
        return new Split((cliStart - micros(start)) * 1000, (cliEnd - cliStart) * 1000, (micros(end) - cliEnd) * 1000);
    }

    /** A session that starts the CLI once and returns when it has ended. */
    interface Session {
        void run() throws IOException, InterruptedException;
    }

    /** {@code $EPOCHREALTIME}: seconds, the locale's decimal separator, six digits of microseconds. */
    static long epochMicros(String stamp) {
        String[] parts = stamp.strip().split("[.,]");
        if (parts.length != 2 || parts[1].length() != 6) {
            throw new IllegalArgumentException("not an $EPOCHREALTIME stamp: " + stamp);
        }
        return Long.parseLong(parts[0]) * 1_000_000 + Long.parseLong(parts[1]);
    }

    private static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1000;
    }

    private static String quote(Path path) {
        return "'" + path.toString().replace("'", "'\\''") + "'";
    }
}
