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
 * ({@code AI_CREDITS}, {@code TOKENS}, {@code PREMIUM_REQUESTS}) over a window ({@code DAY}, {@code ROLLING_24H}), for everything it
 * covers together, or for each job on its own ({@code eachJob}).
 */
public final class QuotaLimit extends AbstractDescribableImpl<QuotaLimit> {
    private final String metric;
    private final double limit;
    private String window = Quota.Window.DAY.name();
    private boolean eachJob;

    /**
     * @param metric {@code AI_CREDITS}, {@code TOKENS} or {@code PREMIUM_REQUESTS}
     * @param limit  a number of 0 or more, as the form and JCasC give it
     * @throws IllegalArgumentException saying what is wrong (the System page shows it)
     */
    @DataBoundConstructor
    public QuotaLimit(String metric, String limit) {
        this.metric = metric(metric).name();
        this.limit = parseLimit(limit);
    }

    private static Quota.Metric metric(String name) {
        try {
            return Quota.Metric.valueOf(name == null ? "" : name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Messages.QuotaLimit_BadMetric(name), e);
        }
    }

    /** The limit of {@code text}, a number of 0 or more; else an exception saying so. */
    static double parseLimit(String text) {
        double value;
        try {
            value = Double.parseDouble(text == null ? "" : text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(Messages.QuotaLimit_BadLimit(text), e);
        }
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(Messages.QuotaLimit_BadLimit(text));
        }
        return value;
    }

    public String getMetric() {
        return metric;
    }

    /** As the form and JCasC show it: a whole number without a fraction. */
    public String getLimit() {
        return limit == Math.rint(limit) && Math.abs(limit) < 1e15 ? Long.toString((long) limit) : Double.toString(limit);
    }

    public double limit() {
        return limit;
    }

    public String getWindow() {
        return window;
    }

    @DataBoundSetter
    public void setWindow(String window) {
        try {
            this.window = window == null || window.isBlank() ? Quota.Window.DAY.name() : Quota.Window.valueOf(window.strip().toUpperCase(Locale.ROOT)).name();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Messages.QuotaLimit_BadWindow(window), e);
        }
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
            items.add(Messages.QuotaLimit_AiCredits(), Quota.Metric.AI_CREDITS.name());
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
            if (value == null || value.isBlank()) {
                return FormValidation.ok(); // a quota just added: nothing typed yet (saving it empty is refused)
            }
            try {
                parseLimit(value);
                return FormValidation.ok();
            } catch (IllegalArgumentException e) {
                return FormValidation.error(e.getMessage());
            }
        }
    }
}
