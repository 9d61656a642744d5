package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.Messages;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.Extension;
import hudson.ExtensionList;
import hudson.Util;
import hudson.model.Label;
import hudson.model.Node;
import hudson.util.FormValidation;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import io.jenkins.plugins.copilotautopilot.session.SessionPolicy;
import jenkins.model.GlobalConfiguration;
import jenkins.model.Jenkins;
import net.sf.json.JSONObject;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.verb.POST;

/**
 * Defaults for every {@code copilotAutopilot} step, set by an administrator under <em>Manage Jenkins » System</em> or
 * with Configuration as Code ({@code unclassified: copilotAutopilot: defaults:}). They are a task's settings
 * ({@link CopilotAutopilotStep}, with its form and help), of which the global form shows those that make sense for
 * every task. A step's own value wins; how the two merge (budgets are ceilings, denied tools add up, the model
 * provider is all-or-nothing) is the catalog's rule for each setting, applied once when a session's plan is made
 * ({@code SessionPlan.resolve}). The rest is the policy of {@link SessionPolicy}: where sessions may run, what builds of
 * untrusted change requests may do, how sessions are kept.
 */
@Extension
@Symbol("copilotAutopilot")
public final class CopilotAutopilotConfiguration extends GlobalConfiguration implements SessionPolicy {
    private CopilotAutopilotStep defaults = new CopilotAutopilotStep(null);
    /** A label expression: sessions run only on nodes matching it (null: anywhere). The administrator's alone. */
    private String allowedLabels;
    /** How long a kept session ({@code session}) may wait for its next build, in days; null: {@link #DEFAULT_KEPT_DAYS}. */
    private Integer keptSessionDays;
    /** How many sessions a job may keep; null: {@link #DEFAULT_KEPT_PER_JOB}. */
    private Integer keptSessionsPerJob;
    /** How large a kept session's state may be, in MB; null: {@link #DEFAULT_KEPT_MEGABYTES}. */
    private Integer keptSessionMegabytes;
    /** What a build of an untrusted change request may do: {@code refuse}, {@code restricted} or {@code allow}; null: restricted. */
    private String untrustedChangeRequests;
    static final String UNTRUSTED_REFUSE = "refuse";
    static final String UNTRUSTED_RESTRICTED = "restricted";
    static final String UNTRUSTED_ALLOW = "allow";
    public static final int DEFAULT_KEPT_DAYS = 30;
    public static final int DEFAULT_KEPT_PER_JOB = 20;
    public static final int DEFAULT_KEPT_MEGABYTES = 50;
    /** Set while a form is bound: the form is saved once, at the end, rather than once per setting. */
    private transient boolean binding;

    public CopilotAutopilotConfiguration() {
        load();
    }

    @NonNull
    public static CopilotAutopilotConfiguration get() {
        return ExtensionList.lookupSingleton(CopilotAutopilotConfiguration.class);
    }

    @NonNull
    @Override
    public String getDisplayName() {
        return Messages.CopilotAutopilotConfiguration_DisplayName();
    }

    public CopilotAutopilotStep getDefaults() {
        return defaults;
    }

    /** Saved at once when set by Configuration as Code or a script; once per submit from the form. */
    @DataBoundSetter
    public void setDefaults(CopilotAutopilotStep defaults) {
        this.defaults = defaults == null ? new CopilotAutopilotStep(null) : defaults;
        if (!binding) {
            save();
        }
    }

    public String getUntrustedChangeRequests() {
        return untrustedChangeRequests;
    }

    @DataBoundSetter
    public void setUntrustedChangeRequests(String policy) {
        String p = Util.fixEmptyAndTrim(policy);
        if (p != null && !p.equals(UNTRUSTED_REFUSE) && !p.equals(UNTRUSTED_RESTRICTED) && !p.equals(UNTRUSTED_ALLOW)) {
            throw new IllegalArgumentException("untrustedChangeRequests must be refuse, restricted or allow; was '" + policy + "'");
        }
        this.untrustedChangeRequests = UNTRUSTED_RESTRICTED.equals(p) ? null : p; // the default: nothing to save
        if (!binding) {
            save();
        }
    }

