package io.jenkins.plugins.copilotautopilot.core.prepare;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import io.jenkins.plugins.copilotautopilot.core.build.GithubTokenSource;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.ReplayLauncher;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One step makes a session's plan and task: the files read, the secrets looked up, the restriction and tracing
 * applied, every problem gathered in one refusal; and the follower gets the plan as it was made.
 */
class SessionPreparationTest {
    private static final String TOKEN = "github_pat_preparation0123";
    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    private static final String SCHEMA = "{\"type\": \"object\", \"required\": [\"verdict\"]}";

    private final Map<String, String> workspace = new HashMap<>();
    private final Map<String, String> trusted = new HashMap<>();
    private final Map<String, String> credentials = new HashMap<>();
    private final Map<String, String> env = new HashMap<>(Map.of("GITHUB_TOKEN", TOKEN));
    private final List<String> read = new ArrayList<>();
    private List<String> console;

    private SessionPreparation.Prepared prepare(String prompt, Map<String, Object> settings, String restrictedFor, boolean traced,
                                                String... sensitive) throws Exception {
        return SessionPreparation.prepare(new SessionPreparation.Asked(prompt, SettingValues.of(settings), SettingValues.none()),
                new SessionPreparation.Situation(env, List.of(sensitive), restrictedFor, traced), new FakeLookups(), new StepWords());
    }

    @Test
    void theFollowerGetsThePlanAsItWasMade() throws Exception {
        workspace.put("schema.json", SCHEMA);
        trusted.put("schema.json", SCHEMA);
        env.put("DEPLOY_KEY", "deploy-secret-value");
        env.put("TRACEPARENT", TRACEPARENT);
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("outputSchema", "@schema.json");
        settings.put("allowAllTools", true);
        settings.put("timeout", 30);
        SessionPreparation.Prepared prepared = prepare("Review the change.", settings, "PR-7", true, "DEPLOY_KEY");

        SessionPlan plan = prepared.plan();
        assertThat(plan.get(OUTPUT_SCHEMA)).as("the schema's text, read from the trusted revision").isEqualTo(SCHEMA);
        assertThat(read).containsExactly("trusted:schema.json");
        assertThat(plan.list(SECRET_ENV_VARS)).containsExactly("DEPLOY_KEY");
        assertThat(plan.get(UNTRUSTED)).isTrue();
        assertThat(plan.get(ALLOW_ALL_TOOLS)).isFalse();
        assertThat(plan.get(OTEL)).as("the build is traced").isTrue();
        assertThat(prepared.notes()).containsExactly(new Note.Restricted("PR-7", List.of("allowAllTools")), new Note.Traced(),
                new Note.TokenSource("$GITHUB_TOKEN"));

        CliCommand command = CliCommandBuilder.build(plan, prepared.task(), new CliExecutable("/opt/copilot/copilot", "1.0.102"),
                "/work", "/tmp/copilot-autopilot-control", env);
        ByteArrayOutputStream journal = new ByteArrayOutputStream();
        AutopilotEngine.builder(new ListLogSink()).journalTo(journal).timings(Commands.FAST).build()
                .run(command, ReplayLauncher.ofCapture("cli-happy"));
        ObjectMapper json = new ObjectMapper();
        JsonNode started = json.readTree(journal.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow());
        ObjectNode made = json.createObjectNode();
        plan.values().forEach((name, value) -> made.set(name, json.valueToTree(value instanceof Duration d ? d.toSeconds() : value)));
        assertThat(started.path("data").path("plan").toString()).as("the plan the follower journaled").isEqualTo(made.toString());
        assertThat(command.plan()).isSameAs(plan);
    }

    @Test
    void everyProblemIsGatheredInOneRefusalEachInOneLine() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("promptFile", "task.md");
        settings.put("maxVerifyRounds", 99);
        settings.put("outputSchema", "@schema.json");
        settings.put("mcpServers", "{\"tickets\": {\"command\": \"node\", \"env\": {\"T\": \"${credentials:nope}\"}}}");
        settings.put("credentialsId", "gone");

