package io.jenkins.plugins.copilotautopilot.agent;

/**
 * The controller's side of a watched session's end, exported to the agent: what the session wrote comes before it as a
 * stream of chunks ({@link ChunkStream}), and remoting runs this call only once every chunk written before it has been
 * taken. The controller notes how far it got in the session's checkpoint at most every two seconds and when it shuts
 * down; the agent's positions do not outlive the controller, which reads the session again from its checkpoint when it
 * resumes.
 */
interface SessionInbox {
    /** The CLI has ended with {@code exitCode} (durable-task's); {@code last} holds whatever it left. */
    void exited(int exitCode, SessionChunk last) throws Exception;
}
