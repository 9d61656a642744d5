package io.jenkins.plugins.copilotautopilot.core.command;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What travels beside a session's {@link io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan} and never in it:
 * the task's text, the credentials (a GitHub token, the provider's API key), the MCP servers' configuration with its
 * secrets put in, and the state of a session an earlier run kept. Never written anywhere but the launch files, which
 * the launch script deletes once read; {@link #toString()} shows none of it.
 */
public final class SessionTask {
    private final String prompt;
    private final String githubToken;
    private final String providerApiKey;
    private final McpServers.Resolved mcpServers;
    private final byte[] keptState;

    private SessionTask(String prompt, String githubToken, String providerApiKey, McpServers.Resolved mcpServers, byte[] keptState) {
        this.prompt = prompt;
        this.githubToken = blankToNull(githubToken);
        this.providerApiKey = blankToNull(providerApiKey);
        this.mcpServers = mcpServers;
        this.keptState = keptState;
    }

    /** A task with nothing beside its text. */
    public static SessionTask of(String prompt) {
        return new SessionTask(prompt, null, null, null, null);
    }

    public String prompt() {
        return prompt;
    }

    /** The GitHub token for GitHub-hosted models, or null. */
    public String githubToken() {
        return githubToken;
    }

    /** The own model provider's API key, or null. */
    public String providerApiKey() {
        return providerApiKey;
    }

    /** The MCP servers the session adds, resolved (they may hold secrets: never logged), or null. */
    public McpServers.Resolved mcpServers() {
        return mcpServers;
    }

    /** The packed state of a session an earlier run kept, which this one continues, or null (a new session). */
    public byte[] keptState() {
        return keptState;
    }

    public SessionTask withPrompt(String value) {
        return new SessionTask(value, githubToken, providerApiKey, mcpServers, keptState);
    }

    public SessionTask withGithubToken(String value) {
        return new SessionTask(prompt, value, providerApiKey, mcpServers, keptState);
    }

    public SessionTask withProviderApiKey(String value) {
        return new SessionTask(prompt, githubToken, value, mcpServers, keptState);
    }

    public SessionTask withMcpServers(McpServers.Resolved value) {
        return new SessionTask(prompt, githubToken, providerApiKey, value, keptState);
    }

    public SessionTask withKeptState(byte[] value) {
        return new SessionTask(prompt, githubToken, providerApiKey, mcpServers, value);
    }

    /** The secret values the task carries (the token, the API key, the MCP servers'). */
    public List<String> secretValues() {
        List<String> values = new ArrayList<>();
        if (githubToken != null) {
            values.add(githubToken);
        }
        if (providerApiKey != null) {
            values.add(providerApiKey);
        }
        if (mcpServers != null) {
            values.addAll(mcpServers.secretValues());
        }
        return values;
    }

    /** What is wrong with the task's text: empty, a NUL, too long; empty when it can run. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (prompt == null || prompt.isBlank()) {
            problems.add("The prompt is empty: give the agent a task.");
            return problems;
        }
        if (prompt.indexOf('\0') >= 0) {
            problems.add("The prompt contains a NUL character, which the CLI cannot take as text.");
        }
        int bytes = prompt.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > SessionSettings.MAX_PROMPT_BYTES) {
            problems.add("The prompt is " + bytes + " bytes long; the limit is " + SessionSettings.MAX_PROMPT_BYTES + " bytes (1 MiB).");
        }
        return problems;
    }

    @Override
    public String toString() {
        return "SessionTask[prompt=" + (prompt == null ? null : prompt.length() + " chars") + ", githubToken="
                + (githubToken == null ? "none" : "****") + ", providerApiKey=" + (providerApiKey == null ? "none" : "****")
                + ", mcpServers=" + mcpServers + ", keptState=" + (keptState == null ? "none" : keptState.length + " bytes") + "]";
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
