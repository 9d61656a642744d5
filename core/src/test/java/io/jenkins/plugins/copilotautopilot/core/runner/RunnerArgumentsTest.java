package io.jenkins.plugins.copilotautopilot.core.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerArgumentsTest {
    private static final ByteArrayInputStream NO_INPUT = new ByteArrayInputStream(new byte[0]);

    private static RunnerArguments.Parsed parse(Map<String, String> env, String... args) throws Exception {
        return RunnerArguments.parse(args, env, NO_INPUT);
    }

    @Test
    void everyOption() throws Exception {
        RunnerArguments.Parsed parsed = parse(Map.of("GH_TOKEN", "github_pat_env123"),
                "-p", "Fix it", "-C", "/repo", "--copilot", "/opt/cli", "--model", "gpt-5", "--max-autopilot-continues", "3",
                "--allow-all-tools", "--allow-tool", "shell(npm test)", "--deny-tool=shell(rm)", "--add-dir", "/data",
                "--timeout", "1h30m", "--inactivity-timeout", "90s", "--journal", "/tmp/j.jsonl", "--secret-env-var", "NPM_TOKEN");
        AutopilotOptions o = parsed.options();
        assertThat(o.prompt()).isEqualTo("Fix it");
        assertThat(parsed.workingDirectory()).isEqualTo("/repo");
        assertThat(parsed.copilotPath()).isEqualTo("/opt/cli");
        assertThat(parsed.journal()).isEqualTo(Path.of("/tmp/j.jsonl"));
        assertThat(o.model()).isEqualTo("gpt-5");
        assertThat(o.maxAutopilotContinues()).isEqualTo(3);
        assertThat(o.allowAllTools()).isTrue();
        assertThat(o.allowTools()).containsExactly("shell(npm test)");
        assertThat(o.denyTools()).containsExactly("shell(rm)");
        assertThat(o.addDirs()).containsExactly("/data");
        assertThat(o.secretEnvVars()).containsExactly("NPM_TOKEN");
        assertThat(o.timeout()).isEqualTo(Duration.ofMinutes(90));
        assertThat(o.inactivityTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(o.githubToken()).isEqualTo("github_pat_env123");
        assertThat(o.provider()).isNull();
    }

    @Test
    void defaultsAndEnvironment() throws Exception {
        RunnerArguments.Parsed parsed = parse(Map.of("COPILOT_CLI", "/env/cli", "COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:9/v1",
                "COPILOT_PROVIDER_API_KEY", "sk-env", "COPILOT_MODEL", "local", "COPILOT_OFFLINE", "true"), "--prompt", "t");
        assertThat(parsed.copilotPath()).isEqualTo("/env/cli");
        assertThat(parsed.options().timeout()).isEqualTo(AutopilotOptions.DEFAULT_TIMEOUT);
        assertThat(parsed.options().inactivityTimeout()).isEqualTo(AutopilotOptions.DEFAULT_INACTIVITY_TIMEOUT);
        assertThat(parsed.options().provider().apiKey()).isEqualTo("sk-env");
        assertThat(parsed.options().provider().offline()).isTrue();
        assertThat(parsed.options().model()).isEqualTo("local");
    }

    @Test
    void durations() throws Exception {
        assertThat(RunnerArguments.duration("--timeout", "45")).isEqualTo(Duration.ofMinutes(45));
        assertThat(RunnerArguments.duration("--timeout", "2h")).isEqualTo(Duration.ofHours(2));
        assertThat(RunnerArguments.duration("--timeout", "0")).isNull();
        assertThatThrownBy(() -> RunnerArguments.duration("--timeout", "soon"))
                .hasMessage("--timeout needs a duration like 90s, 30m or 1h30m, got 'soon'");
    }

    @Test
    void promptFromFileOrStdin(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("task.md"), "Line 1\nLine 2 with \"quotes\" and $(x)\n");
        assertThat(parse(Map.of(), "--prompt-file", file.toString()).options().prompt())
                .isEqualTo("Line 1\nLine 2 with \"quotes\" and $(x)\n");
        assertThat(RunnerArguments.parse(new String[] {"--prompt-file", "-"}, Map.of(),
                new ByteArrayInputStream("from stdin".getBytes(StandardCharsets.UTF_8))).options().prompt()).isEqualTo("from stdin");
    }

    @Test
    void badCommandLinesSayWhy() {
        assertThatThrownBy(() -> parse(Map.of())).hasMessage("no task: give --prompt TEXT or --prompt-file FILE");
        assertThatThrownBy(() -> parse(Map.of(), "--prompt")).hasMessage("--prompt needs a value");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--frobnicate", "1")).hasMessage("unknown option --frobnicate (see --help)");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "stray")).hasMessage("unexpected argument 'stray' (put the task in --prompt)");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--max-autopilot-continues", "many"))
                .hasMessage("--max-autopilot-continues needs a whole number, got 'many'");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--offline"))
                .hasMessageStartingWith("--offline needs an own model provider");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--prompt-file", "y")).hasMessage("give either --prompt or --prompt-file, not both");
    }

    @Test
    void help() throws Exception {
        assertThat(parse(Map.of(), "--help").help()).isTrue();
    }
}
