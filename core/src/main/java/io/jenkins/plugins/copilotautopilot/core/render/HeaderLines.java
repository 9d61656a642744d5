package io.jenkins.plugins.copilotautopilot.core.render;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.output.AnswerRequest;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;
import java.util.List;

/** The log's lines before the CLI starts: what runs, where, with which model, limits, tools, network and secrets. */
final class HeaderLines {
    private final LogLines lines;

    HeaderLines(LogLines lines) {
        this.lines = lines;
    }

    /** The lines before the CLI starts: what runs, where, with which policy. */
    void write(CliCommand command) {
        SessionPlan plan = command.plan();
        String version = command.executable().version() == null ? "" : " " + command.executable().version();
        lines.line("Copilot CLI" + version + " (" + command.executable().path() + ") in " + command.workingDirectory());
        String model = plan.get(SessionSettings.MODEL);
        boolean routedModel = LogRenderer.AUTO_MODEL.equals(model);
        StringBuilder policy = new StringBuilder("Model: ").append(model == null ? "CLI default" : model);
        if (routedModel) {
            policy.append(" (GitHub picks each call's model)");
        }
        if (plan.get(SessionSettings.REASONING_EFFORT) != null) {
            policy.append(", reasoning effort ").append(plan.get(SessionSettings.REASONING_EFFORT));
        }
        String provider = plan.get(SessionSettings.PROVIDER_BASE_URL);
        if (provider != null) {
            policy.append(" via ").append(provider).append(plan.get(SessionSettings.OFFLINE) ? " (offline)" : "");
        }
        Integer continues = plan.get(SessionSettings.MAX_AUTOPILOT_CONTINUES);
        policy.append(" | autopilot continuations: ").append(continues == null ? "CLI default" : "at most " + continues);
        policy.append(" | limits: ").append(limit(plan.limit(SessionSettings.TIMEOUT))).append(" wall clock, ")
                .append(limit(plan.limit(SessionSettings.INACTIVITY_TIMEOUT))).append(" without events");
        if (plan.limit(SessionSettings.TOOL_TIMEOUT) != null) {
            policy.append(", ").append(limit(plan.limit(SessionSettings.TOOL_TIMEOUT))).append(" per tool call");
        }
        if (plan.limit(SessionSettings.STARTUP_TIMEOUT) != null) {
            policy.append(", ").append(limit(plan.limit(SessionSettings.STARTUP_TIMEOUT))).append(" to start");
        }
        lines.line(policy.toString());
        lines.line("Tools: " + toolPolicy(plan));
        boolean allTools = plan.get(SessionSettings.ALLOW_ALL_TOOLS);
        boolean allPaths = plan.get(SessionSettings.ALLOW_ALL_PATHS);
        List<String> addDirs = plan.list(SessionSettings.ADD_DIRS);
        if (allTools || allPaths || !addDirs.isEmpty()) {
            // "all allowed" tools still meet the CLI's path policy: say where they may go
            lines.line("Paths: " + (allPaths ? "any (allowAllPaths)" : "the working directory"
                    + (addDirs.isEmpty() ? "" : " and " + String.join(" ", addDirs)) + " only (allowAllPaths is off)"));
        }
        if (plan.get(SessionSettings.UNTRUSTED)) {
            lines.line("Untrusted change request: no custom instructions (AGENTS.md and the like), no built-in MCP server, no write tools");
        }
        if (command.task().mcpServers() != null) {
            lines.line("MCP servers: " + String.join(", ", command.task().mcpServers().servers()) + " (their tools are listed as server-tool)");
        }
        if (AnswerRequest.schema(plan) != null) {
            lines.line("Answer: " + (plan.get(SessionSettings.OUTPUT_SCHEMA) != null ? "JSON that follows the outputSchema"
                    : "review findings (path, line, severity, message)") + ", as the summary of task_complete (at most "
                    + LogLines.count(plan.get(SessionSettings.MAX_OUTPUT_ROUNDS), "round") + ")");
        }
        String verify = plan.get(SessionSettings.VERIFY);
        if (verify != null) {
            lines.line("Verify: " + Texts.truncate(Texts.oneLine(verify), LogLines.MAX_LINE) + " (after task_complete; at most "
                    + LogLines.count(plan.get(SessionSettings.MAX_VERIFY_ROUNDS), "round") + ")");
        }
        if (allTools || !plan.list(SessionSettings.ALLOW_URLS).isEmpty() || !plan.list(SessionSettings.DENY_URLS).isEmpty()
                || plan.get(SessionSettings.SANDBOX)) {
            lines.line("Network: " + networkPolicy(plan));
        }
        // the CLI's own credentials are always hidden: the line is about the build's secrets
        List<String> hidden = command.hiddenFromTools().stream().filter(n -> !CliCommandBuilder.isOwnCredential(n)).toList();
        List<String> toolSecrets = plan.list(SessionSettings.TOOL_SECRETS);
        if (!hidden.isEmpty() || !toolSecrets.isEmpty()) {
            lines.line("Secret variables: " + (hidden.isEmpty() ? "none" : String.join(", ", hidden)) + " hidden from tools"
                    + (toolSecrets.isEmpty() ? "" : "; " + String.join(", ", toolSecrets) + " handed to tools (masked here)"));
        }
        if (allTools) {
            lines.line("WARNING: allowAllTools is on: the agent may run any command and change any file this machine lets it.");
        }
        if (!lines.agentText()) {
            lines.line("What the agent writes (messages, commands, outputs, summary) is not shown here: see the session page.");
        }
    }

    private static String limit(Duration d) {
        return d == null ? "no limit" : Durations.describe(d);
    }

    private static String toolPolicy(SessionPlan plan) {
        StringBuilder out = new StringBuilder(plan.get(SessionSettings.ALLOW_ALL_TOOLS) ? "all allowed"
                : "CLI defaults (no writes, most shell commands denied)");
        if (!plan.list(SessionSettings.ALLOW_TOOLS).isEmpty()) {
            out.append(", allowed ").append(String.join(" ", plan.list(SessionSettings.ALLOW_TOOLS)));
        }
        if (!plan.list(SessionSettings.DENY_TOOLS).isEmpty()) {
            out.append(", denied ").append(String.join(" ", plan.list(SessionSettings.DENY_TOOLS)));
        }
        if (!plan.list(SessionSettings.APPROVE_TOOLS).isEmpty()) {
            out.append(", waiting for a person's approval: ").append(String.join(" ", plan.list(SessionSettings.APPROVE_TOOLS)));
        }
        return out.toString();
    }

    /** What CLI 1.0.102 lets the tools reach: with every tool allowed any URL but the denied ones (measured). */
    private static String networkPolicy(SessionPlan plan) {
        List<String> deny = plan.list(SessionSettings.DENY_URLS);
        List<String> allow = plan.list(SessionSettings.ALLOW_URLS);
        String denied = deny.isEmpty() ? "" : ", never " + String.join(" ", deny);
        String sandbox = plan.get(SessionSettings.SANDBOX) ? "; shell commands run in the CLI's sandbox" : "";
        if (plan.get(SessionSettings.ALLOW_ALL_TOOLS)) {
            return "any URL (every tool is allowed)" + denied + sandbox;
        }
        return (allow.isEmpty() ? "no URL" : String.join(" ", allow) + " only") + denied + sandbox;
    }
}
