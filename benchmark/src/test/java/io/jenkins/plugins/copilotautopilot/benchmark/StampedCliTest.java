package io.jenkins.plugins.copilotautopilot.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StampedCliTest {
    @TempDir
    Path dir;

    @Test
    void theWrapperRunsTheCliOnceWithItsArgumentsAndInputAndSplitsTheSessionsTime() throws Exception {
        Path cli = dir.resolve("fake-cli");
        Path seen = dir.resolve("seen.txt");
        Files.writeString(cli, "#!/bin/sh\nprintf '%s|' \"$@\" > '" + seen + "'\ncat >> '" + seen + "'\nexit 3\n");
        Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rwx------"));
        Path input = Files.writeString(dir.resolve("prompt.txt"), "the task");
        StampedCli stamped = StampedCli.around(new CliExecutable(cli.toString(), "1.2.3"), dir);
        assertThat(stamped.executable().version()).isEqualTo("1.2.3");
        int[] exit = new int[1];
        long[] wall = new long[1];

        StampedCli.Split split = stamped.time(() -> {
            long start = System.nanoTime();
            Process p = new ProcessBuilder(stamped.executable().path(), "--flag", "a b").redirectInput(input.toFile()).start();
            exit[0] = p.waitFor();
            wall[0] = System.nanoTime() - start;
        });

        assertThat(exit[0]).as("the CLI's exit code, passed on").isEqualTo(3);
        assertThat(Files.readString(seen)).isEqualTo("--flag|a b|the task");
        assertThat(split.before()).isPositive();
        assertThat(split.cli()).isPositive();
        assertThat(split.after()).isNotNegative();
        // the parts are measured on the wall clock, the session's length on the monotonic one: equal to a millisecond
        assertThat(split.before() + split.cli() + split.after()).isBetween(wall[0] - 1_000_000, wall[0] + 2_000_000);
    }

    @Test
    void aSessionThatDidNotRunTheWrapperOnceIsAnError() throws IOException {
        Path cli = Files.writeString(dir.resolve("fake-cli"), "#!/bin/sh\nexit 0\n");
        StampedCli stamped = StampedCli.around(new CliExecutable(cli.toString(), null), dir);
        assertThatThrownBy(() -> stamped.time(() -> { })).isInstanceOf(IOException.class);
    }

    @Test
    void stampsInEitherDecimalSeparatorAreRead() {
        assertThat(StampedCli.epochMicros("1796354870.588282")).isEqualTo(1796354870588282L);
        assertThat(StampedCli.epochMicros("1796354870,000042\n")).isEqualTo(1796354870000042L);
        assertThatThrownBy(() -> StampedCli.epochMicros("1796354870")).isInstanceOf(IllegalArgumentException.class);
    }
}
