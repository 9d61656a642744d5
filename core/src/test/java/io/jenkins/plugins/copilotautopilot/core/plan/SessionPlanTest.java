package io.jenkins.plugins.copilotautopilot.core.plan;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.build.GithubTokenSource;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A step's settings merged with the administrator's defaults, as {@link SessionPlan#resolve} does it (see {@link Setting.Merge}). */
class SessionPlanTest {
    private static final SettingValues ADMIN = values(
            MODEL, "gpt-admin",
            CREDENTIALS_ID, "admin-token",
            MAX_AUTOPILOT_CONTINUES, 3,
            ALLOW_ALL_TOOLS, true,
            ALLOW_TOOLS, List.of("shell(mvn:*)"),
            DENY_TOOLS, List.of("shell(rm)", "url(*)"),
            TIMEOUT, 30,
            INACTIVITY_TIMEOUT, 5,
            RESULT_WHEN_INCOMPLETE, "UNSTABLE",
            INSTALLATION, "copilot-1.0.102",
            PROVIDER_BASE_URL, "https://models.internal/v1",
            PROVIDER_TYPE, "openai",
            PROVIDER_WIRE_API, "responses",
            PROVIDER_CREDENTIALS_ID, "admin-provider-key",
            OFFLINE, true);

    /** Setting, value, setting, value... */
    static SettingValues values(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(((Setting<?>) pairs[i]).name(), pairs[i + 1]);
        }
        return SettingValues.of(map);
    }

    private static SessionPlan merged(SettingValues step, SettingValues defaults) {
        return SessionPlan.resolve(step, defaults).orThrow();
    }

    private static List<String> problems(SettingValues step, SettingValues defaults) {
        return SessionPlan.resolve(step, defaults).problems().messages();
    }

    @Test
    void whetherTheConsoleShowsWhatTheAgentWritesIsTheStepsElseTheAdministratorsElseYes() {
        SettingValues quiet = values(AGENT_TEXT_IN_CONSOLE, false);
        assertThat(merged(SettingValues.none(), SettingValues.none()).get(AGENT_TEXT_IN_CONSOLE)).isTrue();
        SessionPlan fromAdmin = merged(SettingValues.none(), quiet);
        assertThat(fromAdmin.get(AGENT_TEXT_IN_CONSOLE)).isFalse();
        assertThat(fromAdmin.fromDefaults()).contains("agentTextInConsole");
        assertThat(merged(values(AGENT_TEXT_IN_CONSOLE, true), quiet).get(AGENT_TEXT_IN_CONSOLE)).isTrue();
    }

    @Test
    void anEmptyStepTakesEveryDefault() {
        SessionPlan merged = merged(SettingValues.none(), ADMIN);

        assertThat(merged.get(MODEL)).isEqualTo("gpt-admin");
        assertThat(merged.get(CREDENTIALS_ID)).isEqualTo("admin-token");
        assertThat(merged.get(MAX_AUTOPILOT_CONTINUES)).isEqualTo(3);
        assertThat(merged.get(ALLOW_ALL_TOOLS)).isTrue();
        assertThat(merged.list(ALLOW_TOOLS)).containsExactly("shell(mvn:*)");
        assertThat(merged.list(DENY_TOOLS)).containsExactly("shell(rm)", "url(*)");
        assertThat(merged.limit(TIMEOUT)).isEqualTo(Duration.ofMinutes(30));
        assertThat(merged.limit(INACTIVITY_TIMEOUT)).isEqualTo(Duration.ofMinutes(5));
        assertThat(merged.get(RESULT_WHEN_INCOMPLETE)).isEqualTo("UNSTABLE");
        assertThat(merged.get(INSTALLATION)).isEqualTo("copilot-1.0.102");
        assertThat(merged.get(PROVIDER_BASE_URL)).isEqualTo("https://models.internal/v1");
        assertThat(merged.get(PROVIDER_CREDENTIALS_ID)).isEqualTo("admin-provider-key");
        assertThat(merged.get(OFFLINE)).isTrue();
        assertThat(merged.fromDefaults()).containsExactly("credentialsId", "model", "allowAllTools", "allowTools", "denyTools",
                "maxAutopilotContinues", "timeout", "inactivityTimeout", "resultWhenIncomplete", "installation", "provider");
    }

    @Test
    void stepValuesWinOverDefaults() {
        SessionPlan merged = merged(values(MODEL, "gpt-step", CREDENTIALS_ID, "step-token", MAX_AUTOPILOT_CONTINUES, 0,
                ALLOW_ALL_TOOLS, false, ALLOW_TOOLS, List.of("write"), TIMEOUT, 0, INACTIVITY_TIMEOUT, 2,
                RESULT_WHEN_INCOMPLETE, "SUCCESS", INSTALLATION, "copilot-next"), ADMIN);

        assertThat(merged.get(MODEL)).isEqualTo("gpt-step");
        assertThat(merged.get(CREDENTIALS_ID)).isEqualTo("step-token");
        assertThat(merged.get(MAX_AUTOPILOT_CONTINUES)).isZero();
        assertThat(merged.get(ALLOW_ALL_TOOLS)).isFalse();
        assertThat(merged.list(ALLOW_TOOLS)).containsExactly("write");
        assertThat(merged.get(RESULT_WHEN_INCOMPLETE)).isEqualTo("SUCCESS");
        assertThat(merged.get(INSTALLATION)).isEqualTo("copilot-next");
        assertThat(merged.fromDefaults()).containsExactlyInAnyOrder("denyTools", "provider");
        assertThat(merged.limit(TIMEOUT)).as("0 turns the limit off").isNull();
        assertThat(merged.limit(INACTIVITY_TIMEOUT)).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void aJobCannotDropAToolTheAdministratorDenies() {
        assertThat(merged(values(DENY_TOOLS, List.of("write", "shell(rm)")), ADMIN).list(DENY_TOOLS))
                .containsExactly("write", "shell(rm)", "url(*)");
    }

    @Test
    void aStepWithItsOwnProviderNeverGetsTheDefaultProvidersKey() {
        SessionPlan merged = merged(values(PROVIDER_BASE_URL, "https://attacker.example/v1", MODEL, "m"), ADMIN);

        assertThat(merged.get(PROVIDER_BASE_URL)).isEqualTo("https://attacker.example/v1");
        assertThat(merged.get(PROVIDER_CREDENTIALS_ID)).isNull();
        assertThat(merged.get(PROVIDER_TYPE)).isNull();
        assertThat(merged.get(PROVIDER_WIRE_API)).isNull();
        assertThat(merged.get(OFFLINE)).isFalse();
        assertThat(merged.fromDefaults()).doesNotContain("provider");
    }

    @Test
    void aStepCanMakeTheDefaultProviderOfflineButNotOnline() {
        SettingValues lenient = values(PROVIDER_BASE_URL, "http://127.0.0.1:1/v1", OFFLINE, false);
        assertThat(merged(values(OFFLINE, true, MODEL, "m"), lenient).get(OFFLINE)).isTrue();
        assertThat(merged(values(OFFLINE, false), ADMIN).get(OFFLINE)).isTrue();
    }

    @Test
    void allowAllToolsStaysOffUnlessSomeoneTurnsItOn() {
        SessionPlan merged = merged(SettingValues.none(), SettingValues.none());

        assertThat(merged.isSet(ALLOW_ALL_TOOLS)).isFalse();
        assertThat(merged.get(ALLOW_ALL_TOOLS)).isFalse();
        assertThat(merged.limit(TIMEOUT)).isEqualTo(Duration.ofMinutes(60));
        assertThat(merged.limit(INACTIVITY_TIMEOUT)).isEqualTo(Duration.ofMinutes(10));
        assertThat(merged.get(RESULT_WHEN_INCOMPLETE)).isEqualTo("FAILURE");
        assertThat(merged.fromDefaults()).isEmpty();
    }

    @Test
    void aBlockedAgentsResultIsTheStepsElseTheAdministratorsElseThatOfAnIncompleteTask() {
        assertThat(merged(SettingValues.none(), ADMIN).resultWhenBlocked()).isEqualTo("UNSTABLE");
        assertThat(merged(SettingValues.none(), SettingValues.none()).resultWhenBlocked()).isEqualTo("FAILURE");

        SettingValues admin = values(RESULT_WHEN_INCOMPLETE, "UNSTABLE", RESULT_WHEN_BLOCKED, "success");
        SessionPlan merged = merged(SettingValues.none(), admin);
        assertThat(merged.resultWhenBlocked()).isEqualTo("SUCCESS");
        assertThat(merged.fromDefaults()).contains("resultWhenBlocked");
        assertThat(merged(values(RESULT_WHEN_BLOCKED, "FAILURE"), admin).resultWhenBlocked()).isEqualTo("FAILURE");
    }

    @Test
    void aStepAskingForTheChangesAsAFileRecordsThemWhateverTheDefault() {
        SettingValues noRecording = values(RECORD_CHANGES, false);
        SessionPlan merged = merged(values(CHANGES_FILE, "c.patch"), noRecording);
        assertThat(merged.get(RECORD_CHANGES)).isTrue();
        assertThat(merged.fromDefaults()).doesNotContain("recordChanges");
        assertThat(merged(SettingValues.none(), noRecording).get(RECORD_CHANGES)).isFalse();
    }

    @Test
    void allowAllPathsIsTheStepsOrTheDefaultsAndAnAdministratorsNoIsACeiling() {
        SettingValues asks = values(ALLOW_ALL_PATHS, true);
        assertThat(merged(asks, SettingValues.none()).get(ALLOW_ALL_PATHS)).isTrue();
        assertThat(merged(SettingValues.none(), values(ALLOW_ALL_PATHS, true)).get(ALLOW_ALL_PATHS)).isTrue();
        assertThat(merged(SettingValues.none(), SettingValues.none()).get(ALLOW_ALL_PATHS)).isFalse();
        assertThat(problems(asks, values(ALLOW_ALL_PATHS, false))).containsExactly(
                "allowAllPaths is turned off by the administrator (Manage Jenkins » System): leave it out of the step.");
    }

    @Test
    void theAdministratorsDenyListAlwaysAppliesAndTheirAllowListIsACeiling() {
        SettingValues admin = values(ALLOW_URLS, List.of("https://registry.example.com", "example.org"),
                DENY_URLS, List.of("https://evil.example"));

        SessionPlan inherits = merged(SettingValues.none(), admin);
        assertThat(inherits.list(ALLOW_URLS)).containsExactly("https://registry.example.com", "example.org");
        assertThat(inherits.list(DENY_URLS)).containsExactly("https://evil.example");

        SessionPlan narrows = merged(values(ALLOW_URLS, List.of("EXAMPLE.org"), DENY_URLS, List.of("https://other.example")), admin);
        assertThat(narrows.list(ALLOW_URLS)).containsExactly("EXAMPLE.org");
        assertThat(narrows.list(DENY_URLS)).containsExactly("https://other.example", "https://evil.example");

        assertThat(problems(values(ALLOW_URLS, List.of("example.org", "https://elsewhere.example")), admin)).containsExactly(
                "allowUrls may only narrow the administrator's allow list (Manage Jenkins » System), which does not hold"
                        + " https://elsewhere.example.");
        // no administrator's list: a step's own is taken as it is
        assertThat(merged(values(ALLOW_URLS, List.of("https://elsewhere.example")), SettingValues.none()).list(ALLOW_URLS))
                .containsExactly("https://elsewhere.example");
    }

    @Test
    void theAdministratorsSandboxIsAFloor() {
        SettingValues sandboxed = values(SANDBOX, true);
        assertThat(merged(values(SANDBOX, false), sandboxed).get(SANDBOX)).isTrue();
        assertThat(merged(values(SANDBOX, true), SettingValues.none()).get(SANDBOX)).isTrue();
        assertThat(merged(SettingValues.none(), values(SANDBOX, false)).get(SANDBOX)).isFalse();
    }

    @Test
    void anExplicitCopilotPathIgnoresTheDefaultInstallation() {
        SessionPlan merged = merged(values(COPILOT_PATH, "/opt/copilot"), ADMIN);

        assertThat(merged.get(COPILOT_PATH)).isEqualTo("/opt/copilot");
        assertThat(merged.get(INSTALLATION)).isNull();
    }

    @Test
    void listsEveryProblemAtOnce() {
        SettingValues bad = values(TIMEOUT, -1, OFFLINE, true, RESULT_WHEN_INCOMPLETE, "MAYBE", RESULT_WHEN_BLOCKED, "never",
                MAX_AUTOPILOT_CONTINUES, -2);

        assertThat(problems(bad, SettingValues.none())).containsExactlyInAnyOrder(
                "maxAutopilotContinues must be 0 or more, was -2.",
                "timeout must be 0 (no limit) or a number of minutes; was -1.",
                "offline needs your own model provider: set providerBaseUrl and model.",
                "resultWhenIncomplete must be FAILURE, UNSTABLE or SUCCESS; was 'MAYBE'.",
                "resultWhenBlocked must be FAILURE, UNSTABLE or SUCCESS; was 'never'.");
    }

    @Test
    void blankValuesCountAsUnset() {
        SessionPlan merged = merged(values(MODEL, "  ", CREDENTIALS_ID, "", ALLOW_TOOLS, List.of()), ADMIN);

        assertThat(merged.get(MODEL)).isEqualTo("gpt-admin");
        assertThat(merged.get(CREDENTIALS_ID)).isEqualTo("admin-token");
        assertThat(merged.list(ALLOW_TOOLS)).containsExactly("shell(mvn:*)");
    }

    @Test
    void githubTokenPrecedence() {
        SessionPlan stepCredential = merged(values(CREDENTIALS_ID, "mine"), ADMIN);
        SessionPlan defaultCredential = merged(SettingValues.none(), ADMIN);
        SessionPlan noCredential = merged(SettingValues.none(), SettingValues.none());
        Map<String, String> bound = Map.of("COPILOT_GITHUB_TOKEN", "x", "GITHUB_TOKEN", "y");
        Map<String, String> generic = Map.of("GITHUB_TOKEN", "y");

        assertThat(GithubTokenSource.of(stepCredential, bound).describe()).isEqualTo("credential 'mine'");
        assertThat(GithubTokenSource.of(defaultCredential, bound).describe()).isEqualTo("$COPILOT_GITHUB_TOKEN");
        assertThat(GithubTokenSource.of(defaultCredential, generic).describe()).isEqualTo("credential 'admin-token' (global default)");
        assertThat(GithubTokenSource.of(defaultCredential, generic).fromDefaults()).isTrue();
        assertThat(GithubTokenSource.of(noCredential, generic).describe()).isEqualTo("$GITHUB_TOKEN");
        assertThat(GithubTokenSource.of(noCredential, Map.of("GH_TOKEN", "a", "GITHUB_TOKEN", "b")).variable()).isEqualTo("GH_TOKEN");
        assertThat(GithubTokenSource.of(noCredential, Map.of("GH_TOKEN", " ")).isNone()).isTrue();
        assertThat(GithubTokenSource.of(noCredential, Map.of()).describe()).isEqualTo("none");
    }

    @Test
    void aPlanIsSerializableAndHoldsWhatWasGiven() throws Exception {
        SessionPlan plan = merged(values(VERIFY, "npm test", SESSION, "pr-42", TOOL_TIMEOUT, 3), ADMIN);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(plan);
        }
        SessionPlan read;
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            read = (SessionPlan) in.readObject();
        }
        assertThat(read.toString()).isEqualTo(plan.toString());
        assertThat(read.fromDefaults()).isEqualTo(plan.fromDefaults());
        assertThat(read.limit(TOOL_TIMEOUT)).isEqualTo(Duration.ofMinutes(3));
    }
}
