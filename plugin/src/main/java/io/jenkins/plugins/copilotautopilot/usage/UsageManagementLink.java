package io.jenkins.plugins.copilotautopilot.usage;

import hudson.Extension;
import hudson.model.ManagementLink;
import hudson.security.Permission;
import io.jenkins.plugins.copilotautopilot.Messages;
import java.io.IOException;
import jenkins.model.Jenkins;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;

/** Manage Jenkins » Copilot usage: what every job's sessions spent, for administrators (deleted jobs included). */
@Extension
public final class UsageManagementLink extends ManagementLink {
    @Override
    public String getIconFileName() {
        return UsageView.ICON;
    }

    @Override
    public String getDisplayName() {
        return Messages.Usage_DisplayName();
    }

    @Override
    public String getDescription() {
        return Messages.UsageManagementLink_Description();
    }

    @Override
    public String getUrlName() {
        return UsageAction.URL_NAME;
    }

    @Override
    public Permission getRequiredPermission() {
        return Jenkins.ADMINISTER;
    }

    @Override
    public Category getCategory() {
        return Category.STATUS;
    }

    public UsageView getView() {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return new UsageView(null, true);
    }

    public void doTrend(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        getView().doTrend(req, rsp);
    }

    public void doExport(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        getView().doExport(req, rsp);
    }
}
