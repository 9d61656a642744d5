package io.jenkins.plugins.copilotautopilot.core.testing;

import io.jenkins.plugins.copilotautopilot.core.command.McpServers;
import io.jenkins.plugins.copilotautopilot.core.command.SessionTask;
import io.jenkins.plugins.copilotautopilot.core.plan.PlanDraft;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import java.util.ArrayList;
import java.util.List;

/**
 * A test's session: settings as a step would give them ({@link #set}, {@link #add}) and the task beside them (its text,
 * credentials, MCP servers, a kept state), made into the {@link SessionPlan} and {@link SessionTask} a command is
 * built from.
 */
public final class TaskSpec {
    private SettingValues values = SettingValues.none();
    private SessionTask task;
    private boolean untrusted;

    private TaskSpec(String prompt) {
        this.task = SessionTask.of(prompt);
    }

    public static TaskSpec of(String prompt) {
        return new TaskSpec(prompt);
    }

    /** Sets a setting as a step would (null: unset). */
    public TaskSpec set(Setting<?> setting, Object value) {
        values = values.with(setting, value);
        return this;
    }

    /** Adds an entry to a list setting. */
    @SuppressWarnings("unchecked")
    public TaskSpec add(Setting<ArrayList<String>> setting, String entry) {
        Object now = values.raw(setting);
        List<Object> list = now == null ? new ArrayList<>() : new ArrayList<>((List<Object>) now);
        list.add(entry);
        values = values.with(setting, list);
        return this;
    }

    public TaskSpec prompt(String value) {
        task = task.withPrompt(value);
        return this;
    }

    public TaskSpec githubToken(String value) {
        task = task.withGithubToken(value);
        return this;
    }

    /** An own model provider: its settings, and its API key beside them. */
    public TaskSpec provider(String baseUrl, String type, String apiKey, String wireApi, boolean offline) {
        set(SessionSettings.PROVIDER_BASE_URL, baseUrl).set(SessionSettings.PROVIDER_TYPE, type)
                .set(SessionSettings.PROVIDER_WIRE_API, wireApi).set(SessionSettings.OFFLINE, offline ? Boolean.TRUE : null);
        task = task.withProviderApiKey(apiKey);
        return this;
    }

    public TaskSpec mcpServers(McpServers.Resolved value) {
        task = task.withMcpServers(value);
        return this;
    }

    public TaskSpec keptState(byte[] value) {
        task = task.withKeptState(value);
        return this;
    }

    /** As a build of a change request whose author is not trusted ({@link PlanDraft#restrictForUntrusted()}). */
    public TaskSpec untrusted() {
        this.untrusted = true;
        return this;
    }

    /** The settings as given, before they are read. */
    public SettingValues values() {
        return values;
    }

    /** The plan; a problem with the settings is thrown. */
    public SessionPlan plan() {
        SessionPlan plan = SessionPlan.of(values);
        if (!untrusted) {
            return plan;
        }
        PlanDraft draft = new PlanDraft(plan);
        draft.restrictForUntrusted();
        return draft.make();
    }

    /** What is wrong with the settings, the step's parameter names in the messages. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>(task.problems());
        problems.addAll(SessionPlan.resolve(values, SettingValues.none()).problems().messages());
        return problems;
    }

    public SessionTask task() {
        return task;
    }
}
