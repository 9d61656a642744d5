package io.jenkins.plugins.copilotautopilot.usage;

import hudson.Extension;
import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.core.quota.Quota;
import java.util.ArrayList;
import java.util.List;
import jenkins.model.GlobalConfiguration;
import jenkins.model.GlobalConfigurationCategory;
import net.sf.json.JSONObject;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.StaplerRequest2;

/**
 * The controller's quotas on what Copilot sessions spend across runs (System page, JCasC
 * {@code unclassified: copilotAutopilotQuotas}): for all jobs together or each job on its own. Folders add their own
 * ({@link FolderQuotas}). Beside them, how many sessions may run at once with one GitHub token
 * ({@code sessionsPerCredential}): GitHub limits the rate per user long before a controller runs out of sessions.
 */
@Extension
@Symbol("copilotAutopilotQuotas")
public final class QuotaConfiguration extends GlobalConfiguration {
    /** How long the usage index keeps its days. */
    public static final int DEFAULT_RETENTION_DAYS = 400;

    private List<QuotaLimit> quotas = new ArrayList<>();
    private Integer usageRetentionDays;
    /** How many sessions may run at once with one GitHub token; null for no cap. */
    private Integer sessionsPerCredential;

    public QuotaConfiguration() {
        load();
    }

    public static QuotaConfiguration get() {
        return GlobalConfiguration.all().getInstance(QuotaConfiguration.class);
    }

    @Override
    public String getDisplayName() {
        return Messages.QuotaConfiguration_DisplayName();
    }

    @Override
    public GlobalConfigurationCategory getCategory() {
        return GlobalConfigurationCategory.get(GlobalConfigurationCategory.Unclassified.class);
    }

    public List<QuotaLimit> getQuotas() {
        return quotas == null ? List.of() : List.copyOf(quotas);
    }

    @DataBoundSetter
    public void setQuotas(List<QuotaLimit> quotas) {
        this.quotas = quotas == null ? new ArrayList<>() : new ArrayList<>(quotas);
        save();
    }

    public Integer getUsageRetentionDays() {
        return usageRetentionDays;
    }

    @DataBoundSetter
    public void setUsageRetentionDays(Integer days) {
        this.usageRetentionDays = days == null || days < 1 ? null : days;
        save();
    }

    /** How many sessions may run at once with one GitHub token across the controller; null: no cap. */
    public Integer getSessionsPerCredential() {
        return sessionsPerCredential;
    }

    @DataBoundSetter
    public void setSessionsPerCredential(Integer sessions) {
        this.sessionsPerCredential = cap(sessions);
        save();
    }

    /** A cap as given: none for null or less than 1. */
    static Integer cap(Integer sessions) {
        return sessions == null || sessions < 1 ? null : sessions;
    }

    /** The form's cap: blank for none, else a whole number; else a line on the page. */
    static Integer capFromForm(JSONObject json) throws FormException {
        String text = json.optString("sessionsPerCredential", "").strip();
        try {
            return text.isEmpty() ? null : cap(Integer.valueOf(text));
        } catch (NumberFormatException e) {
            throw new FormException(Messages.QuotaConfiguration_BadSessionsPerCredential(text), "sessionsPerCredential");
        }
    }

    int retentionDays() {
        return usageRetentionDays == null ? DEFAULT_RETENTION_DAYS : usageRetentionDays;
    }

    /** The controller's quotas as the ledger counts them. */
    List<Quota> controllerQuotas() {
        List<Quota> out = new ArrayList<>();
        for (QuotaLimit limit : getQuotas()) {
            out.add(limit.quota(null));
        }
        return out;
    }

    /** Takes the System page's section whole, or nothing of it: a value that is no quota is one line on the page. */
    @Override
    public boolean configure(StaplerRequest2 req, JSONObject json) throws FormException {
        Object given = json.opt("quotas");
        List<QuotaLimit> bound;
        try {
            bound = given == null ? List.of() : req.bindJSONToList(QuotaLimit.class, given);
        } catch (RuntimeException e) {
            throw new FormException(Messages.QuotaConfiguration_Invalid(QuotaForms.why(e)), "quotas");
        }
        String days = json.optString("usageRetentionDays", "").strip();
        Integer retention;
        try {
            retention = days.isEmpty() ? null : Integer.valueOf(days);
        } catch (NumberFormatException e) {
            throw new FormException(Messages.QuotaConfiguration_BadRetention(days), "usageRetentionDays");
        }
        Integer sessions = capFromForm(json);
        quotas = new ArrayList<>(bound);
        sessionsPerCredential = sessions;
        usageRetentionDays = retention == null || retention < 1 ? null : retention;
        save();
        return true;
    }
}
