package io.jenkins.plugins.copilotautopilot.session;

import io.jenkins.plugins.copilotautopilot.Messages;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.model.Run;
import io.jenkins.plugins.copilotautopilot.core.plan.InvalidSettingsException;
import io.jenkins.plugins.copilotautopilot.core.command.McpServers;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * {@code mcpServers}: the MCP servers' configuration as the step gives it (JSON or YAML text, or {@code @file} in the
 * workspace holding either), its {@code ${credentials:ID}} references looked up as Secret text credentials with the build's identity
 * and its {@code ${env:NAME}} ones in the build's environment; one line for every way that fails.
 */
final class McpServersSetting {
    /** The most a configuration file may hold. */
    static final int MAX_BYTES = 256 * 1024;

    private McpServersSetting() {
    }

    /** The configuration as JSON: the setting itself, or the file it names with {@code @}; call within a time limit. */
    static String text(String setting, FilePath workspace) throws IOException, InterruptedException {
        if (!setting.startsWith("@")) {
            return asJson(setting);
        }
        String name = setting.substring(1).strip();
        FilePath file = workspace.child(name);
        if (!file.exists() || file.isDirectory()) {
            throw new AbortException(Messages.McpServersSetting_Missing(name, workspace.getRemote()));
        }
        byte[] bytes;
        try (InputStream in = file.read()) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        }
        if (bytes.length > MAX_BYTES) {
            throw new AbortException(Messages.McpServersSetting_TooLarge(name, MAX_BYTES));
        }
        return asJson(new String(bytes, StandardCharsets.UTF_8));
    }

    /** JSON as it is; anything else read as YAML (safe types only: maps, lists, scalars) and written as JSON. */
    static String asJson(String text) throws AbortException {
        if (text.strip().startsWith("{")) {
            return text;
        }
        try {
            Object yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
            return new ObjectMapper().writeValueAsString(yaml);
        } catch (YAMLException | JsonProcessingException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw new AbortException(Messages.McpServersSetting_NotYaml(why));
        }
    }

    /** The references of a configuration, e.g. {@code credentials:jira-token}; kept to mask their values after a restart. */
    static List<String> references(String text) throws AbortException {
        try {
            return new ArrayList<>(McpServers.references(text));
        } catch (InvalidSettingsException e) {
            throw new AbortException(Messages.SessionInputs_InvalidOptions(String.join(" ", e.problems())));
        }
    }

    /** The values of {@code references}: credentials as the build may use them, variables of {@code env}. */
    static Map<String, String> values(List<String> references, Run<?, ?> run, EnvVars env) throws AbortException {
        Map<String, String> values = new HashMap<>();
        for (String reference : references) {
            String id = reference.substring(reference.indexOf(':') + 1);
            if (reference.startsWith("credentials:")) {
                values.put(reference, StringCredentialLookup.secret(run, id, "mcpServers"));
            } else if (env.get(id) != null) {
                values.put(reference, env.get(id));
            }
        }
        return values;
    }

    /** The configuration with its references put in. */
    static McpServers.Resolved resolve(String text, Run<?, ?> run, EnvVars env) throws AbortException {
        List<String> references = references(text);
        try {
            return McpServers.resolve(text, values(references, run, env));
        } catch (InvalidSettingsException e) {
            throw new AbortException(Messages.SessionInputs_InvalidOptions(String.join(" ", e.problems())));
        }
    }
}
