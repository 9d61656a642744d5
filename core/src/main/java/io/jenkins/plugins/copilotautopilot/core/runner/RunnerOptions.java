package io.jenkins.plugins.copilotautopilot.core.runner;

import java.util.ArrayList;
import java.util.List;

/**
 * Every option of the runner, each described once: {@code --help} ({@link RunnerHelp#text()}) and the README's table
 * ({@link RunnerHelp#markdownTable()}) are renderings of this list, in its order. {@code RunnerHelpTest} fails when an
 * option the runner reads has no entry here, or when the README's table is not this list rendered.
 */
final class RunnerOptions {
    private static final String NEEDS_ANSWER = "needs `--output-schema` or `--review-findings`";

    static final List<RunnerOption> ALL = List.copyOf(new Builder()
            .group("Task")
            .add("--demo", null, "try it with no account: a scripted model on 127.0.0.1 plays the agent, which lists a new"
                    + " folder and writes NOTES.md there; the Copilot CLI is real (its own task: no `--prompt`)", null)
            .add("-p", "--prompt", "TEXT", "the task for the agent; required, unless `--prompt-file` or `--demo`", null)
            .add("--prompt-file", "FILE", "read the task from a file; `-` reads standard input", null)
            .add("-C", "--dir", "DIR", "the agent's working directory", "the current directory")
            .group("CLI")
            .add("--copilot", "PATH", "the Copilot CLI: its executable, or an `npm install --prefix` folder",
                    "`$COPILOT_CLI`, then `copilot` on the PATH")
            .add("--model", "NAME", "the model (`$COPILOT_MODEL`); required with an own provider", "the CLI's")
            .add("--reasoning-effort", "LEVEL", "`none`, `minimal`, `low`, `medium`, `high`, `xhigh` or `max`, as the model"
                    + " supports it; the CLI refuses others before any call", "the CLI's")
            .add("--max-autopilot-continues", "N", "how often the CLI may nudge the agent to go on", "the CLI's, 5")
            .group("Tools")
            .add("--allow-all-tools", null, "let the agent run any tool without asking; a warning is logged", "off")
            .add("--allow-all-paths", null, "let the tools use any path, not only `--dir` and the `--add-dir` ones", "off")
            .add("--allow-tool", "PATTERN", "allow one tool, e.g. `shell(npm test)`, `shell(git:*)`, `write` (repeatable)", null)
            .add("--deny-tool", "PATTERN", "deny a tool; beats allow (repeatable)", null)
            .add("--approve-tool", "PATTERN", "a call that matches waits for `y` on the terminal; without a terminal it is"
                    + " denied (repeatable)", null)
            .add("--approval-timeout", "DURATION", "how long such a call waits before it is denied; `0` for as long as the"
                    + " session runs", "5m")
            .add("--add-dir", "DIR", "give the agent access to another, existing directory (repeatable)", null)
            .group("Acceptance check")
            .add("--verify", "CMD", "a shell command run after `task_complete`; exit 0 accepts, else the agent is sent back"
                    + " to fix the failure in the same session (NOT_VERIFIED, exit 5, when it never passes)", "none")
            .add("--max-verify-rounds", "N", "how often `--verify` runs at most (needs `--verify`)", "2")
            .group("The answer (checked before --verify)")
            .add("--output-schema", "FILE", "a JSON Schema the agent's answer (the summary of `task_complete`) must follow;"
                    + " sent back while invalid (OUTPUT_INVALID, exit 6, when it never follows it); checked before `--verify`", "none")
            .add("--review-findings", null, "ask for review findings as the answer: path, line, endLine, severity, message,"
                    + " rule, category", "off")
            .add("--max-output-rounds", "N", "how many answers are checked at most (" + NEEDS_ANSWER + ")", "2")
            .add("--output-file", "FILE", "write the answer (JSON) to a file (" + NEEDS_ANSWER + ")", null)
            .add("--issues-file", "FILE", "write the findings in analysis-model's JSON, for warnings-ng (" + NEEDS_ANSWER
                    + ")", null)
            .group("Sessions that continue")
            .add("--session", "NAME", "keep the session's state under NAME; a later run with the same NAME continues the"
                    + " conversation (a new session when none is kept)", "none")
            .add("--state-dir", "DIR", "where `--session` keeps sessions", "`~/.copilot-autopilot/sessions`")
            .group("MCP servers")
            .add("--mcp-config", "FILE", "MCP servers in the CLI's JSON format; `${env:NAME}` references are put in from"
                    + " the environment when the session starts, and masked", "none")
            .group("Network")
            .add("--allow-url", "URL", "a URL or domain the tools may reach without `--allow-all-tools` (repeatable)", null)
            .add("--deny-url", "URL", "refuse tool calls whose command names this URL or domain, even with"
                    + " `--allow-all-tools` (repeatable): a check of the command's text, not a network boundary", null)
            .add("--sandbox", null, "run shell commands in the CLI's sandbox (Linux: bwrap, slirp4netns; macOS:"
                    + " sandbox-exec); checked before the CLI starts (FAILED with one line where the machine lacks it)", "off")
            .group("Limits")
            .add("--timeout", "DURATION", "wall-clock limit: `90s`, `30m`, `1h30m`, a plain number of minutes; `0` for none",
                    "60m")
            .add("--inactivity-timeout", "DURATION", "stop when the CLI prints no event for this long while no tool runs;"
                    + " `0` for none", "10m")
            .add("--tool-timeout", "DURATION", "stop when one tool call runs this long (TIMED_OUT, naming the call);"
                    + " `0` for none", "none")
            .add("--startup-timeout", "DURATION", "stop when the CLI prints nothing this long after its start (FAILED);"
                    + " `0` for none", "none")
            .add("--service-retries", "N", "continue the same session at most N times after GitHub's service refused it"
                    + " for a while (rate limit, server error)", "2")
            .add("--max-ai-credits", "N", "a budget in AI credits, as GitHub reports them for each model call"
                    + " (OVER_BUDGET, exit 3)", "no limit")
            .add("--max-premium-requests", "N", "a budget in premium requests (OVER_BUDGET, exit 3)", "no limit")
            .add("--max-tokens", "N", "a budget in tokens, input plus output (OVER_BUDGET, exit 3)", "no limit")
            .group("Output")
            .add("--journal", "FILE", "record every event line (secrets masked) as JSON lines", "off")
            .add("--timeline", "FILE", "draw the session as an SVG timeline", "off")
            .add("--changes", "FILE", "write what the agent changed in the git work tree as a patch", "off")
            .add("--record-changes", "=false", "do not snapshot the git work tree (nothing is recorded of what the agent"
                    + " changed)", "on")
            .add("--otel", null, "keep the CLI's OpenTelemetry spans beside the journal, in its file name plus"
                    + " `.otel.jsonl` (under `$TRACEPARENT`'s trace when set; needs `--journal`)", "off")
            .add("--client-telemetry", null, "let the CLI send its own usage telemetry to GitHub (without it the CLI is"
                    + " given `--disable-client-telemetry`)", "off")
            .add("--github-mcp-server", "=false", "no built-in GitHub MCP server (`--disable-builtin-mcps`); it calls"
                    + " GitHub with the token", "on")
            .group("Own model provider")
            .add("--provider-base-url", "URL", "an OpenAI-compatible, Azure or Anthropic endpoint"
                    + " (`$COPILOT_PROVIDER_BASE_URL`)", "GitHub-hosted models")
            .add("--provider-type", "TYPE", "`openai`, `azure` or `anthropic` (`$COPILOT_PROVIDER_TYPE`)", "`openai`")
            .add("--provider-wire-api", "API", "`completions` or `responses` (`$COPILOT_PROVIDER_WIRE_API`)",
                    "`completions`")
            .add("--offline", null, "no network use but the provider (`$COPILOT_OFFLINE=true`)", "off")
            .group("Secrets (their values from the environment only)")
            .add("--secret-env-var", "NAME", "another variable whose value is masked and hidden from tools (repeatable)", null)
            .add("--tool-secret", "NAME", "a secret variable the agent's tools get all the same, still masked (repeatable)",
                    null)
            .group("This runner")
            .add("--version", null, "the runner's version and the Copilot CLI it would run", null)
            .add("-h", "--help", null, "the options, as listed here", null)
            .options);

    private RunnerOptions() {
    }

    /** Every option's long name, {@code --demo} included. */
    static List<String> names() {
        return ALL.stream().map(RunnerOption::name).toList();
    }

    private static final class Builder {
        private final List<RunnerOption> options = new ArrayList<>();
        private String group;

        Builder group(String heading) {
            group = heading;
            return this;
        }

        Builder add(String name, String argument, String meaning, String byDefault) {
            return add(null, name, argument, meaning, byDefault);
        }

        Builder add(String shortName, String name, String argument, String meaning, String byDefault) {
            options.add(new RunnerOption(group, shortName, name, argument, meaning, byDefault));
            return this;
        }
    }
}
