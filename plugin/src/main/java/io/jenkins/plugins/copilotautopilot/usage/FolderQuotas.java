package io.jenkins.plugins.copilotautopilot.usage;

import com.cloudbees.hudson.plugins.folder.AbstractFolder;
import com.cloudbees.hudson.plugins.folder.AbstractFolderProperty;
import com.cloudbees.hudson.plugins.folder.AbstractFolderPropertyDescriptor;
import hudson.Extension;
import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.core.quota.Quota;
import java.util.ArrayList;
import java.util.List;
import org.jenkinsci.Symbol;
import net.sf.json.JSONObject;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.StaplerRequest2;

/**
 * A folder's quotas on what Copilot sessions below it spend across runs: for everything in it together, or for each job
 * in it on its own. Set on the folder's configuration page by those who may configure it; the controller's quotas
 * ({@link QuotaConfiguration}) count as well. Beside them, how many sessions of the jobs in it may run at once with one
 * GitHub token, counted in the folder; the controller's cap counts as well, so the tighter applies.
 */
public final class FolderQuotas extends AbstractFolderProperty<AbstractFolder<?>> {
    private final List<QuotaLimit> quotas;
    /** How many sessions of the jobs in this folder may run at once with one GitHub token; null for no cap. */
    private Integer sessionsPerCredential;

    @DataBoundConstructor
    public FolderQuotas(List<QuotaLimit> quotas) {
        this.quotas = quotas == null ? new ArrayList<>() : new ArrayList<>(quotas);
    }

    public List<QuotaLimit> getQuotas() {
        return quotas == null ? List.of() : List.copyOf(quotas);
    }

    /** How many sessions of the jobs in this folder may run at once with one GitHub token; null: no cap of its own. */
    public Integer getSessionsPerCredential() {
        return sessionsPerCredential;
    }

    @DataBoundSetter
    public void setSessionsPerCredential(Integer sessions) {
        this.sessionsPerCredential = QuotaConfiguration.cap(sessions);
    }

    /** This folder's quotas as the ledger counts them. */
    List<Quota> quotas() {
        List<Quota> out = new ArrayList<>();
        AbstractFolder<?> folder = owner;
        if (folder != null) {
            for (QuotaLimit limit : getQuotas()) {
                out.add(limit.quota(folder.getFullName()));
            }
        }
        return out;
    }

    @Extension
    @Symbol("copilotQuotas")
    public static final class DescriptorImpl extends AbstractFolderPropertyDescriptor {
        @Override
        public String getDisplayName() {
            return Messages.FolderQuotas_DisplayName();
        }

        /**
         * None for a form without quotas and without a cap (a folder gets no empty property); a value that is no quota
         * or no cap is one line.
         */
        @Override
        public AbstractFolderProperty<?> newInstance(StaplerRequest2 req, JSONObject formData) throws FormException {
            Integer sessions = QuotaConfiguration.capFromForm(formData);
            JSONObject rest = JSONObject.fromObject(formData);
            rest.remove("sessionsPerCredential");
            FolderQuotas property;
            try {
                property = (FolderQuotas) super.newInstance(req, rest);
            } catch (RuntimeException e) {
                throw new FormException(Messages.QuotaConfiguration_Invalid(QuotaForms.why(e)), "quotas");
            }
            if (property == null) {
                property = new FolderQuotas(List.of());
            }
            property.setSessionsPerCredential(sessions);
            return property.getQuotas().isEmpty() && property.getSessionsPerCredential() == null ? null : property;
        }
    }
}
