package io.jenkins.plugins.copilotautopilot.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AutopilotOptionsTest {

    @Test
    void validOptionsHaveNoProblems() {
        assertThat(AutopilotOptions.builder("Fix the test").githubToken("github_pat_x123").maxAutopilotContinues(0).build()
                .validate()).isEmpty();
    }

    @Test
    void everyProblemIsNamedClearly() {
        AutopilotOptions bad = AutopilotOptions.builder(" ")
                .maxAutopilotContinues(-1)
                .timeout(Duration.ZERO)
                .inactivityTimeout(Duration.ofSeconds(-5))
                .allowTool("")
                .denyTool("shell(rm)\nwrite")
                .secretEnvVar("NOT-A-NAME")
                .provider(new ProviderOptions("ftp://example.org", "gemini", "key1234", "grpc", false))
                .build();
        assertThat(bad.validate()).containsExactly(
                "The prompt is empty: give the agent a task.",
                "maxAutopilotContinues must be 0 or more, was -1.",
                "timeout must be positive, was 0 seconds.",
                "inactivityTimeout must be positive, was -5 seconds.",
                "allowTools: entry 1 is empty.",
                "denyTools: entry 1 contains a line break or control character.",
                "secretEnvVars: 'NOT-A-NAME' is not an environment variable name.",
                "providerBaseUrl must be an http:// or https:// URL, was 'ftp://example.org'.",
                "providerType must be one of openai, azure, anthropic; was 'gemini'.",
                "providerWireApi must be completions or responses; was 'grpc'.",
                "An own model provider (providerBaseUrl) needs a model: set model to the provider's model name.");
        assertThatThrownBy(bad::validated).isInstanceOf(InvalidOptionsException.class)
                .hasMessageContaining("maxAutopilotContinues must be 0 or more");
    }

    @Test
    void eachProblemSaysWhichSettingItIsAboutAndCallersNameIt() {
        AutopilotOptions bad = AutopilotOptions.builder("")
                .maxAutopilotContinues(-1)
                .inactivityTimeout(Duration.ZERO)
                .addDir(" ")
                .provider(new ProviderOptions("http://127.0.0.1:1/v1", null, null, "grpc", false))
                .build();
        assertThat(bad.problems()).extracting(OptionProblem::setting).containsExactly(Setting.PROMPT,
                Setting.MAX_AUTOPILOT_CONTINUES, Setting.INACTIVITY_TIMEOUT, Setting.ADD_DIRS, Setting.PROVIDER_WIRE_API, Setting.MODEL);
        assertThat(bad.validate(s -> "--" + s.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'))).containsExactly(
                "The prompt is empty: give the agent a task.",
                "--max-autopilot-continues must be 0 or more, was -1.",
                "--inactivity-timeout must be positive, was 0 seconds.",
                "--add-dirs: entry 1 is empty.",
                "--provider-wire-api must be completions or responses; was 'grpc'.",
                "An own model provider (--provider-base-url) needs a model: set --model to the provider's model name.");
        assertThat(bad.problems().get(1)).hasToString("maxAutopilotContinues must be 0 or more, was -1.");
        assertThat(bad.validate()).isEqualTo(bad.validate(Setting::parameterName));
    }

    @Test
    void promptsThatCannotBeTakenAreRefused() {
        assertThat(AutopilotOptions.builder("a\0b").build().validate())
                .containsExactly("The prompt contains a NUL character, which the CLI cannot take as text.");
        assertThat(AutopilotOptions.builder("x".repeat(1024 * 1024 + 1)).build().validate())
                .containsExactly("The prompt is 1048577 bytes long; the limit is 1048576 bytes (1 MiB).");
        // far longer than one command-line argument may be: the task goes to the CLI's standard input
        assertThat(AutopilotOptions.builder("x".repeat(200_000)).build().validate()).isEmpty();
    }

    @Test
    void secretsNeverShowInToString() {
        AutopilotOptions options = AutopilotOptions.builder("task").githubToken("github_pat_secret_abc")
                .provider(new ProviderOptions("http://127.0.0.1:1/v1", null, "sk-secret-key", null, true)).model("m").build();
        assertThat(options.toString()).doesNotContain("github_pat_secret_abc").doesNotContain("sk-secret-key");
        assertThat(options.secretValues()).containsExactly("github_pat_secret_abc", "sk-secret-key");
    }

    @Test
    void secretEnvVarsAddTheirValues() {
        AutopilotOptions options = AutopilotOptions.builder("task").secretEnvVar("DEPLOY_KEY").secretEnvVar("UNSET").build();
        assertThat(options.secretValues(Map.of("DEPLOY_KEY", "dk-123456", "OTHER", "x"))).containsExactly("dk-123456");
    }

    @Test
    void toBuilderKeepsEverything() {
        AutopilotOptions options = AutopilotOptions.builder("task").model("m").allowAllTools(true).allowTool("write")
                .denyTool("shell(rm)").addDir("/data").secretEnvVar("K").maxAutopilotContinues(3)
                .timeout(Duration.ofMinutes(5)).inactivityTimeout(null).build();
        assertThat(options.toBuilder().build().toString()).isEqualTo(options.toString());
    }
}
