package io.jenkins.plugins.copilotautopilot;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.ExtensionList;
import hudson.Util;
import hudson.model.Item;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import io.jenkins.plugins.copilotautopilot.core.settings.TaskSettings;
import java.util.ArrayList;
import java.util.List;
import jenkins.model.GlobalConfiguration;
import jenkins.model.Jenkins;
import net.sf.json.JSONObject;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.verb.POST;

/**
 * Defaults for every {@code copilotAutopilot} step, set by an administrator under <em>Manage Jenkins » System</em>
 * or with Configuration as Code ({@code unclassified: copilotAutopilot:}). A step's own value wins; how the two
 * merge (denied tools add up, the model provider is all-or-nothing) is decided by the engine's
 * {@link TaskSettings#withDefaults}.
 */
@Extension
@Symbol("copilotAutopilot")
public final class CopilotAutopilotConfiguration extends GlobalConfiguration {
    private String installation;
    private String credentialsId;
    private String model;
    private Integer maxAutopilotContinues;
    private Double maxPremiumRequests;
    private Long maxTokens;
    private boolean allowAllTools;
    private List<String> allowTools = new ArrayList<>();
    private List<String> denyTools = new ArrayList<>();
    private Integer timeout;
    private Integer inactivityTimeout;
    private String resultWhenIncomplete;
    private String providerBaseUrl;
    private String providerType;
    private String providerWireApi;
    private String providerCredentialsId;
    private boolean offline;

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

    /** The defaults as the engine's value. */
    TaskSettings toDefaults() {
        return TaskSettings.builder()
                .installation(installation)
                .credentialsId(credentialsId)
                .model(model)
                .maxAutopilotContinues(maxAutopilotContinues)
                .maxPremiumRequests(maxPremiumRequests)
                .maxTokens(maxTokens)
                .allowAllTools(allowAllTools ? Boolean.TRUE : null)
                .allowTools(allowTools)
                .denyTools(denyTools)
                .timeoutMinutes(timeout)
                .inactivityTimeoutMinutes(inactivityTimeout)
                .resultWhenIncomplete(resultWhenIncomplete)
                .providerBaseUrl(providerBaseUrl)
                .providerType(providerType)
                .providerWireApi(providerWireApi)
                .providerCredentialsId(providerCredentialsId)
                .offline(offline)
                .build();
    }

    @Override
    public boolean configure(StaplerRequest2 req, JSONObject json) throws FormException {
        req.bindJSON(this, FormLists.textAreasToArrays(json));
        save();
        return true;
    }

    /** For the form: a list setting as one entry per line. */
    public String listText(String field) {
        return FormLists.text("allowTools".equals(field) ? allowTools : denyTools);
    }

    public String getInstallation() {
        return installation;
    }

    @DataBoundSetter
    public void setInstallation(String installation) {
        this.installation = Util.fixEmptyAndTrim(installation);
        save();
    }

    public String getCredentialsId() {
        return credentialsId;
    }

    @DataBoundSetter
    public void setCredentialsId(String credentialsId) {
        this.credentialsId = Util.fixEmptyAndTrim(credentialsId);
        save();
    }

    public String getModel() {
        return model;
    }

    @DataBoundSetter
    public void setModel(String model) {
        this.model = Util.fixEmptyAndTrim(model);
        save();
    }

    public Integer getMaxAutopilotContinues() {
        return maxAutopilotContinues;
    }

    @DataBoundSetter
    public void setMaxAutopilotContinues(Integer maxAutopilotContinues) {
        this.maxAutopilotContinues = maxAutopilotContinues;
        save();
    }

    public Double getMaxPremiumRequests() {
        return maxPremiumRequests;
    }

    @DataBoundSetter
    public void setMaxPremiumRequests(Double maxPremiumRequests) {
        this.maxPremiumRequests = maxPremiumRequests;
        save();
    }

    public Long getMaxTokens() {
        return maxTokens;
    }

    @DataBoundSetter
    public void setMaxTokens(Long maxTokens) {
        this.maxTokens = AutopilotForms.tokenBudget(maxTokens);
        save();
    }

    public boolean isAllowAllTools() {
        return allowAllTools;
    }

    @DataBoundSetter
    public void setAllowAllTools(boolean allowAllTools) {
        this.allowAllTools = allowAllTools;
        save();
    }

    public List<String> getAllowTools() {
        return allowTools;
    }

    @DataBoundSetter
    public void setAllowTools(List<String> allowTools) {
        this.allowTools = FormLists.clean(allowTools);
        save();
    }

