package io.jenkins.plugins.copilotautopilot.checks;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;

import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.Jenkins;

/**
 * Publishes sessions as checks when the optional checks-api plugin is installed; without it, does nothing (and never
 * loads {@link ChecksPublication}, whose classes come from that plugin). A check that cannot be published is a log
 * line, never a failed step.
 */
public final class SessionChecks {
    private static final Logger LOGGER = Logger.getLogger(SessionChecks.class.getName());

    private SessionChecks() {
    }

    static boolean available() {
        Jenkins jenkins = Jenkins.getInstanceOrNull();
        hudson.PluginWrapper checks = jenkins == null ? null : jenkins.getPluginManager().getPlugin("checks-api");
        return checks != null && checks.isActive();
    }

    /** The session with this plan has started: an in-progress check. */
    public static void started(Run<?, ?> run, SessionPlan plan, long startedAtMillis, TaskListener listener) {
        if (plan != null && plan.checksNameToPublish() != null && available()) {
            publish(() -> ChecksPublication.started(run, plan, startedAtMillis, listener), listener);
        }
    }

    /** The session has ended: the check completed, with a conclusion from its outcome and the step's settings. */
    public static void ended(Run<?, ?> run, SessionPlan plan, long startedAtMillis, SessionResult result, TaskListener listener) {
        if (plan != null && plan.checksNameToPublish() != null && available()) {
            publish(() -> ChecksPublication.ended(run, plan, startedAtMillis, result, listener), listener);
        }
    }

    private static void publish(Runnable publication, TaskListener listener) {
        try {
            publication.run();
        } catch (RuntimeException | LinkageError e) {
            LOGGER.log(Level.FINE, "could not publish a Copilot check", e);
            listener.getLogger().println(Messages.SessionChecks_NotPublished(e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }
}
