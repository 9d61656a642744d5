package io.jenkins.plugins.copilotautopilot.core.plan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A plan being completed with what only the session's preparation knows, before anything reads it: the schema's text
 * read from its file, the build's secret variables, the restriction of an untrusted change request, tracing. {@link
 * #make()} gives the plan once; the draft takes no change after that. Only the preparation ({@code core.prepare})
 * completes plans (ArchitectureTest).
 */
public final class PlanDraft {
    private SessionPlan plan;
    private boolean made;

    /** A draft of a plan as its settings resolved ({@link SessionPlan#resolve}). */
    public PlanDraft(SessionPlan resolved) {
        this.plan = resolved;
    }

    /** The plan as completed so far, to read from while completing it. */
    public SessionPlan current() {
        return plan;
    }

    /** {@code outputSchema} as its text: the file it named, read. */
    public void schemaText(String text) {
        set(SessionSettings.OUTPUT_SCHEMA, text);
    }

    /** Adds variables whose values are secrets to {@code secretEnvVars}: masked, hidden from the tools. */
    public void addSecretVariables(Collection<String> names) {
        Set<String> all = new LinkedHashSet<>(plan.list(SessionSettings.SECRET_ENV_VARS));
        if (all.addAll(names)) {
            set(SessionSettings.SECRET_ENV_VARS, new ArrayList<>(all));
        }
    }

    /** Keeps the CLI's spans under the build's trace ({@code otel}). */
    public void traced() {
        set(SessionSettings.OTEL, true);
    }

    /**
     * Restricts the plan for a build of a change request whose author is not trusted: no {@code allowAllTools} or
     * {@code allowAllPaths}, no write tools ({@code write} denied, and left out of the allowed ones), no tool secrets, no
     * MCP servers (the CLI's built-in GitHub one neither: it acts with the token), and {@link SessionSettings#UNTRUSTED}.
     *
     * @return the settings taken away, by name, in form order
     */
    public List<String> restrictForUntrusted() {
        List<String> removed = new ArrayList<>();
        if (plan.get(SessionSettings.ALLOW_ALL_TOOLS)) {
            removed.add("allowAllTools");
        }
        if (plan.get(SessionSettings.ALLOW_ALL_PATHS)) {
            removed.add("allowAllPaths");
        }
        ArrayList<String> allowed = new ArrayList<>();
        for (String tool : plan.list(SessionSettings.ALLOW_TOOLS)) {
            if (isWriteTool(tool)) {
                removed.add("allowTools " + tool);
            } else {
                allowed.add(tool);
            }
        }
        ArrayList<String> denied = new ArrayList<>(plan.list(SessionSettings.DENY_TOOLS));
        if (denied.stream().noneMatch(t -> t.strip().equals("write"))) {
            denied.add("write");
        }
        if (!plan.list(SessionSettings.TOOL_SECRETS).isEmpty()) {
            removed.add("toolSecrets");
        }
        if (plan.get(SessionSettings.MCP_SERVERS) != null) {
            removed.add("mcpServers");
        }
        set(SessionSettings.UNTRUSTED, true);
        set(SessionSettings.ALLOW_ALL_TOOLS, false);
        set(SessionSettings.ALLOW_ALL_PATHS, false);
        set(SessionSettings.ALLOW_TOOLS, allowed.isEmpty() ? null : allowed);
        set(SessionSettings.DENY_TOOLS, denied);
        set(SessionSettings.TOOL_SECRETS, null);
        set(SessionSettings.MCP_SERVERS, null);
        set(SessionSettings.GITHUB_MCP_SERVER, false);
        return removed;
    }

    /** The plan, complete; the draft takes no change after this. */
    public SessionPlan make() {
        made = true;
        return plan;
    }

    private <T extends java.io.Serializable> void set(Setting<T> setting, T value) {
        if (made) {
            throw new IllegalStateException("the plan is made: nothing changes it after");
        }
        plan = plan.with(setting, value);
    }

    private static boolean isWriteTool(String pattern) {
        String name = pattern.strip().toLowerCase(Locale.ROOT);
        int paren = name.indexOf('(');
        String tool = paren < 0 ? name : name.substring(0, paren);
        return tool.equals("write") || tool.equals("edit") || tool.equals("create");
    }
}
