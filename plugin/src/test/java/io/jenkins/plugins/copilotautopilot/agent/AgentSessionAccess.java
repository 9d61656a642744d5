package io.jenkins.plugins.copilotautopilot.agent;

/** Lets tests of other packages make a session at a place of their choosing (no CLI, no durable-task controller). */
public final class AgentSessionAccess {
    private AgentSessionAccess() {
    }

    /** A session launched in {@code launchFolder} on {@code node}, its control folder {@code controlFolder}. */
    public static AgentSession at(String node, String launchFolder, String controlFolder, AgentSession.Owner owner) {
        return new AgentSession(new AgentSession.Location(node, launchFolder, controlFolder, "run-of-a-test", false, null,
                controlFolder + "/jenkins-log.txt", controlFolder + "/jenkins-result.txt"), owner);
    }
}
