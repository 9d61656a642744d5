package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.Messages;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.EnvVars;
import hudson.Extension;
import hudson.Util;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.util.FormValidation;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.json.JSONObject;
import org.jenkinsci.plugins.workflow.actions.LabelAction;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;

/**
 * The Pipeline step {@code copilotAutopilot}: runs a Copilot autopilot task on the current node and returns a map with
 * the outcome, the agent's summary and the numbers. It holds the task's settings as Jenkins binds them (Pipeline, the
 * forms, Configuration as Code, {@code config.xml}); the Freestyle build step runs one of these
 * ({@link CopilotAutopilotBuilder#getTask()}) and the global configuration keeps one as the defaults
 * ({@link CopilotAutopilotConfiguration#getDefaults()}).
 *
 * <p>Each setting is defined once, in the core's catalog ({@code SessionSettings}: what it means, how it merges with the
 * default, how it is checked, its title). Here it is a property of the same name, read by {@link StepSettings}; its
 * form entry is drawn from the catalog ({@code config.jelly}) and its help is {@code help-<name>.html}. The class is
 * long because Jenkins binds a step through one field, getter and setter per parameter: it holds nothing else.
 *
 * <pre>
 * def r = copilotAutopilot prompt: 'Make the failing test pass', credentialsId: 'copilot-token',
 *                          allowTools: ['shell(npm test)', 'write']
 * echo "${r.outcome}: ${r.summary}"
 * </pre>
 */
public final class CopilotAutopilotStep extends Step {
    private final String prompt;
    private String model;
    private String credentialsId;
    private Integer maxAutopilotContinues;
    private Double maxPremiumRequests;
    private Double maxAiCredits;
    private Integer serviceRetries;
    private Long maxTokens;
    private Boolean allowAllTools;
    private Boolean allowAllPaths;
    private List<String> allowTools = new ArrayList<>();
    private List<String> denyTools = new ArrayList<>();
    private List<String> approveTools = new ArrayList<>();
    private List<String> approvers = new ArrayList<>();
    private Integer approvalTimeout;
    private List<String> addDirs = new ArrayList<>();
    private List<String> allowUrls = new ArrayList<>();
    private List<String> denyUrls = new ArrayList<>();
    private Boolean sandbox;
    private Boolean clientTelemetry;
    private Boolean githubMcpServer;
    private String reasoningEffort;
    private Boolean otel;
    private String verify;
    private String mcpServers;
    private String session;
    private Integer maxVerifyRounds;
    private String outputSchema;
    private Boolean reviewFindings;
    private Integer maxOutputRounds;
    private String outputFile;
    private String issuesFile;
    private List<String> secretEnvVars = new ArrayList<>();
    private List<String> toolSecrets = new ArrayList<>();
    private String workingDirectory;
    private Integer timeout;
    private Integer inactivityTimeout;
    private Integer toolTimeout;
    private Integer startupTimeout;
    private String resultWhenIncomplete;
    private String resultWhenBlocked;
    private String copilotPath;
    private String installation;
    private String providerBaseUrl;
    private String providerType;
    private String providerWireApi;
    private String providerCredentialsId;
    private boolean offline;
    private Boolean recordChanges;
    private Boolean agentTextInConsole;
    private Boolean skipPublishingChecks;
    private String checksName;
    /** Null: true, the default (as for a saved form without it). */
    private Boolean propagate;
    private String promptFile;
    private String changesFile;
    private Integer includeBuildLog;
    /** The step's name in Pipeline views (Pipeline Graph View, Blue Ocean), as {@code sh}'s {@code label}. */
    private String label;

    static final int MAX_LABEL_LENGTH = 100;

    @DataBoundConstructor
    public CopilotAutopilotStep(String prompt) {
        // an empty box (a form that gives promptFile) is no prompt: the Snippet Generator then writes none
        this.prompt = prompt == null || prompt.isBlank() ? null : prompt;
    }

    @Override
    public StepExecution start(StepContext context) throws Exception {
        if (label != null) {
            context.get(FlowNode.class).addAction(new LabelAction(label));
        }
        return new CopilotAutopilotStepExecution(this, context);
    }

