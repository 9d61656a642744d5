package io.jenkins.plugins.copilotautopilot.usage;

import com.cloudbees.hudson.plugins.folder.AbstractFolder;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.AbstractItem;
import hudson.model.Action;
import hudson.model.Item;
import hudson.model.Job;
import io.jenkins.plugins.copilotautopilot.Messages;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import jenkins.model.TransientActionFactory;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;

/**
 * A folder's or job's Copilot usage ({@code copilot-usage/}): what the sessions of it, and of what is in it, spent, for
 * those who may read it, each row of a job they may read. Shown where sessions ran in the last 30 days or quotas are set.
 */
public final class UsageAction implements Action {
    static final String URL_NAME = "copilot-usage";

    private final AbstractItem item;

    UsageAction(AbstractItem item) {
        this.item = item;
    }

    public AbstractItem getItem() {
        return item;
    }

    @Override
    public String getIconFileName() {
        return item.hasPermission(Item.READ) ? UsageView.ICON : null;
    }

    @Override
    public String getDisplayName() {
        return Messages.Usage_DisplayName();
    }

    @Override
    public String getUrlName() {
        return URL_NAME;
    }

    public UsageView getView() {
        item.checkPermission(Item.READ);
        return new UsageView(item.getFullName(), false);
    }

    public void doTrend(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        getView().doTrend(req, rsp);
    }

    public void doExport(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        getView().doExport(req, rsp);
    }

    /** Adds the action to jobs and folders with something to show. */
    @Extension
    public static final class Factory extends TransientActionFactory<AbstractItem> {
        @Override
        public Class<AbstractItem> type() {
            return AbstractItem.class;
        }

        @Override
        public Class<? extends Action> actionType() {
            return UsageAction.class; // asked only when that (or any action) is looked for
        }

        @NonNull
        @Override
        public Collection<? extends Action> createFor(@NonNull AbstractItem item) {
            boolean folder = item instanceof AbstractFolder<?>;
            if (!(item instanceof Job<?, ?>) && !folder) {
                return List.of();
            }
            FolderQuotas property = folder ? ((AbstractFolder<?>) item).getProperties().get(FolderQuotas.class) : null;
            boolean quotas = property != null && !property.getQuotas().isEmpty();
            return quotas || Usage.ranRecently(item.getFullName()) ? List.of(new UsageAction(item)) : List.of();
        }
    }
}
