package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.plan.InvalidSettingsException;
import io.jenkins.plugins.copilotautopilot.core.command.McpServers;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MCP servers: a stdio server of the tests' own, started by the real CLI 1.0.102 from the session's configuration,
 * gets its secret through a reference, and its tool call shows in the log like any tool's; the secret appears in no
 * log line, journal or command line, and the file that held it is gone with the control folder.
 */
class McpServersTest {
    static final String TOKEN = "tkt_9f8e7d6c5b4a39281706";

    /** The configuration the tests use: the tickets server, its token from a reference. */
    public static String config(String reference) {
        Path server = Path.of("src/test/resources/mcp/tickets-server.mjs").toAbsolutePath();
        return "{\"mcpServers\": {\"tickets\": {\"type\": \"local\", \"command\": \"node\", \"args\": [\"" + server + "\"],"
                + " \"tools\": [\"*\"], \"env\": {\"TICKETS_TOKEN\": \"" + reference + "\"}}}}";
    }

    @Test
    void theModelCallsTheServersToolWhichGetsItsSecretAndTheSecretIsMaskedEverywhere() throws Exception {
        McpServers.Resolved servers = McpServers.resolve(config("${env:TICKETS_TOKEN}"), Map.of("env:TICKETS_TOKEN", TOKEN));
        E2eRun run = E2eRun.with(request -> {
                    if (!request.offers("tickets-lookup")) {
                        return Reply.text("The tickets tool is missing.");
                    }
                    if (!request.used("tickets-lookup")) {
                        return Reply.tool("tickets-lookup", Map.of("id", "JEN-42")).withText("Looking the ticket up.");
                    }
                    return request.used("task_complete") ? Reply.text("Done.") : Reply.taskComplete("JEN-42 is open.");
                })
                .options(o -> o.mcpServers(servers).add(ALLOW_TOOLS, "tickets"))
                .run();

        assertThat(run.result.outcome()).as(run.log.lines().toString()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.log.lines()).contains("[copilot] MCP servers: tickets (their tools are listed as server-tool)")
                .noneMatch(l -> l.contains("COPILOT_AUTOPILOT_MCP_SECRET"));
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot]   > tickets-lookup"));
        assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot]   < tickets-lookup ok"));
        assertThat(run.journalText()).contains("authorised=true").contains("token used: ****").doesNotContain(TOKEN);
        assertThat(String.join("\n", run.log.lines())).doesNotContain(TOKEN);
        // the tool's answer reached the model; CLI 1.0.102 passes an MCP tool's output on as it is (measured: a server
        // that prints its secret shows it to the model, whatever --secret-env-vars says), which the README states
        assertThat(run.server.requests().toString()).contains("authorised=true");
        assertThat(java.nio.file.Path.of(run.command.launchFolder())).doesNotExist();
        assertThat(run.command.commandLine().toString()).doesNotContain(TOKEN);
    }

    /** A variable whose value went to an MCP server is a secret: the agent's shell does not get it (CLI 1.0.102 hid it only when named). */
    @Test
    void aVariableHandedToAnMcpServerIsHiddenFromTheAgentsTools() throws Exception {
        McpServers.Resolved servers = McpServers.resolve(config("${env:TICKETS_TOKEN}"), Map.of("env:TICKETS_TOKEN", TOKEN));
        E2eRun run = E2eRun.with(io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts.bashThenComplete(
                        "echo \"token=[$TICKETS_TOKEN]\"", "Looked."))
                .environment("TICKETS_TOKEN", TOKEN)
                .options(o -> o.mcpServers(servers).set(ALLOW_ALL_TOOLS, true))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.command.hiddenFromTools()).contains("TICKETS_TOKEN");
        assertThat(run.journalText()).contains("token=[]").doesNotContain("token=[****]").doesNotContain(TOKEN);
        assertThat(run.server.requests().toString()).contains("token=[]").doesNotContain(TOKEN);
    }

    @Test
    void aConfigurationThatCannotRunIsOneLine() {
        assertThatThrownBy(() -> McpServers.references("{\"tickets\": {\"command\": \"node\","))
                .isInstanceOf(InvalidSettingsException.class).hasMessageStartingWith("mcpServers is not valid JSON: ");
        assertThatThrownBy(() -> McpServers.references("{\"tickets\": {\"args\": []}}"))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessage("mcpServers: the server 'tickets' needs a \"command\" (a local server) or a \"url\".");
        assertThatThrownBy(() -> McpServers.resolve(config("${credentials:jira}"), Map.of()))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessage("mcpServers refers to credentials:jira, which has no value here (a credential this build may not use,"
                        + " or a variable it does not set).");
    }

    @Test
    void referencesAreFoundAndReplacedInEnvironmentsHeadersAndArguments() {
        String text = "{\"jira\": {\"type\": \"http\", \"url\": \"https://jira.example.com/mcp\","
                + " \"headers\": {\"Authorization\": \"Bearer ${credentials:jira-token}\"}},"
                + " \"local\": {\"command\": \"tool\", \"args\": [\"--key=${env:KEY}\"]}}";
        assertThat(McpServers.references(text)).containsExactly("credentials:jira-token", "env:KEY");
        McpServers.Resolved resolved = McpServers.resolve(text, Map.of("credentials:jira-token", "jira-s3cret", "env:KEY", "k-1"));
        assertThat(resolved.json()).startsWith("{\"mcpServers\":{").contains("\"Bearer jira-s3cret\"").contains("\"--key=k-1\"");
        assertThat(resolved.secretValues()).containsExactly("jira-s3cret", "k-1");
        assertThat(resolved.servers()).containsExactly("jira", "local");
        assertThat(resolved.variables()).containsExactly("KEY");
        assertThat(resolved.toString()).doesNotContain("jira-s3cret");
    }
}
