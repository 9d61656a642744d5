package io.jenkins.plugins.copilotautopilot.agent;

/**
 * The controller's side of a watched session, exported to the agent: the agent's {@link EventsHandler} hands over
 * what the session wrote. Calls come on remoting threads; {@link #deliver} returns once the chunk is followed and
 * noted in the session's checkpoint, so that what the agent counts as handed over is never lost by a controller
 * restart.
 */
interface SessionInbox {
    void deliver(SessionChunk chunk) throws Exception;

    /** The CLI has ended with {@code exitCode} (durable-task's); {@code last} holds whatever it left. */
    void exited(int exitCode, SessionChunk last) throws Exception;
}
