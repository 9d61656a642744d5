package io.jenkins.plugins.copilotautopilot.core.command;

/** The Copilot CLI could not be found where it was looked for; the message says what to set. */
public final class CliNotFoundException extends Exception {
    public CliNotFoundException(String message) {
        super(message);
    }
}
