package io.jenkins.plugins.copilotautopilot.usage;

import hudson.Extension;
import io.jenkins.plugins.copilotautopilot.Messages;
import hudson.model.AbstractDescribableImpl;
import hudson.model.Descriptor;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import io.jenkins.plugins.copilotautopilot.core.quota.Quota;
import java.util.Locale;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.verb.POST;

/**
 * One quota as the administrator sets it, on the System page or a folder: at most {@code limit} of a metric
 * ({@code TOKENS}, {@code PREMIUM_REQUESTS}) over a window ({@code DAY}, {@code ROLLING_24H}), for everything it
 * covers together, or for each job on its own ({@code eachJob}).
 */
public final class QuotaLimit extends AbstractDescribableImpl<QuotaLimit> {
    private final String metric;
    private final double limit;
    private String window = Quota.Window.DAY.name();
    private boolean eachJob;

    @DataBoundConstructor
    public QuotaLimit(String metric, double limit) {
        this.metric = Quota.Metric.valueOf(metric.trim().toUpperCase(Locale.ROOT)).name();
        if (!(limit >= 0) || Double.isInfinite(limit)) {
            throw new IllegalArgumentException("a quota's limit must be a number of 0 or more, not " + limit);
        }
        this.limit = limit;
    }

    public String getMetric() {
        return metric;
    }

    public double getLimit() {
        return limit;
    }

    public String getWindow() {
        return window;
    }

    @DataBoundSetter
    public void setWindow(String window) {
        this.window = window == null || window.isBlank() ? Quota.Window.DAY.name() : Quota.Window.valueOf(window.trim().toUpperCase(Locale.ROOT)).name();
    }

    public boolean isEachJob() {
        return eachJob;
    }

    @DataBoundSetter
    public void setEachJob(boolean eachJob) {
        this.eachJob = eachJob;
    }

    /** The quota this sets for the controller (a null {@code folder}) or for the folder with that full name. */
    Quota quota(String folder) {
        Quota.Metric m = Quota.Metric.valueOf(metric);
        Quota.Window w = Quota.Window.valueOf(window);
        if (eachJob) {
            return folder == null ? Quota.eachJob(m, limit, w) : Quota.eachJobIn(folder, m, limit, w);
        }
        return folder == null ? Quota.controller(m, limit, w) : Quota.folder(folder, m, limit, w);
    }

    @Extension
    @Symbol("copilotQuota")
    public static final class DescriptorImpl extends Descriptor<QuotaLimit> {
        @Override
        public String getDisplayName() {
            return Messages.QuotaLimit_DisplayName();
        }

        public ListBoxModel doFillMetricItems() {
            ListBoxModel items = new ListBoxModel();
            items.add(Messages.QuotaLimit_Tokens(), Quota.Metric.TOKENS.name());
            items.add(Messages.QuotaLimit_PremiumRequests(), Quota.Metric.PREMIUM_REQUESTS.name());
            return items;
        }

        public ListBoxModel doFillWindowItems() {
            ListBoxModel items = new ListBoxModel();
            items.add(Messages.QuotaLimit_Day(), Quota.Window.DAY.name());
            items.add(Messages.QuotaLimit_Rolling24h(), Quota.Window.ROLLING_24H.name());
            return items;
        }

        @POST
        public FormValidation doCheckLimit(@QueryParameter String value) {
            try {
                double limit = Double.parseDouble(value.trim());
                return limit >= 0 && !Double.isInfinite(limit) ? FormValidation.ok() : FormValidation.error(Messages.QuotaLimit_BadLimit(value));
            } catch (NumberFormatException e) {
                return FormValidation.error(Messages.QuotaLimit_BadLimit(value));
            }
        }
    }
}
