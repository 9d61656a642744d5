package io.jenkins.plugins.copilotautopilot.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StampedCliTest {
    @TempDir
    Path temp;

    @Test
    void theWrapperRunsTheCliOnceWithItsArgumentsAndInputAndSplitsItsProcesssTime() throws Exception {
        Path dir = Files.createDirectories(temp.resolve("it's here")); // a quote and a space in every path
        Path seen = dir.resolve("seen.txt");
        // the CLI takes at least 300 ms: the split's CLI part can only hold that if the stamps surround its run
        Path cli = executable(dir.resolve("fake cli"), "#!/bin/sh\nprintf '%s|' \"$@\" > \"$SEEN\"\ncat >> \"$SEEN\"\nsleep 0.3\nexit 3\n");
        Path input = Files.writeString(dir.resolve("prompt.txt"), "the task");
        StampedCli stamped = StampedCli.around(new CliExecutable(cli.toString(), "1.2.3"), dir);
        assertThat(stamped.executable().version()).isEqualTo("1.2.3");
        stamped.reset();

        ProcessBuilder builder = new ProcessBuilder(stamped.executable().path(), "--flag", "a b").redirectInput(input.toFile());
        builder.environment().put("SEEN", seen.toString());
        Instant start = Instant.now();
        long t0 = System.nanoTime();
        int exit = builder.start().waitFor();
        RealSessions.Span span = new RealSessions.Span(start, Instant.now(), System.nanoTime() - t0);
        StampedCli.Split split = stamped.split(span);

        assertThat(exit).as("the CLI's exit code, passed on").isEqualTo(3);
        assertThat(Files.readString(seen)).isEqualTo("--flag|a b|the task");
        assertThat(split.cli()).isGreaterThanOrEqualTo(300_000_000L);
        assertThat(split.before()).isPositive();
        assertThat(split.after()).isNotNegative();
    }

    @Test
    void aSessionThatDidNotRunTheWrapperOnceFromStartToEndIsAnError() throws Exception {
        Path cli = executable(temp.resolve("fake-cli"), "#!/bin/sh\nexit 0\n");
        StampedCli stamped = StampedCli.around(new CliExecutable(cli.toString(), null), temp);
        RealSessions.Span span = new RealSessions.Span(Instant.now(), Instant.now(), 0);
        stamped.reset();
        assertThatThrownBy(() -> stamped.split(span)).isInstanceOf(IOException.class).hasMessageContaining("did not run");

        Process twice = new ProcessBuilder("sh", "-c", "\"$0\" && \"$0\"", stamped.executable().path()).start();
        assertThat(twice.waitFor()).isZero();
        assertThatThrownBy(() -> stamped.split(span)).isInstanceOf(IOException.class).hasMessageContaining("did not run");
    }

    @Test
    void stampsThatDoNotFitInTheProcesssRunAreRefused() throws Exception {
        Path cli = executable(temp.resolve("fake-cli"), "#!/bin/sh\nexit 0\n");
        StampedCli stamped = StampedCli.around(new CliExecutable(cli.toString(), null), temp);
        stamped.reset();
        assertThat(new ProcessBuilder(stamped.executable().path()).start().waitFor()).isZero();
        Instant later = Instant.now().plusSeconds(60); // a process that, by the wall clock, ran after the stamps
        assertThatThrownBy(() -> stamped.split(new RealSessions.Span(later, later.plusSeconds(1), 1_000_000_000L)))
                .isInstanceOf(IOException.class).hasMessageContaining("wall clock");
    }

    @Test
    void stampsInAnyDecimalSeparatorAreRead() {
        assertThat(StampedCli.epochMicros("1796354870.588282")).isEqualTo(1796354870588282L);
        assertThat(StampedCli.epochMicros("1796354870,000042\n")).isEqualTo(1796354870000042L);
        assertThat(StampedCli.epochMicros("1796354870\u00d9\u00ab000042")).as("a two-byte separator read as ISO-8859-1")
                .isEqualTo(1796354870000042L);
        assertThatThrownBy(() -> StampedCli.epochMicros("1796354870")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StampedCli.epochMicros("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPathWithoutBash5IsAnError() {
        assertThatThrownBy(() -> StampedCli.bash(temp.toString())).isInstanceOf(IOException.class).hasMessageContaining("bash 5");
    }

    private static Path executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }
}