    public String getLabel() {
        return label;
    }

    /** Shown instead of the step's name in Pipeline views; cut at {@value #MAX_LABEL_LENGTH} characters, as {@code sh} does. */
    @DataBoundSetter
    public void setLabel(String label) {
        String trimmed = Util.fixEmptyAndTrim(label);
        this.label = trimmed == null || trimmed.length() <= MAX_LABEL_LENGTH ? trimmed : trimmed.substring(0, MAX_LABEL_LENGTH);
    }

    public String getPrompt() {
        return prompt;
    }

    /** True: no check is published for the session (null, the default: the global setting, else publish). */
    public Boolean getSkipPublishingChecks() {
        return skipPublishingChecks;
    }

    @DataBoundSetter
    public void setSkipPublishingChecks(Boolean skipPublishingChecks) {
        this.skipPublishingChecks = skipPublishingChecks;
    }

    public String getChecksName() {
        return checksName;
    }

    /** The name of the check the session is published as (default: "Copilot Autopilot"). */
    @DataBoundSetter
    public void setChecksName(String checksName) {
        this.checksName = Util.fixEmptyAndTrim(checksName);
    }

    public String getPromptFile() {
        return promptFile;
    }

    /** A workspace file holding the task, instead of {@code prompt}. */
    @DataBoundSetter
    public void setPromptFile(String promptFile) {
        this.promptFile = Util.fixEmptyAndTrim(promptFile);
    }

    public Integer getIncludeBuildLog() {
        return includeBuildLog;
    }

    /** Appends this many of the build's last console lines to the task (for "why did this build fail, fix it"). */
    @DataBoundSetter
    public void setIncludeBuildLog(Integer includeBuildLog) {
        this.includeBuildLog = includeBuildLog == null || includeBuildLog == 0 ? null : includeBuildLog;
    }

    public String getChangesFile() {
        return changesFile;
    }

    /** A workspace file the step writes what the agent changed into, as a unified diff. */
    @DataBoundSetter
    public void setChangesFile(String changesFile) {
        this.changesFile = Util.fixEmptyAndTrim(changesFile);
    }

    public String getModel() {
        return model;
    }

    @DataBoundSetter
    public void setModel(String model) {
        this.model = Util.fixEmptyAndTrim(model);
    }

    public String getCredentialsId() {
        return credentialsId;
    }

    @DataBoundSetter
    public void setCredentialsId(String credentialsId) {
        this.credentialsId = Util.fixEmptyAndTrim(credentialsId);
    }

    public Integer getMaxAutopilotContinues() {
        return maxAutopilotContinues;
    }

    @DataBoundSetter
    public void setMaxAutopilotContinues(Integer maxAutopilotContinues) {
        this.maxAutopilotContinues = maxAutopilotContinues;
    }

    public Double getMaxPremiumRequests() {
        return maxPremiumRequests;
    }

    @DataBoundSetter
    public void setMaxPremiumRequests(Double maxPremiumRequests) {
        this.maxPremiumRequests = maxPremiumRequests;
    }

    /** How often the session goes on after GitHub's service refused it for a while; null: the global setting, else 2. */
    public Integer getServiceRetries() {
        return serviceRetries;
    }

    @DataBoundSetter
    public void setServiceRetries(Integer serviceRetries) {
        this.serviceRetries = serviceRetries;
    }

    public Double getMaxAiCredits() {
        return maxAiCredits;
    }

    @DataBoundSetter
    public void setMaxAiCredits(Double maxAiCredits) {
        this.maxAiCredits = maxAiCredits;
    }

    public Long getMaxTokens() {
        return maxTokens;
    }

    @DataBoundSetter
    public void setMaxTokens(Long maxTokens) {
        this.maxTokens = SettingForms.tokenBudget(maxTokens);
    }

    /** Whether the agent's tools may use any path (the CLI's {@code --allow-all-paths}); null: the global setting, else no. */
    public Boolean getAllowAllPaths() {
        return allowAllPaths;
    }

    @DataBoundSetter
    public void setAllowAllPaths(Boolean allowAllPaths) {
        this.allowAllPaths = allowAllPaths;
    }

