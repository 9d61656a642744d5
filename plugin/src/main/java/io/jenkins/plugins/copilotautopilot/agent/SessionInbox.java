package io.jenkins.plugins.copilotautopilot.agent;

/**
 * The controller's side of a watched session, exported to the agent: the agent's {@link EventsHandler} hands over
 * what the session wrote. Calls come on remoting threads; {@link #deliver} returns once the chunk is followed (its
 * lines are in the build's log). The controller notes how far it got in the session's checkpoint at most every two seconds
 * and when it shuts down; the agent's positions do not outlive the controller, which reads the session again from its
 * checkpoint when it resumes.
 */
interface SessionInbox {
    void deliver(SessionChunk chunk) throws Exception;

    /** The CLI has ended with {@code exitCode} (durable-task's); {@code last} holds whatever it left. */
    void exited(int exitCode, SessionChunk last) throws Exception;
}
