package io.jenkins.plugins.copilotautopilot.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CliCommandBuilderTest {
    private static final CliExecutable CLI = new CliExecutable("/opt/copilot", "1.0.102");

    @Test
    void githubHostedModels() {
        CliCommand command = CliCommandBuilder.build(AutopilotOptions.builder("-fix \"it\" $(now)")
                .githubToken("github_pat_tok_123").model("gpt-5").maxAutopilotContinues(2).allowTool("shell(npm test)")
                .denyTool("shell(git push)").addDir("/cache").secretEnvVar("NPM_TOKEN").build(), CLI, "/ws", "/ws@tmp/ctl", Map.of());

        // the task is not an argument: it goes to the CLI's standard input
        assertThat(command.commandLine()).containsExactly("/opt/copilot", "--autopilot",
                "--output-format", "json", "--no-ask-user", "--no-auto-update", "--max-autopilot-continues=2",
                "--model=gpt-5", "--allow-tool=shell(npm test)", "--deny-tool=shell(git push)", "--add-dir=/cache",
                "--secret-env-vars=COPILOT_GITHUB_TOKEN,NPM_TOKEN");
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
    void ownProvider() {
        CliCommand command = CliCommandBuilder.build(AutopilotOptions.builder("task").model("llama3")
                .provider(new ProviderOptions("http://127.0.0.1:11434/v1", "OpenAI", "sk-key-9876", "Responses", true))
                .allowAllTools(true).build(), CLI, "/ws", "/ctl", Map.of());

        assertThat(command.arguments()).contains("--allow-all-tools", "--secret-env-vars=COPILOT_PROVIDER_API_KEY")
                .noneMatch(a -> a.startsWith("--model"));
        assertThat(command.environment()).containsEntry("COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:11434/v1")
                .containsEntry("COPILOT_PROVIDER_TYPE", "openai").containsEntry("COPILOT_PROVIDER_API_KEY", "sk-key-9876")
                .containsEntry("COPILOT_PROVIDER_WIRE_API", "responses").containsEntry("COPILOT_MODEL", "llama3")
                .containsEntry("COPILOT_OFFLINE", "true");
    }

    @Test
    void everyGithubTokenVariableInTheInheritedEnvironmentIsHiddenFromTools() {
        CliCommand command = CliCommandBuilder.build(AutopilotOptions.builder("t").githubToken("github_pat_from_gh").build(),
                CLI, "/ws", "/ctl", Map.of("GH_TOKEN", "github_pat_from_gh", "GITHUB_TOKEN", "ghs_other", "HOME", "/root"));

        assertThat(command.secretVariables()).containsExactly("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN");
        assertThat(command.arguments()).contains("--secret-env-vars=COPILOT_GITHUB_TOKEN,GH_TOKEN,GITHUB_TOKEN");
    }

    @Test
    void aToolSecretReachesTheToolsAndIsMaskedAllTheSame() {
        CliCommand command = CliCommandBuilder.build(AutopilotOptions.builder("t").githubToken("github_pat_x")
                .secretEnvVar("NPM_TOKEN").secretEnvVar("DEPLOY_KEY").toolSecret("NPM_TOKEN").build(), CLI, "/ws", "/ctl", Map.of());

        assertThat(command.arguments()).contains("--secret-env-vars=COPILOT_GITHUB_TOKEN,DEPLOY_KEY");
        assertThat(command.hiddenFromTools()).containsExactly("COPILOT_GITHUB_TOKEN", "DEPLOY_KEY");
        assertThat(command.secretVariables()).as("masked").containsExactlyInAnyOrder("COPILOT_GITHUB_TOKEN", "DEPLOY_KEY", "NPM_TOKEN");
    }

    @Test
    void theClisOwnCredentialsAreNeverHandedToTools() {
        assertThat(AutopilotOptions.builder("t").toolSecret("COPILOT_GITHUB_TOKEN").toolSecret("GH_TOKEN")
                .toolSecret("COPILOT_PROVIDER_API_KEY").toolSecret("not a name").build().validate()).containsExactly(
                "toolSecrets: COPILOT_GITHUB_TOKEN holds the Copilot CLI's own credential and is never handed to tools.",
                "toolSecrets: GH_TOKEN holds the Copilot CLI's own credential and is never handed to tools.",
                "toolSecrets: COPILOT_PROVIDER_API_KEY holds the Copilot CLI's own credential and is never handed to tools.",
                "toolSecrets: 'not a name' is not an environment variable name.");
    }

    @Test
    void eachCommandHasItsOwnRunId() {
        AutopilotOptions options = AutopilotOptions.builder("t").build();
        assertThat(CliCommandBuilder.build(options, CLI, "/w", "/h", Map.of()).runId())
                .isNotEqualTo(CliCommandBuilder.build(options, CLI, "/w", "/h", Map.of()).runId());
    }

    @Test
    void urlRulesAndTheSandboxBecomeTheClisOptions() {
        AutopilotOptions options = AutopilotOptions.builder("t").allowUrl(" https://registry.example.com ")
                .denyUrl("evil.example").denyUrl("http://127.0.0.1:8080").sandbox(true).build();
        assertThat(CliCommandBuilder.build(options, CLI, "/w", "/h", Map.of()).arguments()).contains(
                "--allow-url=https://registry.example.com", "--deny-url=evil.example", "--deny-url=http://127.0.0.1:8080", "--sandbox");
        assertThat(CliCommandBuilder.build(AutopilotOptions.builder("t").build(), CLI, "/w", "/h", Map.of()).arguments())
                .noneMatch(a -> a.startsWith("--allow-url") || a.startsWith("--deny-url") || a.equals("--sandbox"));
        assertThat(AutopilotOptions.builder("t").allowUrl("not a url").denyUrl("ftp://x").build().validate()).containsExactly(
                "allowUrls: 'not a url' is not a URL or domain (e.g. https://registry.example.com or example.com).",
                "denyUrls: 'ftp://x' is not a URL or domain (e.g. https://registry.example.com or example.com).");
    }

    @Test
    void invalidOptionsAreRefused() {
        assertThatThrownBy(() -> CliCommandBuilder.build(AutopilotOptions.builder("").build(), CLI, "/w", "/h", Map.of()))
                .isInstanceOf(InvalidOptionsException.class).hasMessage("The prompt is empty: give the agent a task.");
        assertThat(new InvalidOptionsException(List.of("a", "b")).problems()).containsExactly("a", "b");
    }

    @Test
    void pathsWithLineBreaksAreRefused() {
        AutopilotOptions options = AutopilotOptions.builder("t").build();
        assertThatThrownBy(() -> CliCommandBuilder.build(options, new CliExecutable("/opt/co\npilot", null), "/w", "/h", Map.of()))
                .isInstanceOf(InvalidOptionsException.class).hasMessageContaining("line break");
        assertThatThrownBy(() -> CliCommandBuilder.build(options, CLI, "/w\n", "/h", Map.of()))
                .isInstanceOf(InvalidOptionsException.class);
    }
}
