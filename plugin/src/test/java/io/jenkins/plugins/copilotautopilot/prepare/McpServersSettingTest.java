package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.core.command.McpServers;
import io.jenkins.plugins.copilotautopilot.core.prepare.Unusable;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code mcpServers} as YAML: read with safe types only and handed on as the CLI's JSON. */
class McpServersSettingTest {
    @Test
    void yamlBecomesTheClisJsonWithItsReferencesKept() throws Exception {
        String yaml = String.join("\n",
                "tickets:",
                "  command: node",
                "  args: [tools/tickets.mjs]",
                "  env:",
                "    TICKETS_TOKEN: ${credentials:tickets-token}",
                "jira:",
                "  type: http",
                "  url: https://jira.example.com/mcp",
                "  headers:",
                "    Authorization: Bearer ${credentials:jira-token}");
        String json = McpServersSetting.asJson(yaml);
        assertThat(McpServers.references(json), contains("credentials:tickets-token", "credentials:jira-token"));
        McpServers.Resolved resolved = McpServers.resolve(json, Map.of("credentials:tickets-token", "t-1", "credentials:jira-token", "j-2"));
        assertThat(resolved.servers(), contains("tickets", "jira"));
        assertThat(resolved.json(), startsWith("{\"mcpServers\":{\"tickets\":{\"command\":\"node\",\"args\":[\"tools/tickets.mjs\"],"));
        assertEquals("{\"a\": 1}", McpServersSetting.asJson("{\"a\": 1}"), "JSON is taken as it is");
    }

    @Test
    void yamlThatCannotBeReadIsOneLineAndUnsafeTypesAreRefused() {
        Unusable bad = assertThrows(Unusable.class, () -> McpServersSetting.asJson("tickets: [unclosed"));
        assertThat(bad.getMessage(), startsWith("mcpServers is neither a JSON object nor YAML: "));
        assertThrows(Unusable.class, () -> McpServersSetting.asJson("x: !!java.io.File [\"/etc/passwd\"]"));
    }
}
