package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import java.io.IOException;
import java.util.Map;

/**
 * A launcher that hands every call to another one: subclasses change the calls they care about, as
 * {@link ForwardingCliSession} does for a session (most often the session's cleanup, with
 * {@link ForwardingCliSession#beforeCleanup}).
 */
public abstract class ForwardingCliLauncher implements CliLauncher {
    private final CliLauncher next;

    protected ForwardingCliLauncher(CliLauncher next) {
        this.next = next;
    }

    @Override
    public CliSession launch(CliCommand command) throws IOException, InterruptedException {
        return next.launch(command);
    }

    @Override
    public Map<String, String> inheritedEnvironment() {
        return next.inheritedEnvironment();
    }
}
