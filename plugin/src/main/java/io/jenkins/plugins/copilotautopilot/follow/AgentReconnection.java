package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.agent.AgentSession;

import hudson.Extension;
import hudson.model.Computer;
import hudson.model.TaskListener;
import hudson.slaves.ComputerListener;
import hudson.slaves.OfflineCause;

/**
 * When an agent goes offline or comes back, its sessions are checked at once rather than at their next check: a
 * session on an agent that is back is watched again (or found to have been lost with the agent's processes).
 */
@Extension
public final class AgentReconnection extends ComputerListener {
    @Override
    public void onOnline(Computer c, TaskListener listener) {
        checkSessionsOn(c);
    }

    @Override
    public void onOffline(Computer c, OfflineCause cause) {
        checkSessionsOn(c);
    }

    private static void checkSessionsOn(Computer c) {
        String name = c.getName();
        for (SessionDriver driver : Following.running()) {
            AgentSession session = driver.session();
            if (session != null && session.location().node().equals(name)) {
                session.checkSoon();
            }
        }
    }
}
