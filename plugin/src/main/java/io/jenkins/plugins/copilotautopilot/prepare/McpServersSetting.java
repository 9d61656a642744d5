package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.Messages;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.prepare.Unusable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * {@code mcpServers}: the MCP servers' configuration as the step gives it, JSON or YAML text, or {@code @file} in the
 * workspace holding either; one line for every way its file fails. Its {@code ${credentials:ID}} and {@code ${env:NAME}}
 * references are the preparation's to put in (core {@code SessionPreparation}).
 */
final class McpServersSetting extends FileWording {
    McpServersSetting(String workspace) {
        super("mcpServers", workspace);
    }

    @Override
    public String missing(String name) {
        return Messages.McpServersSetting_Missing(name, workspace());
    }

    @Override
    public String tooLarge(String name, long bytes, int maxBytes) {
        return Messages.McpServersSetting_TooLarge(name, maxBytes);
    }

    @Override
    String reading(String name, String node) {
        return Messages.SessionInputs_ReadingMcpServers(node);
    }

    @Override
    String instead() {
        return Messages.McpServersSetting_Instead();
    }

    @Override
    String what() {
        return Messages.McpServersSetting_What();
    }

    /** JSON as it is; anything else read as YAML (safe types only: maps, lists, scalars) and written as JSON. */
    static String asJson(String text) throws Unusable {
        if (text.strip().startsWith("{")) {
            return text;
        }
        try {
            Object yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
            return new ObjectMapper().writeValueAsString(yaml);
        } catch (YAMLException | JsonProcessingException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw new Unusable(Messages.McpServersSetting_NotYaml(why));
        }
    }
}
