package io.jenkins.plugins.copilotautopilot.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmark's command line: a bad one is one line, never a stack trace; its help needs no build. */
class BenchmarkOptionsTest {
    @Test
    void optionsAreReadAndBadOnesAreOneLine() {
        BenchmarkMain.Options options = BenchmarkMain.Options.parse(new String[] {"--runs", "3", "--sessions", "1, 20"});
        assertThat(options.runs()).isEqualTo(3);
        assertThat(options.sessions()).containsExactly(1, 20);
        assertThat(options.help()).isFalse();
        assertThat(BenchmarkMain.Options.parse(new String[] {"--runs", "3", "--help"}).help()).isTrue();
        assertThat(BenchmarkMain.Options.parse(new String[] {"-h"}).help()).isTrue();
        assertThatThrownBy(() -> BenchmarkMain.Options.parse(new String[] {"--frobnicate", "1"})).hasMessage("unknown option --frobnicate");
        assertThatThrownBy(() -> BenchmarkMain.Options.parse(new String[] {"--runs"})).hasMessage("--runs needs a value");
        assertThatThrownBy(() -> BenchmarkMain.Options.parse(new String[] {"--runs", "many"}))
                .hasMessage("--runs needs a number, got 'many'");
    }

    @Test
    void theScriptsHelpIsItsHeaderAndBuildsNothing() throws Exception {
        Path script = Path.of("run").toAbsolutePath();
        if (!Files.exists(script)) {
            script = Path.of("benchmark", "run").toAbsolutePath();
        }
        // a PATH with only what the help needs, no mvn and no java: a help that built or ran anything would fail
        Path bin = Files.createTempDirectory("bench-help-path");
        for (String tool : List.of("sed", "dirname")) {
            Files.createSymbolicLink(bin.resolve(tool), which(tool));
        }
        ProcessBuilder builder = new ProcessBuilder(which("bash").toString(), script.toString(), "--help").redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().put("PATH", bin.toString());
        Process help = builder.start();
        String out = new String(help.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(help.waitFor()).as(out).isZero();
        assertThat(out.lines().toList()).first().asString().startsWith("Runs the benchmarks");
        for (String option : List.of("--events", "--runs", "--sessions", "--session-seconds", "--speedup", "--out",
                "--baseline-runner", "--baseline-sessions")) {
            assertThat(out).contains(option);
        }
        assertThat(out).doesNotContain("#").doesNotContain("set -euo");
        for (String tool : List.of("sed", "dirname")) {
            Files.delete(bin.resolve(tool));
        }
        Files.delete(bin);
    }

    private static Path which(String tool) {
        for (String dir : System.getenv("PATH").split(":")) {
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError(tool + " is not on the PATH");
    }
}
