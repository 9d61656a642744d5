package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.Messages;

/** {@code promptFile}: the task read from a file in the workspace, with one line for every way that fails. */
final class PromptFile extends FileWording {
    PromptFile(String workspace) {
        super("promptFile", workspace);
    }

    @Override
    public String missing(String name) {
        return Messages.PromptFile_Missing(name, workspace());
    }

    @Override
    public String folder(String name) {
        return Messages.PromptFile_Folder(name);
    }

    @Override
    public String tooLarge(String name, long bytes, int maxBytes) {
        return Messages.PromptFile_TooLarge(name, bytes, maxBytes);
    }

    @Override
    public String empty(String name) {
        return Messages.PromptFile_Empty(name);
    }

    @Override
    String reading(String name, String node) {
        return Messages.SessionInputs_ReadingPromptFile(name, node);
    }

    @Override
    String instead() {
        return Messages.PromptFile_Instead();
    }

    @Override
    String what() {
        return Messages.PromptFile_What();
    }
}
