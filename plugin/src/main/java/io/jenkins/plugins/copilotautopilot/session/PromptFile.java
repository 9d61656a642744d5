package io.jenkins.plugins.copilotautopilot.session;

import io.jenkins.plugins.copilotautopilot.Messages;

import hudson.AbortException;
import hudson.FilePath;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** {@code promptFile}: the task read from a file in the workspace, with one line for every way that fails. */
final class PromptFile {
    private PromptFile() {
    }

    /** The file's text; call within a time limit (it reads on the agent). */
    static String read(FilePath workspace, String name) throws IOException, InterruptedException {
        FilePath file = workspace.child(name);
        if (!file.exists()) {
            throw new AbortException(Messages.PromptFile_Missing(name, workspace.getRemote()));
        }
        if (file.isDirectory()) {
            throw new AbortException(Messages.PromptFile_Folder(name));
        }
        long size = file.length();
        if (size > SessionSettings.MAX_PROMPT_BYTES) {
            throw new AbortException(Messages.PromptFile_TooLarge(name, size, SessionSettings.MAX_PROMPT_BYTES));
        }
        byte[] bytes;
        try (InputStream in = file.read()) {
            bytes = in.readNBytes(SessionSettings.MAX_PROMPT_BYTES + 1);
        }
        if (bytes.length > SessionSettings.MAX_PROMPT_BYTES) {
            throw new AbortException(Messages.PromptFile_TooLarge(name, bytes.length, SessionSettings.MAX_PROMPT_BYTES));
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            throw new AbortException(Messages.PromptFile_Empty(name));
        }
        return text;
    }
}
