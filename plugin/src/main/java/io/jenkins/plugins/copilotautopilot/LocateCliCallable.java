package io.jenkins.plugins.copilotautopilot;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import jenkins.security.MasterToSlaveCallable;

/** Finds the native Copilot CLI binary on the agent (paths and files are the agent's). */
final class LocateCliCallable extends MasterToSlaveCallable<CliExecutable, CliNotFoundException> {
    private static final long serialVersionUID = 1L;
    static final String HOW_TO_SET = "copilotPath";

    private final String configured;
    private final String pathVariable;

    LocateCliCallable(String configured, String pathVariable) {
        this.configured = configured;
        this.pathVariable = pathVariable;
    }

    @Override
    public CliExecutable call() throws CliNotFoundException {
        return new CliLocator().locate(configured, pathVariable, HOW_TO_SET);
    }
}