    public List<String> getDenyTools() {
        return denyTools;
    }

    @DataBoundSetter
    public void setDenyTools(List<String> denyTools) {
        this.denyTools = FormLists.clean(denyTools);
        save();
    }

    public Integer getTimeout() {
        return timeout;
    }

    @DataBoundSetter
    public void setTimeout(Integer timeout) {
        this.timeout = timeout;
        save();
    }

    public Integer getInactivityTimeout() {
        return inactivityTimeout;
    }

    @DataBoundSetter
    public void setInactivityTimeout(Integer inactivityTimeout) {
        this.inactivityTimeout = inactivityTimeout;
        save();
    }

    public String getResultWhenIncomplete() {
        return resultWhenIncomplete;
    }

    @DataBoundSetter
    public void setResultWhenIncomplete(String resultWhenIncomplete) {
        this.resultWhenIncomplete = Util.fixEmptyAndTrim(resultWhenIncomplete);
        save();
    }

    public String getProviderBaseUrl() {
        return providerBaseUrl;
    }

    @DataBoundSetter
    public void setProviderBaseUrl(String providerBaseUrl) {
        this.providerBaseUrl = Util.fixEmptyAndTrim(providerBaseUrl);
        save();
    }

    public String getProviderType() {
        return providerType;
    }

    @DataBoundSetter
    public void setProviderType(String providerType) {
        this.providerType = Util.fixEmptyAndTrim(providerType);
        save();
    }

    public String getProviderWireApi() {
        return providerWireApi;
    }

    @DataBoundSetter
    public void setProviderWireApi(String providerWireApi) {
        this.providerWireApi = Util.fixEmptyAndTrim(providerWireApi);
        save();
    }

    public String getProviderCredentialsId() {
        return providerCredentialsId;
    }

    @DataBoundSetter
    public void setProviderCredentialsId(String providerCredentialsId) {
        this.providerCredentialsId = Util.fixEmptyAndTrim(providerCredentialsId);
        save();
    }

    public boolean isOffline() {
        return offline;
    }

    @DataBoundSetter
    public void setOffline(boolean offline) {
        this.offline = offline;
        save();
    }

    // Form support. Defaults are global: only administrators see the credentials and run the checks.

    @POST
    public ListBoxModel doFillCredentialsIdItems(@QueryParameter String credentialsId) {
        return AutopilotForms.fillCredentials((Item) null, credentialsId);
    }

    @POST
    public ListBoxModel doFillProviderCredentialsIdItems(@QueryParameter String providerCredentialsId) {
        return AutopilotForms.fillCredentials((Item) null, providerCredentialsId);
    }

    @POST
    public FormValidation doCheckCredentialsId(@QueryParameter String value) {
        return AutopilotForms.checkCredentials((Item) null, value);
    }

    @POST
    public FormValidation doCheckProviderCredentialsId(@QueryParameter String value) {
        return AutopilotForms.checkCredentials((Item) null, value);
    }

    @POST
    public FormValidation doCheckMaxPremiumRequests(@QueryParameter String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return AutopilotForms.checkPositiveNumber(value);
    }

    @POST
    public FormValidation doCheckMaxTokens(@QueryParameter String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return AutopilotForms.checkPositiveNumber(value);
    }

    @POST
    public FormValidation doCheckMaxAutopilotContinues(@QueryParameter String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return AutopilotForms.checkNonNegative(value);
    }

    @POST
    public FormValidation doCheckTimeout(@QueryParameter String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return AutopilotForms.checkNonNegative(value);
    }

    @POST
    public FormValidation doCheckInactivityTimeout(@QueryParameter String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return AutopilotForms.checkNonNegative(value);
    }

    @POST
    public FormValidation doCheckProviderBaseUrl(@QueryParameter String value, @QueryParameter String model) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return AutopilotForms.checkProviderBaseUrl(value, model);
    }

    @POST
    public FormValidation doCheckInstallation(@QueryParameter String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return AutopilotForms.checkInstallation(value);
    }

    public ListBoxModel doFillInstallationItems() {
        return AutopilotForms.installationItems(true);
    }

    public ListBoxModel doFillResultWhenIncompleteItems() {
        return AutopilotForms.resultWhenIncompleteItems(true);
    }

    public ListBoxModel doFillProviderTypeItems() {
        return AutopilotForms.providerTypeItems();
    }

    public ListBoxModel doFillProviderWireApiItems() {
        return AutopilotForms.providerWireApiItems();
    }
}
