package io.jenkins.plugins.copilotautopilot.core.parts;

import io.jenkins.plugins.copilotautopilot.core.session.ManagedPolicy;
import java.util.HashSet;
import java.util.Set;

/** Each setting of the organisation's policy that overrode the session's permissions, once: a warning. */
final class PolicyPart implements SessionPart {
    private final PartContext context;
    private final Set<String> warned = new HashSet<>();

    PolicyPart(PartContext context) {
        this.context = context;
    }

    @Override
    public void onPolicyEnforced(String setting, String escalation, boolean failClosed) {
        if (warned.add(setting + "|" + escalation)) {
            context.warn(ManagedPolicy.warning(setting, escalation, failClosed));
        }
    }
}
