package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.prepare.InlineOrFile;
import io.jenkins.plugins.copilotautopilot.core.prepare.Wording;
import io.jenkins.plugins.copilotautopilot.core.build.GithubTokenSource;

/** The runner's words: settings by their options, a file by the option that named it, the token by its variable. */
final class RunnerWording implements Wording {
    private final String schemaFile;
    private final String mcpConfig;

    /** @param schemaFile {@code --output-schema}'s file, or null; @param mcpConfig {@code --mcp-config}'s, or null */
    RunnerWording(String schemaFile, String mcpConfig) {
        this.schemaFile = schemaFile;
        this.mcpConfig = mcpConfig;
    }

    @Override
    public String name(Setting<?> setting) {
        if (setting == SessionSettings.OUTPUT_SCHEMA) {
            return "--output-schema " + schemaFile;
        }
        if (setting == SessionSettings.MCP_SERVERS) {
            return "--mcp-config " + mcpConfig;
        }
        return setting == SessionSettings.PROMPT_FILE ? "--prompt-file" : RunnerArguments.optionName(setting);
    }

    @Override
    public InlineOrFile.Wording file(Setting<String> setting) {
        if (setting == SessionSettings.OUTPUT_SCHEMA) {
            return new OptionFile("schema file", "--output-schema", "give a JSON Schema");
        }
        if (setting == SessionSettings.MCP_SERVERS) {
            return new OptionFile("MCP configuration", "--mcp-config", "give the servers' configuration");
        }
        return new OptionFile("prompt file", "--prompt-file", "write the task in it");
    }

    @Override
    public String tokenSource(GithubTokenSource source) {
        return source.variable(); // the runner has no credentials: the token is always a variable's
    }

    @Override
    public String noCredentials() {
        return "no credentials for the Copilot CLI: set COPILOT_GITHUB_TOKEN to a fine-grained GitHub token"
                + " with the \"Copilot Requests\" permission, or use your own model provider with --provider-base-url"
                + " (COPILOT_PROVIDER_BASE_URL) and --model (COPILOT_MODEL).";
    }

    /** Problems with a file an option names, or with standard input ({@code -}). */
    private record OptionFile(String what, String option, String fillIt) implements InlineOrFile.Wording {
        @Override
        public String missing(String name) {
            return "there is no " + what + " " + name + " (" + option + ")";
        }

        @Override
        public String folder(String name) {
            return "the " + what + " " + name + " is a directory (" + option + ")";
        }

        @Override
        public String tooLarge(String name, long bytes, int maxBytes) {
            return named(name) + " has " + bytes + " bytes, more than the " + maxBytes + " taken (" + option + " " + name + ")";
        }

        @Override
        public String empty(String name) {
            return named(name) + " is empty (" + option + " " + name + "): " + fillIt;
        }

        @Override
        public String notText(String name) {
            return "-".equals(name) ? "standard input is not UTF-8 text (" + option + " -)"
                    : "the " + what + " " + name + " is not UTF-8 text (" + option + "); save it as UTF-8";
        }

        @Override
        public String failed(String name, String why) {
            return "-".equals(name) ? "cannot read the task from standard input: " + why + " (" + option + " -)"
                    : "cannot read the " + what + " " + name + ": " + why + " (" + option + ")";
        }

        private String named(String name) {
            return "-".equals(name) ? "standard input" : "the " + what + " " + name;
        }
    }
}