    public Boolean getAllowAllTools() {
        return allowAllTools;
    }

    /** True or false; null (the default, and the form's "global setting" entry) takes the global configuration's value. */
    @DataBoundSetter
    public void setAllowAllTools(Boolean allowAllTools) {
        this.allowAllTools = allowAllTools;
    }

    public List<String> getAllowTools() {
        return allowTools;
    }

    @DataBoundSetter
    public void setAllowTools(List<String> allowTools) {
        this.allowTools = FormLists.clean(allowTools);
    }

    public List<String> getDenyTools() {
        return denyTools;
    }

    @DataBoundSetter
    public void setDenyTools(List<String> denyTools) {
        this.denyTools = FormLists.clean(denyTools);
    }

    public List<String> getApproveTools() {
        return approveTools;
    }

    @DataBoundSetter
    public void setApproveTools(List<String> approveTools) {
        this.approveTools = FormLists.clean(approveTools);
    }

    public List<String> getApprovers() {
        return approvers;
    }

    @DataBoundSetter
    public void setApprovers(List<String> approvers) {
        this.approvers = FormLists.clean(approvers);
    }

    public Integer getApprovalTimeout() {
        return approvalTimeout;
    }

    @DataBoundSetter
    public void setApprovalTimeout(Integer approvalTimeout) {
        this.approvalTimeout = approvalTimeout;
    }

    public List<String> getAddDirs() {
        return addDirs;
    }

    @DataBoundSetter
    public void setAddDirs(List<String> addDirs) {
        this.addDirs = FormLists.clean(addDirs);
    }

    public String getSession() {
        return session;
    }

    /** A name (e.g. {@code pr-42}) the session is kept under: the job's next build with it continues the conversation. */
    @DataBoundSetter
    public void setSession(String session) {
        this.session = Util.fixEmptyAndTrim(session);
    }

    public String getMcpServers() {
        return mcpServers;
    }

    /** MCP servers for the session: the CLI's JSON configuration, or {@code @file} in the workspace; null: the global one. */
    @DataBoundSetter
    public void setMcpServers(String mcpServers) {
        this.mcpServers = Util.fixEmptyAndTrim(mcpServers);
    }

    public String getVerify() {
        return verify;
    }

    /** The acceptance check: a shell command run on the agent after task_complete; exit 0 accepts the completion. */
    @DataBoundSetter
    public void setVerify(String verify) {
        this.verify = Util.fixEmptyAndTrim(verify);
    }

    public Integer getMaxVerifyRounds() {
        return maxVerifyRounds;
    }

    /** How often the check runs at most (default 2: the agent may fix one failure); null: the global setting. */
    @DataBoundSetter
    public void setMaxVerifyRounds(Integer maxVerifyRounds) {
        this.maxVerifyRounds = maxVerifyRounds;
    }

    public String getOutputSchema() {
        return outputSchema;
    }

    /** A JSON Schema the agent's answer (the summary of task_complete) must follow, or {@code @file} in the workspace. */
    @DataBoundSetter
    public void setOutputSchema(String outputSchema) {
        this.outputSchema = Util.fixEmptyAndTrim(outputSchema);
    }

    public Boolean getReviewFindings() {
        return reviewFindings;
    }

    /** Asks for review findings (path, line, severity, message), published as check annotations and in {@code issuesFile}. */
    @DataBoundSetter
    public void setReviewFindings(Boolean reviewFindings) {
        this.reviewFindings = reviewFindings;
    }

    public Integer getMaxOutputRounds() {
        return maxOutputRounds;
    }

    /** How many answers are checked against the schema at most (default 2: the agent may fix one). */
    @DataBoundSetter
    public void setMaxOutputRounds(Integer maxOutputRounds) {
        this.maxOutputRounds = maxOutputRounds;
    }

    public String getOutputFile() {
        return outputFile;
    }

    /** A workspace file the answer (JSON) is written to. */
    @DataBoundSetter
    public void setOutputFile(String outputFile) {
        this.outputFile = Util.fixEmptyAndTrim(outputFile);
    }

