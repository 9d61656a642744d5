package io.jenkins.plugins.copilotautopilot.core.prepare;

/**
 * What a session's preparation could not use: a file a setting names, a credential, a kept session. The message is one
 * line saying what to change; the preparation gathers it with every other problem of the session.
 */
public final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;

    public Unusable(String problem) {
        super(problem);
    }
}
