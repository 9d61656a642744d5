package io.jenkins.plugins.copilotautopilot.core.command;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.plan.InvalidSettingsException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CliCommandBuilderTest {
    private static final CliExecutable CLI = new CliExecutable("/opt/copilot", "1.0.102");

    @Test
    void githubHostedModels() {
        CliCommand command = Commands.build(TaskSpec.of("-fix \"it\" $(now)")
                .githubToken("github_pat_tok_123").set(MODEL, "gpt-5").set(MAX_AUTOPILOT_CONTINUES, 2).add(ALLOW_TOOLS, "shell(npm test)")
                .add(DENY_TOOLS, "shell(git push)").add(ADD_DIRS, "/cache").add(SECRET_ENV_VARS, "NPM_TOKEN"), CLI, "/ws", "/ws@tmp/ctl", Map.of());

        // the task is not an argument: it goes to the CLI's standard input
        assertThat(command.commandLine()).containsExactly("/opt/copilot", "--autopilot",
                "--output-format", "json", "--no-ask-user", "--no-auto-update", "--max-autopilot-continues=2",
                "--model=gpt-5", "--allow-tool=shell(npm test)", "--deny-tool=shell(git push)", "--add-dir=/cache",
                "--disable-client-telemetry", "--secret-env-vars=COPILOT_GITHUB_TOKEN,NPM_TOKEN");
        assertThat(command.environment()).containsEntry("COPILOT_GITHUB_TOKEN", "github_pat_tok_123")
                .doesNotContainKey("COPILOT_HOME").containsEntry("COPILOT_AUTO_UPDATE", "false")
                .containsEntry("COPILOT_DISABLE_LOGIN_SHELL_ENV", "1")
                .containsKey(CliCommand.RUN_MARKER_VARIABLE)
                .doesNotContainKey("COPILOT_PROVIDER_BASE_URL");
        assertThat(command.workingDirectory()).isEqualTo("/ws");
        assertThat(command.launchFolder()).isEqualTo("/ws@tmp/ctl");
        assertThat(command.secretVariables()).containsExactly("COPILOT_GITHUB_TOKEN", "NPM_TOKEN");
        assertThat(String.join(" ", command.commandLine())).doesNotContain("github_pat_tok_123").doesNotContain("now");
        assertThat(command.toString()).doesNotContain("github_pat_tok_123").contains("(the task: 16 characters)");
    }

    @Test
    void reasoningEffortIsPassedAndOnlyTheClisLevelsAreTaken() {
        assertThat(Commands.build(TaskSpec.of("t").githubToken("github_pat_x").set(MODEL, "gpt-5").set(REASONING_EFFORT, "high"), CLI,
                "/ws", "/ctl", Map.of()).commandLine()).contains("--model=gpt-5", "--reasoning-effort=high");
        assertThat(Commands.build(TaskSpec.of("t").githubToken("github_pat_x"), CLI, "/ws", "/ctl", Map.of()).commandLine())
                .noneMatch(a -> a.startsWith("--reasoning-effort"));
        assertThat(TaskSpec.of("t").set(REASONING_EFFORT, "extreme").problems()).singleElement().asString()
                .contains("reasoningEffort must be one of none, minimal, low, medium, high, xhigh, max; was 'extreme'.");
    }

    @Test
    void theBuiltInGithubMcpServerIsOnForATrustedBuildUnlessTurnedOffAndNeverForAnUntrustedOne() {
        assertThat(Commands.build(TaskSpec.of("t").githubToken("github_pat_x"), CLI, "/ws", "/ctl", Map.of()).commandLine())
                .doesNotContain("--disable-builtin-mcps");
        assertThat(Commands.build(TaskSpec.of("t").githubToken("github_pat_x").set(GITHUB_MCP_SERVER, false), CLI, "/ws", "/ctl",
                Map.of()).commandLine()).contains("--disable-builtin-mcps").doesNotContain("--no-custom-instructions");
        assertThat(TaskSpec.of("t").set(GITHUB_MCP_SERVER, true).untrusted().plan().get(GITHUB_MCP_SERVER)).isFalse();
    }

    @Test
    void theClisOwnTelemetryIsOffUnlessAllowed() {
        assertThat(Commands.build(TaskSpec.of("task").githubToken("github_pat_x"), CLI, "/ws", "/ctl", Map.of()).commandLine())
                .contains("--disable-client-telemetry");
        assertThat(Commands.build(TaskSpec.of("task").githubToken("github_pat_x").set(CLIENT_TELEMETRY, true), CLI, "/ws", "/ctl",
                Map.of()).commandLine()).doesNotContain("--disable-client-telemetry");
    }

    @Test
    void ownProvider() {
        CliCommand command = Commands.build(TaskSpec.of("task").set(MODEL, "llama3")
                .provider("http://127.0.0.1:11434/v1", "OpenAI", "sk-key-9876", "Responses", true)
                .set(ALLOW_ALL_TOOLS, true), CLI, "/ws", "/ctl", Map.of());

        assertThat(command.arguments()).contains("--allow-all-tools", "--secret-env-vars=COPILOT_PROVIDER_API_KEY")
                .noneMatch(a -> a.startsWith("--model"));
        assertThat(command.environment()).containsEntry("COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:11434/v1")
                .containsEntry("COPILOT_PROVIDER_TYPE", "openai").containsEntry("COPILOT_PROVIDER_API_KEY", "sk-key-9876")
                .containsEntry("COPILOT_PROVIDER_WIRE_API", "responses").containsEntry("COPILOT_MODEL", "llama3")
                .containsEntry("COPILOT_OFFLINE", "true");
    }

    @Test
    void everyGithubTokenVariableInTheInheritedEnvironmentIsHiddenFromTools() {
        CliCommand command = Commands.build(TaskSpec.of("t").githubToken("github_pat_from_gh"),
                CLI, "/ws", "/ctl", Map.of("GH_TOKEN", "github_pat_from_gh", "GITHUB_TOKEN", "ghs_other", "HOME", "/root"));

        assertThat(command.secretVariables()).containsExactly("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN");
        assertThat(command.arguments()).contains("--secret-env-vars=COPILOT_GITHUB_TOKEN,GH_TOKEN,GITHUB_TOKEN");
    }

    @Test
    void aToolSecretReachesTheToolsAndIsMaskedAllTheSame() {
        CliCommand command = Commands.build(TaskSpec.of("t").githubToken("github_pat_x")
                .add(SECRET_ENV_VARS, "NPM_TOKEN").add(SECRET_ENV_VARS, "DEPLOY_KEY").add(TOOL_SECRETS, "NPM_TOKEN"), CLI, "/ws", "/ctl", Map.of());

        assertThat(command.arguments()).contains("--secret-env-vars=COPILOT_GITHUB_TOKEN,DEPLOY_KEY");
        assertThat(command.hiddenFromTools()).containsExactly("COPILOT_GITHUB_TOKEN", "DEPLOY_KEY");
        assertThat(command.secretVariables()).as("masked").containsExactlyInAnyOrder("COPILOT_GITHUB_TOKEN", "DEPLOY_KEY", "NPM_TOKEN");
    }

    @Test
    void theClisOwnCredentialsAreNeverHandedToTools() {
        assertThat(TaskSpec.of("t").add(TOOL_SECRETS, "COPILOT_GITHUB_TOKEN").add(TOOL_SECRETS, "GH_TOKEN")
                .add(TOOL_SECRETS, "COPILOT_PROVIDER_API_KEY").add(TOOL_SECRETS, "not a name").problems()).containsExactly(
                "toolSecrets: COPILOT_GITHUB_TOKEN holds the Copilot CLI's own credential and is never handed to tools.",
                "toolSecrets: GH_TOKEN holds the Copilot CLI's own credential and is never handed to tools.",
                "toolSecrets: COPILOT_PROVIDER_API_KEY holds the Copilot CLI's own credential and is never handed to tools.",
                "toolSecrets: 'not a name' is not an environment variable name.");
    }

    @Test
    void eachCommandHasItsOwnRunId() {
        TaskSpec options = TaskSpec.of("t");
        assertThat(Commands.build(options, CLI, "/w", "/h", Map.of()).runId())
                .isNotEqualTo(Commands.build(options, CLI, "/w", "/h", Map.of()).runId());
    }

    @Test
    void urlRulesAndTheSandboxBecomeTheClisOptions() {
        TaskSpec options = TaskSpec.of("t").add(ALLOW_URLS, " https://registry.example.com ")
                .add(DENY_URLS, "evil.example").add(DENY_URLS, "http://127.0.0.1:8080").set(SANDBOX, true);
        assertThat(Commands.build(options, CLI, "/w", "/h", Map.of()).arguments()).contains(
                "--allow-url=https://registry.example.com", "--deny-url=evil.example", "--deny-url=http://127.0.0.1:8080", "--sandbox");
        assertThat(Commands.build(TaskSpec.of("t"), CLI, "/w", "/h", Map.of()).arguments())
                .noneMatch(a -> a.startsWith("--allow-url") || a.startsWith("--deny-url") || a.equals("--sandbox"));
        assertThat(TaskSpec.of("t").add(ALLOW_URLS, "not a url").add(DENY_URLS, "ftp://x").problems()).containsExactly(
                "allowUrls: 'not a url' is not a URL or domain (e.g. https://registry.example.com or example.com).",
                "denyUrls: 'ftp://x' is not a URL or domain (e.g. https://registry.example.com or example.com).");
    }

    @Test
    void invalidOptionsAreRefused() {
        assertThatThrownBy(() -> Commands.build(TaskSpec.of(""), CLI, "/w", "/h", Map.of()))
                .isInstanceOf(InvalidSettingsException.class).hasMessage("The prompt is empty: give the agent a task.");
        assertThat(new InvalidSettingsException(List.of("a", "b")).problems()).containsExactly("a", "b");
    }

    @Test
    void pathsWithLineBreaksAreRefused() {
        TaskSpec options = TaskSpec.of("t");
        assertThatThrownBy(() -> Commands.build(options, new CliExecutable("/opt/co\npilot", null), "/w", "/h", Map.of()))
                .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("line break");
        assertThatThrownBy(() -> Commands.build(options, CLI, "/w\n", "/h", Map.of()))
                .isInstanceOf(InvalidSettingsException.class);
    }
}
