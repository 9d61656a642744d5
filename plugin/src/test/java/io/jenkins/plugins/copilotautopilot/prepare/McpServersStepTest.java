package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.Result;
import io.jenkins.plugins.copilotautopilot.core.journal.JournalFiles;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

/**
 * {@code mcpServers} in a Pipeline: a stdio MCP server of the tests' own gets its token from a Secret text credential
 * through {@code ${credentials:ID}}; the model calls its tool, which the console shows like any tool; the token is in
 * no console line, journal or file the build keeps, and the configuration file is gone with the session.
 */
@WithJenkins
@Timeout(240)
class McpServersStepTest {
    private static final String TOKEN = "tkt_plugin_5e4d3c2b1a0f";
    private static final Path SERVER = Path.of("../core/src/test/resources/mcp/tickets-server.mjs").toAbsolutePath().normalize();

    private static String config(String reference) {
        return "{\"tickets\": {\"command\": \"node\", \"args\": [\"" + SERVER + "\"], \"tools\": [\"*\"],"
                + " \"env\": {\"TICKETS_TOKEN\": \"" + reference + "\"}}}";
    }

    private static String pipeline(ScriptedModelServer model, String mcp) throws Exception {
        return "node {\n  copilotAutopilot prompt: 'Look JEN-42 up.', copilotPath: '" + TestCli.executable().path() + "', providerBaseUrl: '"
                + model.baseUrl() + "', model: 'fake-model', offline: true, allowTools: ['tickets'], mcpServers: '''" + mcp + "'''\n}";
    }

    private static final ScriptedModelServer.Script LOOKUP = request -> {
        if (!request.offers("tickets-lookup")) {
            return Reply.text("The tickets tool is missing.");
        }
        if (!request.used("tickets-lookup")) {
            return Reply.tool("tickets-lookup", Map.of("id", "JEN-42")).withText("Looking the ticket up.");
        }
        return request.used("task_complete") ? Reply.text("Done.") : Reply.taskComplete("JEN-42 is open.");
    };

    @Test
    void theServerGetsItsCredentialAndItsToolIsCalledAndTheSecretStaysHidden(JenkinsRule j) throws Exception {
        TestCredentials.addSecretText(j, "tickets-token", TOKEN);
        try (ScriptedModelServer model = ScriptedModelServer.start(LOOKUP)) {
            WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, pipeline(model, config("${credentials:tickets-token}"))));

            j.assertLogContains("[copilot] MCP servers: tickets (their tools are listed as server-tool)", b);
            j.assertLogContains("[copilot]   > tickets-lookup", b);
            j.assertLogContains("[copilot]   < tickets-lookup ok", b);
            j.assertLogNotContains(TOKEN, b);
            String journal = journal(b);
            assertThat(journal, containsString("authorised=true"));
            assertThat(journal, containsString("token used: ****"));
            assertThat(journal, not(containsString(TOKEN)));
            try (Stream<Path> files = Files.walk(b.getRootDir().toPath())) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    assertThat(f.toString(), new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1), not(containsString(TOKEN)));
                }
            }
            Path workspaces = Path.of(j.jenkins.getWorkspaceFor(b.getParent()).getParent().getRemote());
            try (Stream<Path> files = Files.walk(workspaces)) {
                assertThat("no configuration file is left behind",
                        files.filter(p -> p.getFileName().toString().equals("mcp-config.json")).toList().toString(), containsString("[]"));
            }
        }
    }

    @Test
    void aCredentialTheBuildCannotUseIsOneLine(JenkinsRule j) throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(LOOKUP)) {
            WorkflowRun b = j.assertBuildStatus(Result.FAILURE,
                    TestPipelines.create(j, pipeline(model, config("${credentials:nope}"))).scheduleBuild2(0));
            j.assertLogContains("copilotAutopilot: mcpServers: no Secret text credential with ID 'nope' that this build may use.", b);
            j.assertLogNotContains("Exception", b);

            WorkflowRun bad = j.assertBuildStatus(Result.FAILURE,
                    TestPipelines.create(j, pipeline(model, "{\"tickets\": {\"args\": []}}")).scheduleBuild2(0));
            j.assertLogContains("mcpServers: the server 'tickets' needs a \"command\" (a local server) or a \"url\".", bad);
        }
    }

    private static String journal(WorkflowRun b) throws Exception {
        SessionRecord session = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0);
        File file = new File(new File(b.getRootDir(), SessionFiles.FOLDER), session.getJournalFile());
        try (InputStream in = JournalFiles.open(file.toPath())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