    public String getIssuesFile() {
        return issuesFile;
    }

    /** A workspace file the findings are written to, in analysis-model's JSON, for warnings-ng's {@code issues} tool. */
    @DataBoundSetter
    public void setIssuesFile(String issuesFile) {
        this.issuesFile = Util.fixEmptyAndTrim(issuesFile);
    }

    public List<String> getAllowUrls() {
        return allowUrls;
    }

    /** URLs and domains the agent's tools may reach (the CLI's {@code --allow-url}); the global list is a ceiling. */
    @DataBoundSetter
    public void setAllowUrls(List<String> allowUrls) {
        this.allowUrls = FormLists.clean(allowUrls);
    }

    public List<String> getDenyUrls() {
        return denyUrls;
    }

    /** URLs and domains they may never reach (the CLI's {@code --deny-url}); the global list always applies too. */
    @DataBoundSetter
    public void setDenyUrls(List<String> denyUrls) {
        this.denyUrls = FormLists.clean(denyUrls);
    }

    /** Whether shell commands run in the CLI's sandbox ({@code --sandbox}); null: the global setting, else no. */
    public Boolean getSandbox() {
        return sandbox;
    }

    @DataBoundSetter
    public void setSandbox(Boolean sandbox) {
        this.sandbox = sandbox;
    }

    public Boolean getClientTelemetry() {
        return clientTelemetry;
    }

    @DataBoundSetter
    public void setClientTelemetry(Boolean clientTelemetry) {
        this.clientTelemetry = clientTelemetry;
    }

    /** Whether the agent gets the CLI's built-in GitHub MCP server; null: the global setting, else yes. */
    public Boolean getGithubMcpServer() {
        return githubMcpServer;
    }

    @DataBoundSetter
    public void setGithubMcpServer(Boolean githubMcpServer) {
        this.githubMcpServer = githubMcpServer;
    }

    public String getReasoningEffort() {
        return reasoningEffort;
    }

    @DataBoundSetter
    public void setReasoningEffort(String reasoningEffort) {
        this.reasoningEffort = Util.fixEmptyAndTrim(reasoningEffort);
    }

    public Boolean getOtel() {
        return otel;
    }

    @DataBoundSetter
    public void setOtel(Boolean otel) {
        this.otel = otel;
    }

    public List<String> getToolSecrets() {
        return toolSecrets;
    }

    /** Secret variables (a {@code withCredentials} one, say) handed to the agent's tools all the same; still masked. */
    @DataBoundSetter
    public void setToolSecrets(List<String> toolSecrets) {
        this.toolSecrets = FormLists.clean(toolSecrets);
    }

    public List<String> getSecretEnvVars() {
        return secretEnvVars;
    }

    @DataBoundSetter
    public void setSecretEnvVars(List<String> secretEnvVars) {
        this.secretEnvVars = FormLists.clean(secretEnvVars);
    }

    public String getWorkingDirectory() {
        return workingDirectory;
    }

    @DataBoundSetter
    public void setWorkingDirectory(String workingDirectory) {
        this.workingDirectory = Util.fixEmptyAndTrim(workingDirectory);
    }

    public Integer getTimeout() {
        return timeout;
    }

    @DataBoundSetter
    public void setTimeout(Integer timeout) {
        this.timeout = timeout;
    }

    public Integer getToolTimeout() {
        return toolTimeout;
    }

    /** Minutes one tool call may run before the session ends TIMED_OUT naming it; 0 for none. */
    @DataBoundSetter
    public void setToolTimeout(Integer toolTimeout) {
        this.toolTimeout = toolTimeout;
    }

    public Integer getStartupTimeout() {
        return startupTimeout;
    }

    /** Minutes the CLI may print nothing after it was started before the session ends FAILED; 0 for none. */
    @DataBoundSetter
    public void setStartupTimeout(Integer startupTimeout) {
        this.startupTimeout = startupTimeout;
    }

    public Integer getInactivityTimeout() {
        return inactivityTimeout;
    }

    @DataBoundSetter
    public void setInactivityTimeout(Integer inactivityTimeout) {
        this.inactivityTimeout = inactivityTimeout;
    }

