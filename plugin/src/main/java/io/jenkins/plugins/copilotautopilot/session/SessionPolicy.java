package io.jenkins.plugins.copilotautopilot.session;

import hudson.AbortException;
import hudson.ExtensionList;
import hudson.ExtensionPoint;
import hudson.model.Node;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;

/**
 * What an administrator sets for every session (the global configuration implements it): the defaults a step's
 * settings are merged with, where sessions may run, what a build of an untrusted change request may do, and how
 * sessions are kept between builds.
 */
public interface SessionPolicy extends ExtensionPoint {
    /** The policy for builds of untrusted change requests. */
    enum UntrustedChangeRequests {
        /** They run without what a change's author could turn against the build (the default). */
        RESTRICTED,
        /** They do not run. */
        REFUSE,
        /** They run as any build. */
        ALLOW
    }

    /** How long and how many sessions a job keeps between builds, and how large each may be. */
    record KeptSessionLimits(int days, int perJob, int megabytes) {
        public long bytes() {
            return megabytes * 1024L * 1024L;
        }
    }

    /** The administrator's defaults for every step, as given. */
    SettingValues defaults();

    /**
     * Refuses a session on {@code node} unless the administrator allows sessions there.
     *
     * @param nodeName the node's name, for the message
     * @throws AbortException one line saying where sessions may run
     */
    void checkAllowed(Node node, String nodeName) throws AbortException;

    UntrustedChangeRequests untrustedChangeRequests();

    KeptSessionLimits keptSessions();

    /** The policy in force: the global configuration's. */
    static SessionPolicy get() {
        SessionPolicy policy = ExtensionList.lookupFirst(SessionPolicy.class);
        if (policy == null) {
            throw new IllegalStateException("no Copilot Autopilot configuration is installed");
        }
        return policy;
    }
}
