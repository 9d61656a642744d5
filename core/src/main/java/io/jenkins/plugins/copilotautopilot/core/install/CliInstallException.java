package io.jenkins.plugins.copilotautopilot.core.install;

import java.io.IOException;

/** The CLI could not be installed; the message says why and what to change. */
public final class CliInstallException extends IOException {
    public CliInstallException(String message) {
        super(message);
    }

    public CliInstallException(String message, Throwable cause) {
        super(message, cause);
    }
}