    public String getResultWhenIncomplete() {
        return resultWhenIncomplete;
    }

    @DataBoundSetter
    public void setResultWhenIncomplete(String resultWhenIncomplete) {
        this.resultWhenIncomplete = Util.fixEmptyAndTrim(resultWhenIncomplete);
    }

    public String getResultWhenBlocked() {
        return resultWhenBlocked;
    }

    @DataBoundSetter
    public void setResultWhenBlocked(String resultWhenBlocked) {
        this.resultWhenBlocked = Util.fixEmptyAndTrim(resultWhenBlocked);
    }

    public String getCopilotPath() {
        return copilotPath;
    }

    @DataBoundSetter
    public void setCopilotPath(String copilotPath) {
        this.copilotPath = Util.fixEmptyAndTrim(copilotPath);
    }

    public String getInstallation() {
        return installation;
    }

    @DataBoundSetter
    public void setInstallation(String installation) {
        this.installation = Util.fixEmptyAndTrim(installation);
    }

    public String getProviderBaseUrl() {
        return providerBaseUrl;
    }

    @DataBoundSetter
    public void setProviderBaseUrl(String providerBaseUrl) {
        this.providerBaseUrl = Util.fixEmptyAndTrim(providerBaseUrl);
    }

    public String getProviderType() {
        return providerType;
    }

    @DataBoundSetter
    public void setProviderType(String providerType) {
        this.providerType = Util.fixEmptyAndTrim(providerType);
    }

    public String getProviderWireApi() {
        return providerWireApi;
    }

    @DataBoundSetter
    public void setProviderWireApi(String providerWireApi) {
        this.providerWireApi = Util.fixEmptyAndTrim(providerWireApi);
    }

    public String getProviderCredentialsId() {
        return providerCredentialsId;
    }

    @DataBoundSetter
    public void setProviderCredentialsId(String providerCredentialsId) {
        this.providerCredentialsId = Util.fixEmptyAndTrim(providerCredentialsId);
    }

    public boolean isOffline() {
        return offline;
    }

    @DataBoundSetter
    public void setOffline(boolean offline) {
        this.offline = offline;
    }

    /**
     * Whether what the agent changed in the git work tree is recorded (snapshots before and after); null (the default,
     * the form's "global setting") takes the global configuration's value, itself yes unless an administrator says no.
     */
    public Boolean getRecordChanges() {
        return recordChanges;
    }

    @DataBoundSetter
    public void setRecordChanges(Boolean recordChanges) {
        this.recordChanges = recordChanges;
    }

    /**
     * Whether what the agent writes (its messages, its tools' arguments and outputs, its summary) is printed in the
     * console, and so shown to everyone who may read the build; null (the default, the form's "global setting") takes
     * the global configuration's value, itself yes unless an administrator says no. When not, the console shows the
     * session's course only, and the session page shows the words to users who may read the workspace.
     */
    public Boolean getAgentTextInConsole() {
        return agentTextInConsole;
    }

    @DataBoundSetter
    public void setAgentTextInConsole(Boolean agentTextInConsole) {
        this.agentTextInConsole = agentTextInConsole;
    }

    /** The settings as given, for the plan (merged with the administrator's defaults when a session starts). */
    SettingValues settings() {
        return StepSettings.of(this);
    }

    /** For the form: a list setting ({@code allowTools}, ...) as one entry per line. */
    public String listText(String field) {
        return StepSettings.listText(this, field);
    }

    /** True (the default): an outcome that fails the build fails the step. False: the step returns its map instead. */
    public boolean isPropagate() {
        return propagate == null || propagate;
    }

    @DataBoundSetter
    public void setPropagate(boolean propagate) {
        this.propagate = propagate ? null : Boolean.FALSE;
    }

