package io.jenkins.plugins.copilotautopilot.testing;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.LiveSessions;

import hudson.model.Run;
import io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval;
import java.time.Duration;

import static io.jenkins.plugins.copilotautopilot.testing.Waits.waitFor;

/** A running build's first live session, and the first call it waits to have approved. */
public final class LiveApprovals {
    private LiveApprovals() {
    }

    /** The first call a live session of the build waits on, once there is one (within two minutes). */
    public static PendingApproval waiting(Run<?, ?> b) throws Exception {
        waitFor(() -> b.getAction(CopilotAutopilotRunAction.class) != null
                && b.getAction(CopilotAutopilotRunAction.class).getLiveSessions().stream().anyMatch(s -> !s.getPendingApprovals().isEmpty()),
                Duration.ofSeconds(120), b);
        return b.getAction(CopilotAutopilotRunAction.class).getLiveSessions().stream()
                .flatMap(s -> s.getPendingApprovals().stream()).findFirst().orElseThrow();
    }

    public static LiveSessions.LiveSession live(Run<?, ?> b) {
        return b.getAction(CopilotAutopilotRunAction.class).getLiveSessions().get(0);
    }
}
