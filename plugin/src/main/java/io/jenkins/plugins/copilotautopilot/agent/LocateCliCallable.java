package io.jenkins.plugins.copilotautopilot.agent;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import jenkins.security.MasterToSlaveCallable;

/**
 * Finds the native Copilot CLI binary on the agent (paths and files are the agent's). Only JDK types cross
 * the channel back: classes of the bundled engine jar are not on the remoting class filter's allow list.
 */
public final class LocateCliCallable extends MasterToSlaveCallable<String[], RuntimeException> {
    private static final long serialVersionUID = 1L;
    static final String HOW_TO_SET = "copilotPath (or installation)";

    private final String configured;
    private final String pathVariable;

    public LocateCliCallable(String configured, String pathVariable) {
        this.configured = configured;
        this.pathVariable = pathVariable;
    }

    /** @return {path, version (may be null)}, or {null, null, message} when there is no CLI */
    @Override
    public String[] call() {
        try {
            CliExecutable cli = new CliLocator().locate(configured, pathVariable, HOW_TO_SET);
            return new String[] {cli.path(), cli.version()};
        } catch (CliNotFoundException e) {
            return new String[] {null, null, e.getMessage()};
        }
    }

    /** The agent's answer as the engine's value, or the message of why there is none. */
    public static CliExecutable executable(String[] answer) throws CliNotFoundException {
        if (answer[0] == null) {
            throw new CliNotFoundException(answer.length > 2 ? answer[2] : "The Copilot CLI was not found.");
        }
        return new CliExecutable(answer[0], answer[1]);
    }
}