    /**
     * A saved form without a list (written by hand or by a tool, or before the list existed) loads with it empty:
     * XStream sets no field the XML does not name, and runs no initializer.
     */
    private Object readResolve() {
        allowTools = allowTools == null ? new ArrayList<>() : allowTools;
        denyTools = denyTools == null ? new ArrayList<>() : denyTools;
        approveTools = approveTools == null ? new ArrayList<>() : approveTools;
        approvers = approvers == null ? new ArrayList<>() : approvers;
        addDirs = addDirs == null ? new ArrayList<>() : addDirs;
        allowUrls = allowUrls == null ? new ArrayList<>() : allowUrls;
        denyUrls = denyUrls == null ? new ArrayList<>() : denyUrls;
        secretEnvVars = secretEnvVars == null ? new ArrayList<>() : secretEnvVars;
        toolSecrets = toolSecrets == null ? new ArrayList<>() : toolSecrets;
        return this;
    }

    @Extension
    public static final class DescriptorImpl extends StepDescriptor {
        private static final Map<String, SettingField> FIELDS = fields();

        @Override
        public String getFunctionName() {
            return "copilotAutopilot";
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.CopilotAutopilotStep_DisplayName();
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, TaskListener.class, FilePath.class, Launcher.class, EnvVars.class, FlowNode.class);
        }

        @Override
        public Step newInstance(StaplerRequest2 req, @NonNull JSONObject formData) throws FormException {
            return super.newInstance(req, FormLists.fromForm(formData));
        }

        /**
         * A Pipeline's arguments: a check given empty ({@code verify: env.CHECK} with {@code CHECK} unset or empty) is
         * refused, never taken as "no check", which would let an unchecked session end COMPLETED. An empty box on a
         * form is no check (forms post every box; they come through {@link #newInstance(StaplerRequest2, JSONObject)}).
         */
        @Override
        public Step newInstance(Map<String, Object> arguments) throws Exception {
            for (Setting<String> check : List.of(SessionSettings.VERIFY, SessionSettings.OUTPUT_SCHEMA)) {
                if (arguments.containsKey(check.name())) {
                    Object value = arguments.get(check.name());
                    if (value == null || value.toString().isBlank()) {
                        throw new hudson.AbortException(Messages.CopilotAutopilotStep_EmptyCheck(check.name()));
                    }
                }
            }
            return super.newInstance(arguments);
        }

        /** The settings the form shows, in the catalog's order: among the global defaults only those an administrator may set. */
        public List<SettingField> fields(boolean global) {
            return FIELDS.values().stream().filter(f -> !global || f.setting().hasDefault()).toList();
        }

        /** {@code setting/<name>/}: a setting's check and selection entries. */
        public SettingField getSetting(String name) {
            return FIELDS.get(name);
        }

        /** A setting's selection is filled by its {@link SettingField}, with the form's copilotScope. */
        @Override
        public void calcFillSettings(String field, Map<String, Object> attributes) {
            SettingField setting = FIELDS.get(field);
            if (setting == null) {
                super.calcFillSettings(field, attributes);
                return;
            }
            attributes.put("fillDependsOn", "copilotScope " + field);
            attributes.put("fillUrl", getCurrentDescriptorByNameUrl() + "/" + getDescriptorUrl() + "/setting/" + field + "/fillItems");
        }

        /** A setting's field is checked by its {@link SettingField}. */
        @Override
        public FormValidation.CheckMethod getCheckMethod(String field) {
            SettingField setting = FIELDS.get(field);
            if (setting == null || !setting.isChecked()) {
                return super.getCheckMethod(field);
            }
            String with = SettingForms.checkedWith(setting.setting());
            DescriptorImpl descriptor = this;
            return new FormValidation.CheckMethod(this, field) {
                @Override
                public String toStemUrl() {
                    return getCurrentDescriptorByNameUrl() + "/" + descriptor.getDescriptorUrl() + "/setting/" + field + "/check";
                }

                @Override
                public String getDependsOn() {
                    return with == null ? "" : with;
                }
            };
        }

        public FormValidation doCheckPrompt(@QueryParameter String value, @QueryParameter String promptFile) {
            return SettingForms.checkPrompt(value, promptFile);
        }

        private static Map<String, SettingField> fields() {
            Map<String, SettingField> fields = new LinkedHashMap<>();
            for (Setting<?> setting : SessionSettings.all()) {
                fields.put(setting.name(), new SettingField(setting));
            }
            return fields;
        }
    }
}