    /** The policy for builds of untrusted change requests, restricted unless the administrator chose another. */
    @Override
    public UntrustedChangeRequests untrustedChangeRequests() {
        if (UNTRUSTED_REFUSE.equals(untrustedChangeRequests)) {
            return UntrustedChangeRequests.REFUSE;
        }
        return UNTRUSTED_ALLOW.equals(untrustedChangeRequests) ? UntrustedChangeRequests.ALLOW : UntrustedChangeRequests.RESTRICTED;
    }

    public hudson.util.ListBoxModel doFillUntrustedChangeRequestsItems() {
        hudson.util.ListBoxModel items = new hudson.util.ListBoxModel();
        items.add(Messages.CopilotAutopilotConfiguration_UntrustedRestricted(), "");
        items.add(Messages.CopilotAutopilotConfiguration_UntrustedRefuse(), UNTRUSTED_REFUSE);
        items.add(Messages.CopilotAutopilotConfiguration_UntrustedAllow(), UNTRUSTED_ALLOW);
        return items;
    }

    public Integer getKeptSessionDays() {
        return keptSessionDays;
    }

    @DataBoundSetter
    public void setKeptSessionDays(Integer days) {
        this.keptSessionDays = days == null ? null : Math.max(1, Math.min(days, 3650));
        if (!binding) {
            save();
        }
    }

    public Integer getKeptSessionsPerJob() {
        return keptSessionsPerJob;
    }

    @DataBoundSetter
    public void setKeptSessionsPerJob(Integer count) {
        this.keptSessionsPerJob = count == null ? null : Math.max(1, Math.min(count, 1000));
        if (!binding) {
            save();
        }
    }

    public Integer getKeptSessionMegabytes() {
        return keptSessionMegabytes;
    }

    @DataBoundSetter
    public void setKeptSessionMegabytes(Integer megabytes) {
        this.keptSessionMegabytes = megabytes == null ? null : Math.max(1, Math.min(megabytes, 1024));
        if (!binding) {
            save();
        }
    }

    @Override
    public KeptSessionLimits keptSessions() {
        return new KeptSessionLimits(keptSessionDays == null ? DEFAULT_KEPT_DAYS : keptSessionDays,
                keptSessionsPerJob == null ? DEFAULT_KEPT_PER_JOB : keptSessionsPerJob,
                keptSessionMegabytes == null ? DEFAULT_KEPT_MEGABYTES : keptSessionMegabytes);
    }

    public String getAllowedLabels() {
        return allowedLabels;
    }

    @DataBoundSetter
    public void setAllowedLabels(String allowedLabels) {
        this.allowedLabels = Util.fixEmptyAndTrim(allowedLabels);
        if (!binding) {
            save();
        }
    }

    /** Refuses a session on {@code node} unless it matches {@link #getAllowedLabels()}. */
    @Override
    public void checkAllowed(Node node, String nodeName) throws AbortException {
        if (allowedLabels == null) {
            return;
        }
        Label allowed;
        try {
            allowed = Label.parseExpression(allowedLabels);
        } catch (IllegalArgumentException e) {
            throw new AbortException(Messages.CopilotAutopilotConfiguration_BadAllowedLabels(allowedLabels, e.getMessage()));
        }
        if (node == null || !allowed.matches(node)) {
            throw new AbortException(Messages.CopilotAutopilotConfiguration_NotAllowedHere(nodeName, allowedLabels));
        }
    }

    @POST
    public FormValidation doCheckAllowedLabels(@QueryParameter String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        if (Util.fixEmptyAndTrim(value) == null) {
            return FormValidation.ok();
        }
        try {
            Label.parseExpression(value);
            return FormValidation.ok();
        } catch (IllegalArgumentException e) {
            return FormValidation.error(e.getMessage());
        }
    }

    @Override
    public SettingValues defaults() {
        return defaults.settings();
    }

    @Override
    public boolean configure(StaplerRequest2 req, JSONObject json) throws FormException {
        binding = true;
        try {
            req.bindJSON(this, FormLists.nestedFromForm(json, "defaults"));
        } finally {
            binding = false;
        }
        save();
        return true;
    }
}