        SessionPreparation.Refused refused = assertRefused(() -> prepare(null, settings, null, false));
        assertThat(refused.problems()).containsExactly(
                "missing task.md",
                "maxVerifyRounds must be from 1 to 10, was 99.",
                "missing schema.json",
                "mcpServers: no credential nope",
                "credentialsId: no credential gone");
        assertThat(refused.credentialsOnly()).isFalse();
        assertThat(refused.notes()).isEmpty();
    }

    @Test
    void aKeptSessionIsLoadedOnlyForASessionThatIsNotRefused() throws Exception {
        assertRefused(() -> prepare("x", Map.of("session", "fixes", "maxVerifyRounds", 99), null, false));
        assertRefused(() -> prepare(" ", Map.of("session", "fixes"), null, false));
        env.clear();
        assertRefused(() -> prepare("x", Map.of("session", "fixes"), null, false));
        assertThat(read).as("loading one says it continues it, and drops one that expired").isEmpty();

        env.put("GITHUB_TOKEN", TOKEN);
        prepare("x", Map.of("session", "fixes"), null, false);
        assertThat(read).containsExactly("kept:fixes");
    }

    @Test
    void theTaskIsFromItsFileOrItsPromptNeverBothAndItsRulesAreCheckedOnce() throws Exception {
        workspace.put("task.md", "Fix the build.");
        SessionPreparation.Prepared fromFile = prepare(null, Map.of("promptFile", "task.md"), null, false);
        assertThat(fromFile.task().prompt()).isEqualTo("Fix the build.");
        assertThat(fromFile.notes()).startsWith(new Note.TaskFromFile("task.md", 14, false));

        assertThat(assertRefused(() -> prepare("y", Map.of("promptFile", "task.md"), null, false)).problems())
                .containsExactly("Give the task as prompt or as promptFile, not both.");
        assertThat(assertRefused(() -> prepare(" ", Map.of(), null, false)).problems())
                .containsExactly("The prompt is empty: give the agent a task.");
        assertThat(assertRefused(() -> prepare("a\0b", Map.of("outputSchema", "{nope"), null, false)).problems())
                .as("the task first, as a user reads the step").satisfiesExactly(
                        p -> assertThat(p).isEqualTo("The prompt contains a NUL character, which the CLI cannot take as text."),
                        p -> assertThat(p).startsWith("outputSchema is not JSON: "));
    }

    @Test
    void aRestrictedSessionReadsItsTaskFromTheTrustedRevisionAndNeverItsMcpServers() throws Exception {
        workspace.put("task.md", "the author's task");
        trusted.put("task.md", "the trusted task");
        Map<String, Object> settings = Map.of("promptFile", "task.md", "mcpServers", "@mcp.json", "toolSecrets", List.of("NPM_TOKEN"));
        SessionPreparation.Prepared prepared = prepare(null, settings, "PR-7", false);
        assertThat(prepared.task().prompt()).isEqualTo("the trusted task");
        assertThat(prepared.task().mcpServers()).isNull();
        assertThat(read).containsExactly("trusted:task.md");
        assertThat(prepared.plan().get(MCP_SERVERS)).isNull();
        assertThat(prepared.notes()).containsExactly(new Note.TaskFromFile("task.md", 16, true),
                new Note.Restricted("PR-7", List.of("toolSecrets", "mcpServers")), new Note.TokenSource("$GITHUB_TOKEN"));
    }

    @Test
    void mcpServersGetTheirSecretsAndTheCallersNameForTheSetting() throws Exception {
        credentials.put("jira", "jira-secret-value");
        env.put("TICKETS", "tickets-secret-value");
        SessionPreparation.Prepared prepared = prepare("x", Map.of("mcpServers",
                "{\"t\": {\"command\": \"node\", \"env\": {\"A\": \"${credentials:jira}\", \"B\": \"${env:TICKETS}\"}}}"), null, false);
        assertThat(prepared.task().mcpServers().secretValues()).containsExactly("jira-secret-value", "tickets-secret-value");
        assertThat(prepared.mcpReferences()).containsExactly("credentials:jira", "env:TICKETS");

        env.remove("TICKETS");
        assertThat(assertRefused(() -> prepare("x", Map.of("mcpServers", "{\"t\": {\"args\": []}}"), null, false)).problems())
                .containsExactly("mcpServers: the server 't' needs a \"command\" (a local server) or a \"url\".");
    }

    @Test
    void missingOrRefusedCredentialsAreTheirOwnKindOfRefusal() {
        env.clear();
        SessionPreparation.Refused none = assertRefused(() -> prepare("x", Map.of(), null, false));
        assertThat(none.problems()).containsExactly("no credentials: set credentialsId");
        assertThat(none.credentialsOnly()).isTrue();

        env.put("GH_TOKEN", "ghp_classic0123456789");
        assertThat(assertRefused(() -> prepare("x", Map.of(), null, false)).problems()).singleElement().asString()
                .startsWith("The GitHub token in $GH_TOKEN is a classic personal access token (ghp_...)");

        env.clear();
        SessionPreparation.Refused settingsWrong = assertRefused(() -> prepare("x", Map.of("providerBaseUrl", "ftp://h", "model", "m"), null, false));
        assertThat(settingsWrong.problems()).as("the provider set wrong is the problem, not the missing token")
                .containsExactly("providerBaseUrl must be an http:// or https:// URL, was 'ftp://h'.");
    }

    @Test
    void theConsoleFollowsTheTaskMaskedAndTheNotesSayWhatWasDone() throws Exception {
        env.put("NPM_TOKEN", "npm-secret-value");
        console = List.of("the token is " + TOKEN, "npm uses npm-secret-value", "[copilot] a line of the plugin's own", "FAIL");
        SessionPreparation.Prepared prepared = prepare("Why did it fail?", Map.of("includeBuildLog", 10,
                "toolSecrets", List.of("NPM_TOKEN", "UNSET_ONE")), null, false);
        assertThat(prepared.task().prompt()).startsWith("Why did it fail?").contains("the token is ****", "npm uses ****", "FAIL")
                .doesNotContain(TOKEN, "npm-secret-value", "plugin's own");
        assertThat(prepared.notes()).containsExactly(new Note.ToolSecretUnset("UNSET_ONE"), new Note.BuildLogIncluded(3, 1),
                new Note.TokenSource("$GITHUB_TOKEN"));
    }

    private static SessionPreparation.Refused assertRefused(Preparing preparing) {
        try {
            preparing.run();
        } catch (SessionPreparation.Refused e) {
            return e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("prepared, not refused");
    }

    private interface Preparing {
        void run() throws Exception;
    }

    /** Files, credentials and a console held in the test's maps; each file read is noted. */
    private final class FakeLookups implements Lookups {
        @Override
        public InlineOrFile.Files files(Setting<String> setting, boolean trustedRevision) {
            Map<String, String> files = trustedRevision ? trusted : workspace;
            return (name, maxBytes) -> {
                read.add((trustedRevision ? "trusted:" : "workspace:") + name);
                String text = files.get(name);
                return text == null ? new InlineOrFile.Missing() : new InlineOrFile.Bytes(text.getBytes(StandardCharsets.UTF_8), text.length());
            };
        }

        @Override
        public String credential(String id, String parameter) throws Unusable {
            String value = credentials.get(id);
            if (value == null) {
                throw new Unusable(parameter + ": no credential " + id);
            }
            return value;
        }

        @Override
        public String providerApiKey(String credentialsId) throws Unusable {
            return credentialsId == null ? null : credential(credentialsId, "providerCredentialsId");
        }

        @Override
        public byte[] keptState(String name) {
            read.add("kept:" + name);
            return null;
        }

        @Override
        public String mcpServersJson(String text) {
            return text;
        }

        @Override
        public Console console() {
            return console == null ? null : new Console() {
                @Override
                public List<String> lastLines(int count) {
                    return console;
                }

                @Override
                public String name() {
                    return "the test's build";
                }
            };
        }
    }

    /** Settings by the step's parameter names; a file's problem says only that it is missing. */
    private static final class StepWords implements Wording {
        @Override
        public String name(Setting<?> setting) {
            return setting.name();
        }

        @Override
        public InlineOrFile.Wording file(Setting<String> setting) {
            return InlineOrFileTest.Words.INSTANCE;
        }

        @Override
        public String tokenSource(GithubTokenSource source) {
            return source.describe();
        }

        @Override
        public String noCredentials() {
            return "no credentials: set credentialsId";
        }
    }
}
