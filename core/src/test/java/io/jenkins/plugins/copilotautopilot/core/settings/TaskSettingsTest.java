package io.jenkins.plugins.copilotautopilot.core.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import io.jenkins.plugins.copilotautopilot.core.command.InvalidOptionsException;
import io.jenkins.plugins.copilotautopilot.core.outcome.ResultWhenIncomplete;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskSettingsTest {
    private static final TaskSettings ADMIN = TaskSettings.builder()
            .model("gpt-admin")
            .credentialsId("admin-token")
            .maxAutopilotContinues(3)
            .allowAllTools(true)
            .allowTools(List.of("shell(mvn:*)"))
            .denyTools(List.of("shell(rm)", "url(*)"))
            .timeoutMinutes(30)
            .inactivityTimeoutMinutes(5)
            .resultWhenIncomplete("UNSTABLE")
            .installation("copilot-1.0.102")
            .providerBaseUrl("https://models.internal/v1")
            .providerType("openai")
            .providerWireApi("responses")
            .providerCredentialsId("admin-provider-key")
            .offline(true)
            .build();

    @Test
    void whetherTheConsoleShowsWhatTheAgentWritesIsTheStepsElseTheAdministratorsElseYes() {
        TaskSettings quiet = TaskSettings.builder().agentTextInConsole(false).build();
        assertThat(TaskSettings.builder().prompt("x").build().withDefaults(TaskSettings.builder().build()).agentTextInConsole()).isTrue();
        TaskSettings fromAdmin = TaskSettings.builder().prompt("x").build().withDefaults(quiet);
        assertThat(fromAdmin.agentTextInConsole()).isFalse();
        assertThat(fromAdmin.fromDefaults()).contains("agentTextInConsole");
        assertThat(TaskSettings.builder().prompt("x").agentTextInConsole(true).build().withDefaults(quiet).agentTextInConsole()).isTrue();
    }

    @Test
    void anEmptyStepTakesEveryDefault() {
        TaskSettings merged = TaskSettings.builder().prompt("Fix it").build().withDefaults(ADMIN);

        assertThat(merged.model()).isEqualTo("gpt-admin");
        assertThat(merged.credentialsId()).isEqualTo("admin-token");
        assertThat(merged.maxAutopilotContinues()).isEqualTo(3);
        assertThat(merged.allowAllTools()).isTrue();
        assertThat(merged.allowTools()).containsExactly("shell(mvn:*)");
        assertThat(merged.denyTools()).containsExactly("shell(rm)", "url(*)");
        assertThat(merged.timeoutMinutes()).isEqualTo(30);
        assertThat(merged.inactivityTimeoutMinutes()).isEqualTo(5);
        assertThat(merged.resultWhenIncompleteValue()).isEqualTo(ResultWhenIncomplete.UNSTABLE);
        assertThat(merged.installation()).isEqualTo("copilot-1.0.102");
        assertThat(merged.providerBaseUrl()).isEqualTo("https://models.internal/v1");
        assertThat(merged.providerCredentialsId()).isEqualTo("admin-provider-key");
        assertThat(merged.offline()).isTrue();
        assertThat(merged.fromDefaults()).containsExactly("model", "credentialsId", "maxAutopilotContinues",
                "allowAllTools", "allowTools", "denyTools", "timeout", "inactivityTimeout", "resultWhenIncomplete",
                "installation", "provider");

        AutopilotOptions options = merged.toOptions("tok", "key");
        assertThat(options.model()).isEqualTo("gpt-admin");
        assertThat(options.allowAllTools()).isTrue();
        assertThat(options.timeout()).isEqualTo(Duration.ofMinutes(30));
        assertThat(options.provider().baseUrl()).isEqualTo("https://models.internal/v1");
        assertThat(options.provider().apiKey()).isEqualTo("key");
        assertThat(options.provider().offline()).isTrue();
    }

    @Test
    void stepValuesWinOverDefaults() {
        TaskSettings merged = TaskSettings.builder().prompt("Fix it")
                .model("gpt-step").credentialsId("step-token").maxAutopilotContinues(0).allowAllTools(false)
                .allowTools(List.of("write")).timeoutMinutes(0).inactivityTimeoutMinutes(2)
                .resultWhenIncomplete("SUCCESS").installation("copilot-next")
                .build().withDefaults(ADMIN);

        assertThat(merged.model()).isEqualTo("gpt-step");
        assertThat(merged.credentialsId()).isEqualTo("step-token");
        assertThat(merged.maxAutopilotContinues()).isZero();
        assertThat(merged.allowAllTools()).isFalse();
        assertThat(merged.allowTools()).containsExactly("write");
        assertThat(merged.resultWhenIncompleteValue()).isEqualTo(ResultWhenIncomplete.SUCCESS);
        assertThat(merged.installation()).isEqualTo("copilot-next");
        assertThat(merged.fromDefaults()).containsExactlyInAnyOrder("denyTools", "provider");

        AutopilotOptions options = merged.toOptions(null, null);
        assertThat(options.allowAllTools()).isFalse();
        assertThat(options.timeout()).as("0 turns the limit off").isNull();
        assertThat(options.inactivityTimeout()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void aJobCannotDropAToolTheAdministratorDenies() {
        TaskSettings merged = TaskSettings.builder().prompt("p").denyTools(List.of("write", "shell(rm)"))
                .build().withDefaults(ADMIN);

        assertThat(merged.denyTools()).containsExactly("write", "shell(rm)", "url(*)");
        assertThat(merged.toOptions(null, "k").denyTools()).containsExactly("write", "shell(rm)", "url(*)");
    }

    @Test
    void aStepWithItsOwnProviderNeverGetsTheDefaultProvidersKey() {
        TaskSettings merged = TaskSettings.builder().prompt("p").providerBaseUrl("https://attacker.example/v1")
                .build().withDefaults(ADMIN);

        assertThat(merged.providerBaseUrl()).isEqualTo("https://attacker.example/v1");
        assertThat(merged.providerCredentialsId()).isNull();
        assertThat(merged.providerType()).isNull();
        assertThat(merged.providerWireApi()).isNull();
        assertThat(merged.offline()).isNull();
        assertThat(merged.fromDefaults()).doesNotContain("provider");
    }

    @Test
    void aStepCanMakeTheDefaultProviderOfflineButNotOnline() {
        TaskSettings lenient = TaskSettings.builder().providerBaseUrl("http://127.0.0.1:1/v1").offline(false).build();
        assertThat(TaskSettings.builder().prompt("p").offline(true).build().withDefaults(lenient).offline()).isTrue();
        assertThat(TaskSettings.builder().prompt("p").offline(false).build().withDefaults(ADMIN).offline()).isTrue();
    }

    @Test
    void allowAllToolsStaysOffUnlessSomeoneTurnsItOn() {
        TaskSettings nothing = TaskSettings.builder().build();
        TaskSettings merged = TaskSettings.builder().prompt("p").build().withDefaults(nothing);

        assertThat(merged.allowAllTools()).isNull();
        assertThat(merged.toOptions("t", null).allowAllTools()).isFalse();
        assertThat(merged.toOptions("t", null).timeout()).isEqualTo(AutopilotOptions.DEFAULT_TIMEOUT);
        assertThat(merged.toOptions("t", null).inactivityTimeout()).isEqualTo(AutopilotOptions.DEFAULT_INACTIVITY_TIMEOUT);
        assertThat(merged.resultWhenIncompleteValue()).isEqualTo(ResultWhenIncomplete.FAILURE);
        assertThat(merged.fromDefaults()).isEmpty();
    }

    @Test
    void aBlockedAgentsResultIsTheStepsElseTheAdministratorsElseThatOfAnIncompleteTask() {
        TaskSettings step = TaskSettings.builder().prompt("p").build();
        assertThat(step.withDefaults(ADMIN).resultWhenBlockedValue()).isEqualTo(ResultWhenIncomplete.UNSTABLE);
        assertThat(step.withDefaults(TaskSettings.builder().build()).resultWhenBlockedValue()).isEqualTo(ResultWhenIncomplete.FAILURE);

        TaskSettings admin = TaskSettings.builder().resultWhenIncomplete("UNSTABLE").resultWhenBlocked("success").build();
        TaskSettings merged = step.withDefaults(admin);
        assertThat(merged.resultWhenBlockedValue()).isEqualTo(ResultWhenIncomplete.SUCCESS);
        assertThat(merged.fromDefaults()).contains("resultWhenBlocked");
        assertThat(TaskSettings.builder().prompt("p").resultWhenBlocked("FAILURE").build().withDefaults(admin)
                .resultWhenBlockedValue()).isEqualTo(ResultWhenIncomplete.FAILURE);
    }

    @Test
    void aStepAskingForTheChangesAsAFileRecordsThemWhateverTheDefault() {
        TaskSettings noRecording = TaskSettings.builder().recordChanges(false).build();
        TaskSettings merged = TaskSettings.builder().prompt("p").changesFile("c.patch").build().withDefaults(noRecording);
        assertThat(merged.recordChanges()).isTrue();
        assertThat(merged.fromDefaults()).doesNotContain("recordChanges");
        assertThat(merged.toOptions("t", null).recordChanges()).isTrue();
        assertThat(TaskSettings.builder().prompt("p").build().withDefaults(noRecording).recordChanges()).isFalse();
    }

    @Test
    void allowAllPathsIsTheStepsOrTheDefaultsAndAnAdministratorsNoIsACeiling() {
        TaskSettings asks = TaskSettings.builder().prompt("p").allowAllPaths(true).build();
        assertThat(asks.withDefaults(TaskSettings.builder().build()).toOptions("t", null).allowAllPaths()).isTrue();
        assertThat(TaskSettings.builder().prompt("p").build().withDefaults(TaskSettings.builder().allowAllPaths(true).build())
                .toOptions("t", null).allowAllPaths()).isTrue();
        assertThat(TaskSettings.builder().prompt("p").build().withDefaults(TaskSettings.builder().build())
                .toOptions("t", null).allowAllPaths()).isFalse();
        assertThatThrownBy(() -> asks.withDefaults(TaskSettings.builder().allowAllPaths(false).build()).toOptions("t", null))
                .isInstanceOf(InvalidOptionsException.class)
                .satisfies(e -> assertThat(((InvalidOptionsException) e).problems()).containsExactly(
                        "allowAllPaths is turned off by the administrator (Manage Jenkins » System): leave it out of the step."));
    }

    @Test
    void theAdministratorsDenyListAlwaysAppliesAndTheirAllowListIsACeiling() {
        TaskSettings admin = TaskSettings.builder().allowUrls(List.of("https://registry.example.com", "example.org"))
                .denyUrls(List.of("https://evil.example")).build();

        AutopilotOptions inherits = TaskSettings.builder().prompt("p").build().withDefaults(admin).toOptions("t", null);
        assertThat(inherits.allowUrls()).containsExactly("https://registry.example.com", "example.org");
        assertThat(inherits.denyUrls()).containsExactly("https://evil.example");

        AutopilotOptions narrows = TaskSettings.builder().prompt("p").allowUrls(List.of("EXAMPLE.org"))
                .denyUrls(List.of("https://other.example")).build().withDefaults(admin).toOptions("t", null);
        assertThat(narrows.allowUrls()).containsExactly("EXAMPLE.org");
        assertThat(narrows.denyUrls()).containsExactly("https://other.example", "https://evil.example");

        assertThatThrownBy(() -> TaskSettings.builder().prompt("p").allowUrls(List.of("example.org", "https://elsewhere.example"))
                .build().withDefaults(admin).toOptions("t", null))
                .isInstanceOf(InvalidOptionsException.class)
                .satisfies(e -> assertThat(((InvalidOptionsException) e).problems()).containsExactly(
                        "allowUrls may only narrow the administrator's allow list (Manage Jenkins » System), which does not hold"
                                + " https://elsewhere.example."));
        // no administrator's list: a step's own is taken as it is
        assertThat(TaskSettings.builder().prompt("p").allowUrls(List.of("https://elsewhere.example")).build()
                .withDefaults(TaskSettings.builder().build()).toOptions("t", null).allowUrls()).containsExactly("https://elsewhere.example");
    }

    @Test
    void theAdministratorsSandboxIsAFloor() {
        TaskSettings sandboxed = TaskSettings.builder().sandbox(true).build();
        assertThat(TaskSettings.builder().prompt("p").sandbox(false).build().withDefaults(sandboxed).toOptions("t", null).sandbox()).isTrue();
        assertThat(TaskSettings.builder().prompt("p").sandbox(true).build().withDefaults(TaskSettings.builder().build())
                .toOptions("t", null).sandbox()).isTrue();
        assertThat(TaskSettings.builder().prompt("p").build().withDefaults(TaskSettings.builder().sandbox(false).build())
                .toOptions("t", null).sandbox()).isFalse();
    }

    @Test
    void anExplicitCopilotPathIgnoresTheDefaultInstallation() {
        TaskSettings merged = TaskSettings.builder().prompt("p").copilotPath("/opt/copilot").build().withDefaults(ADMIN);

        assertThat(merged.copilotPath()).isEqualTo("/opt/copilot");
        assertThat(merged.installation()).isNull();
    }

    @Test
    void listsEveryProblemAtOnce() {
        TaskSettings bad = TaskSettings.builder().prompt(" ").timeoutMinutes(-1).offline(true)
                .resultWhenIncomplete("MAYBE").resultWhenBlocked("never").maxAutopilotContinues(-2).build();

        assertThatThrownBy(() -> bad.toOptions("t", null))
                .isInstanceOf(InvalidOptionsException.class)
                .satisfies(e -> assertThat(((InvalidOptionsException) e).problems()).containsExactly(
                        "The prompt is empty: give the agent a task.",
                        "maxAutopilotContinues must be 0 or more, was -2.",
                        "timeout must be 0 (no limit) or a number of minutes; was -1.",
                        "offline needs your own model provider: set providerBaseUrl and model.",
                        "resultWhenIncomplete must be FAILURE, UNSTABLE or SUCCESS; was 'MAYBE'.",
                        "resultWhenBlocked must be FAILURE, UNSTABLE or SUCCESS; was 'never'."));
    }

    @Test
    void blankValuesCountAsUnset() {
        TaskSettings merged = TaskSettings.builder().prompt("p").model("  ").credentialsId("")
                .allowTools(java.util.Arrays.asList(" ", null)).build().withDefaults(ADMIN);

        assertThat(merged.model()).isEqualTo("gpt-admin");
        assertThat(merged.credentialsId()).isEqualTo("admin-token");
        assertThat(merged.allowTools()).containsExactly("shell(mvn:*)");
    }

    @Test
    void githubTokenPrecedence() {
        TaskSettings stepCredential = TaskSettings.builder().prompt("p").credentialsId("mine").build().withDefaults(ADMIN);
        TaskSettings defaultCredential = TaskSettings.builder().prompt("p").build().withDefaults(ADMIN);
        TaskSettings noCredential = TaskSettings.builder().prompt("p").build();
        Map<String, String> bound = Map.of("COPILOT_GITHUB_TOKEN", "x", "GITHUB_TOKEN", "y");
        Map<String, String> generic = Map.of("GITHUB_TOKEN", "y");

        assertThat(stepCredential.githubTokenSource(bound).describe()).isEqualTo("credential 'mine'");
        assertThat(defaultCredential.githubTokenSource(bound).describe()).isEqualTo("$COPILOT_GITHUB_TOKEN");
        assertThat(defaultCredential.githubTokenSource(generic).describe()).isEqualTo("credential 'admin-token' (global default)");
        assertThat(defaultCredential.githubTokenSource(generic).fromDefaults()).isTrue();
        assertThat(noCredential.githubTokenSource(generic).describe()).isEqualTo("$GITHUB_TOKEN");
        assertThat(noCredential.githubTokenSource(Map.of("GH_TOKEN", "a", "GITHUB_TOKEN", "b")).variable()).isEqualTo("GH_TOKEN");
        assertThat(noCredential.githubTokenSource(Map.of("GH_TOKEN", " ")).isNone()).isTrue();
        assertThat(noCredential.githubTokenSource(Map.of()).describe()).isEqualTo("none");
    }
}
