package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.Messages;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.prepare.InlineOrFile;

/**
 * How the step words the problems of a file one of its settings names ({@code promptFile}, {@code outputSchema}
 * {@code @file}, {@code mcpServers} {@code @file}): each setting says what is missing in its own words, the rest is
 * worded alike. The reading itself is the core's ({@link InlineOrFile}).
 */
abstract class FileWording implements InlineOrFile.Wording {
    private final String setting;
    private final String workspace;

    /** @param workspace the workspace's path, where a missing file is said to be missing */
    FileWording(String setting, String workspace) {
        this.setting = setting;
        this.workspace = workspace;
    }

    /** The words of {@code setting}'s file, one of the workspace at {@code workspace}. */
    static FileWording of(Setting<String> setting, String workspace) {
        if (setting == SessionSettings.PROMPT_FILE) {
            return new PromptFile(workspace);
        }
        if (setting == SessionSettings.OUTPUT_SCHEMA) {
            return new OutputSchemaSetting(workspace);
        }
        if (setting == SessionSettings.MCP_SERVERS) {
            return new McpServersSetting(workspace);
        }
        throw new IllegalArgumentException(setting + " names no file");
    }

    /** What reading the file is called while it takes time on the agent. */
    abstract String reading(String name, String node);

    /** What to do instead when the file cannot be read from a change request's trusted revision. */
    abstract String instead();

    /** What the file is, for a change request that cannot bring its own. */
    abstract String what();

    @Override
    public String folder(String name) {
        return missing(name);
    }

    @Override
    public String empty(String name) {
        return Messages.FileWording_Empty(setting, name);
    }

    @Override
    public String notText(String name) {
        return Messages.FileWording_NotText(setting, name);
    }

    @Override
    public String failed(String name, String why) {
        return Messages.FileWording_Failed(setting, name, why);
    }

    /** The setting, as the step names it. */
    String setting() {
        return setting;
    }

    /** The workspace's path. */
    String workspace() {
        return workspace;
    }
}
