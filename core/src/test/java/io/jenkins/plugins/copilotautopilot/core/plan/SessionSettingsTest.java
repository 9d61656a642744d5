package io.jenkins.plugins.copilotautopilot.core.plan;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.command.SessionTask;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the catalog's kinds refuse, how problems are named, and what a task and a plan never show. */
class SessionSettingsTest {
    @Test
    void validSettingsHaveNoProblems() {
        assertThat(TaskSpec.of("Fix the test").githubToken("github_pat_x123").set(MAX_AUTOPILOT_CONTINUES, 0).problems()).isEmpty();
    }

    @Test
    void everyProblemIsNamedClearly() {
        TaskSpec bad = TaskSpec.of(" ")
                .set(MAX_AUTOPILOT_CONTINUES, -1)
                .set(TIMEOUT, Duration.ofSeconds(-1))
                .set(INACTIVITY_TIMEOUT, Duration.ofSeconds(-5))
                .add(ALLOW_TOOLS, "")
                .add(DENY_TOOLS, "shell(rm)\nwrite")
                .add(SECRET_ENV_VARS, "NOT-A-NAME")
                .provider("ftp://example.org", "gemini", "key1234", "grpc", false);
        // the task's problems first, then the settings' in the catalog's order
        assertThat(bad.problems()).containsExactly(
                "The prompt is empty: give the agent a task.",
                "allowTools: entry 1 is empty.",
                "denyTools: entry 1 contains a line break or control character.",
                "maxAutopilotContinues must be 0 or more, was -1.",
                "timeout must be positive, was -1 seconds.",
                "inactivityTimeout must be positive, was -5 seconds.",
                "secretEnvVars: 'NOT-A-NAME' is not an environment variable name.",
                "providerBaseUrl must be an http:// or https:// URL, was 'ftp://example.org'.",
                "providerType must be one of openai, azure, anthropic; was 'gemini'.",
                "providerWireApi must be completions or responses; was 'grpc'.",
                "An own model provider (providerBaseUrl) needs a model: set model to the provider's model name.");
        assertThatThrownBy(bad::plan).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("maxAutopilotContinues must be 0 or more");
    }

    @Test
    void eachProblemSaysWhichSettingItIsAboutAndCallersNameIt() {
        TaskSpec bad = TaskSpec.of("x")
                .set(MAX_AUTOPILOT_CONTINUES, -1)
                .set(INACTIVITY_TIMEOUT, -3)
                .add(ADD_DIRS, " ")
                .provider("http://127.0.0.1:1/v1", null, null, "grpc", false);
        Problems problems = SessionPlan.resolve(bad.values(), SettingValues.none()).problems();
        assertThat(problems.all()).extracting(Problems.Problem::setting).containsExactly(MAX_AUTOPILOT_CONTINUES,
                INACTIVITY_TIMEOUT, ADD_DIRS, PROVIDER_WIRE_API, MODEL);
        assertThat(problems.messages(s -> "--" + s.name().replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT)))
                .containsExactly(
                        "--max-autopilot-continues must be 0 or more, was -1.",
                        "--inactivity-timeout must be 0 (no limit) or a number of minutes; was -3.",
                        "--add-dirs: entry 1 is empty.",
                        "--provider-wire-api must be completions or responses; was 'grpc'.",
                        "An own model provider (--provider-base-url) needs a model: set --model to the provider's model name.");
        assertThat(problems.all().get(0).message(Setting::name)).isEqualTo("maxAutopilotContinues must be 0 or more, was -1.");
        assertThat(problems.messages()).isEqualTo(problems.messages(Setting::name));
    }

    @Test
    void promptsThatCannotBeTakenAreRefused() {
        assertThat(SessionTask.of("a\0b").problems())
                .containsExactly("The prompt contains a NUL character, which the CLI cannot take as text.");
        assertThat(SessionTask.of("x".repeat(1024 * 1024 + 1)).problems())
                .containsExactly("The prompt is 1048577 bytes long; the limit is 1048576 bytes (1 MiB).");
        // far longer than one command-line argument may be: the task goes to the CLI's standard input
        assertThat(SessionTask.of("x".repeat(200_000)).problems()).isEmpty();
    }

    @Test
    void secretsNeverShowInToStringAndNeverInThePlan() {
        TaskSpec spec = TaskSpec.of("task").githubToken("github_pat_secret_abc")
                .provider("http://127.0.0.1:1/v1", null, "sk-secret-key", null, true).set(MODEL, "m");
        assertThat(spec.task().toString()).doesNotContain("github_pat_secret_abc").doesNotContain("sk-secret-key");
        assertThat(spec.task().secretValues()).containsExactly("github_pat_secret_abc", "sk-secret-key");
        assertThat(spec.plan().toString()).doesNotContain("github_pat_secret_abc").doesNotContain("sk-secret-key");
    }

    @Test
    void aPlanKeepsEveryValueThroughItsValues() {
        SessionPlan plan = TaskSpec.of("task").set(MODEL, "m").set(ALLOW_ALL_TOOLS, true).add(ALLOW_TOOLS, "write")
                .add(DENY_TOOLS, "shell(rm)").add(ADD_DIRS, "/data").add(SECRET_ENV_VARS, "K").set(MAX_AUTOPILOT_CONTINUES, 3)
                .set(TIMEOUT, Duration.ofMinutes(5)).set(INACTIVITY_TIMEOUT, 0).plan();
        assertThat(SessionPlan.of(SettingValues.of(plan.values())).toString()).isEqualTo(plan.toString());
        assertThat(plan.limit(INACTIVITY_TIMEOUT)).as("0 minutes: no limit").isNull();
        assertThat(plan.limit(TIMEOUT)).isEqualTo(Duration.ofMinutes(5));
        assertThat(plan.list(DENY_TOOLS)).isEqualTo(List.of("shell(rm)"));
    }
}
