package io.jenkins.plugins.copilotautopilot.core.settings;

import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import io.jenkins.plugins.copilotautopilot.core.command.InvalidOptionsException;
import io.jenkins.plugins.copilotautopilot.core.command.ProviderOptions;
import io.jenkins.plugins.copilotautopilot.core.outcome.ResultWhenIncomplete;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The settings of one step as a user wrote them, every one optional, and their merge with an administrator's
 * defaults ({@link #withDefaults}). Numbers of minutes: null for the default, 0 for no limit.
 *
 * <p>Merge rules, so that a job can never weaken what an administrator set up by accident:
 * <ul>
 *   <li>A value the step sets wins; an unset one takes the default.</li>
 *   <li>{@code denyTools} is the union of both lists: a job cannot drop a tool the administrator denies.</li>
 *   <li>The model provider is taken as one block: when the step names its own {@code providerBaseUrl}, none of
 *       the default provider's settings (above all its API key) is used, so a job cannot send the
 *       administrator's key to an endpoint of its choosing. A step may still set {@code offline} on the default
 *       provider.</li>
 * </ul>
 */
public final class TaskSettings {
    /** The check a session is published as unless {@code checksName} says otherwise. */
    public static final String DEFAULT_CHECKS_NAME = "Copilot Autopilot";
    private final String prompt;
    private final String promptFile;
    private final String changesFile;
    private final Integer includeBuildLog;
    private final String model;
    private final String credentialsId;
    private final Integer maxAutopilotContinues;
    private final Double maxPremiumRequests;
    private final Long maxTokens;
    private final Boolean allowAllTools;
    private final Boolean allowAllPaths;
    /** Set when the administrator's explicit no overrode a step's yes to {@code allowAllPaths}. */
    private final boolean allowAllPathsRefused;
    private final List<String> allowTools;
    private final List<String> denyTools;
    private final List<String> addDirs;
    private final List<String> allowUrls;
    private final List<String> denyUrls;
    /** The step's allowUrls entries the administrator's allow list does not hold (it is a ceiling). */
    private final List<String> allowUrlsOutside;
    private final Boolean sandbox;
    private final String verify;
    /** The name the session is kept under between the job's builds, or null. */
    public String session() {
        return session;
    }

    /** The MCP servers' configuration as given (JSON text or {@code @file}), references not yet resolved. */
    private final String mcpServers;
    /** The name the session is kept under for the job's next builds, or null. The step's alone. */
    private final String session;
    private final Integer maxVerifyRounds;
    private final List<String> secretEnvVars;
    private final List<String> toolSecrets;
    private final String workingDirectory;
    private final Integer timeoutMinutes;
    private final Integer inactivityTimeoutMinutes;
    private final Integer toolTimeoutMinutes;
    private final Integer startupTimeoutMinutes;
    private final String resultWhenIncomplete;
    private final String resultWhenBlocked;
    private final String copilotPath;
    private final String installation;
    private final String providerBaseUrl;
    private final String providerType;
    private final String providerWireApi;
    private final String providerCredentialsId;
    private final Boolean offline;
    private final Boolean recordChanges;
    private final Boolean agentTextInConsole;
    private final Boolean skipPublishingChecks;
    private final String checksName;
    private final Set<String> fromDefaults;

    private TaskSettings(Builder b, Set<String> fromDefaults) {
        prompt = b.prompt;
        promptFile = blankToNull(b.promptFile);
        changesFile = blankToNull(b.changesFile);
        includeBuildLog = b.includeBuildLog;
        model = blankToNull(b.model);
        credentialsId = blankToNull(b.credentialsId);
        maxAutopilotContinues = b.maxAutopilotContinues;
        maxPremiumRequests = b.maxPremiumRequests;
        maxTokens = b.maxTokens;
        allowAllTools = b.allowAllTools;
        allowAllPaths = b.allowAllPaths;
        allowAllPathsRefused = b.allowAllPathsRefused;
        allowTools = clean(b.allowTools);
        denyTools = clean(b.denyTools);
        addDirs = clean(b.addDirs);
        allowUrls = clean(b.allowUrls);
        denyUrls = clean(b.denyUrls);
        allowUrlsOutside = List.copyOf(b.allowUrlsOutside);
        sandbox = b.sandbox;
        verify = b.verify == null || b.verify.isBlank() ? null : b.verify;
        mcpServers = b.mcpServers == null || b.mcpServers.isBlank() ? null : b.mcpServers.strip();
        session = b.session == null || b.session.isBlank() ? null : b.session.strip();
        maxVerifyRounds = b.maxVerifyRounds;
        secretEnvVars = clean(b.secretEnvVars);
        toolSecrets = clean(b.toolSecrets);
        workingDirectory = blankToNull(b.workingDirectory);
        timeoutMinutes = b.timeoutMinutes;
        inactivityTimeoutMinutes = b.inactivityTimeoutMinutes;
        toolTimeoutMinutes = b.toolTimeoutMinutes;
        startupTimeoutMinutes = b.startupTimeoutMinutes;
        resultWhenIncomplete = blankToNull(b.resultWhenIncomplete);
        resultWhenBlocked = blankToNull(b.resultWhenBlocked);
        copilotPath = blankToNull(b.copilotPath);
        installation = blankToNull(b.installation);
        providerBaseUrl = blankToNull(b.providerBaseUrl);
        providerType = blankToNull(b.providerType);
        providerWireApi = blankToNull(b.providerWireApi);
        providerCredentialsId = blankToNull(b.providerCredentialsId);
        offline = b.offline;
        recordChanges = b.recordChanges;
        agentTextInConsole = b.agentTextInConsole;
        skipPublishingChecks = b.skipPublishingChecks;
        checksName = blankToNull(b.checksName);
        this.fromDefaults = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(fromDefaults));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** These settings completed from {@code defaults} (the global configuration); see the class comment. */
    public TaskSettings withDefaults(TaskSettings defaults) {
        Set<String> taken = new LinkedHashSet<>();
        Builder b = new Builder();
        b.prompt = prompt;
        b.promptFile = promptFile;
        b.changesFile = changesFile;
        b.includeBuildLog = includeBuildLog;
        b.workingDirectory = workingDirectory;
        b.addDirs = addDirs;
        b.secretEnvVars = secretEnvVars;
        b.toolSecrets = toolSecrets;
        b.copilotPath = copilotPath;
        // a step that asks for the changes as a file records them, whatever the default says
        b.recordChanges = changesFile != null && recordChanges == null ? Boolean.TRUE
                : pick("recordChanges", recordChanges, defaults.recordChanges, taken);
        b.agentTextInConsole = pick("agentTextInConsole", agentTextInConsole, defaults.agentTextInConsole, taken);
        b.skipPublishingChecks = pick("skipPublishingChecks", skipPublishingChecks, defaults.skipPublishingChecks, taken);
        b.checksName = pick("checksName", checksName, defaults.checksName, taken);
        b.model = pick("model", model, defaults.model, taken);
        b.credentialsId = pick("credentialsId", credentialsId, defaults.credentialsId, taken);
        b.maxAutopilotContinues = pick("maxAutopilotContinues", maxAutopilotContinues, defaults.maxAutopilotContinues, taken);
        // budgets: the administrator's is a ceiling, a step may only set a lower one
        b.maxPremiumRequests = lower("maxPremiumRequests", maxPremiumRequests, defaults.maxPremiumRequests, taken);
        b.maxTokens = lower("maxTokens", maxTokens, defaults.maxTokens, taken);
        b.allowAllTools = pick("allowAllTools", allowAllTools, defaults.allowAllTools, taken);
        // the administrator's explicit no is a ceiling: a step may not open every path
        b.allowAllPathsRefused = Boolean.TRUE.equals(allowAllPaths) && Boolean.FALSE.equals(defaults.allowAllPaths);
        b.allowAllPaths = pick("allowAllPaths", allowAllPaths, defaults.allowAllPaths, taken);
        b.allowTools = allowTools.isEmpty() ? defaults.allowTools : allowTools;
        if (allowTools.isEmpty() && !defaults.allowTools.isEmpty()) {
            taken.add("allowTools");
        }
        LinkedHashSet<String> denied = new LinkedHashSet<>(denyTools);
        if (denied.addAll(defaults.denyTools)) {
            taken.add("denyTools");
        }
        b.denyTools = new ArrayList<>(denied);
        // the administrator's deny list always applies; their allow list is a ceiling a step may narrow
        LinkedHashSet<String> deniedUrls = new LinkedHashSet<>(denyUrls);
        if (deniedUrls.addAll(defaults.denyUrls)) {
            taken.add("denyUrls");
        }
        b.denyUrls = new ArrayList<>(deniedUrls);
        b.allowUrls = allowUrls.isEmpty() ? defaults.allowUrls : allowUrls;
        if (allowUrls.isEmpty() && !defaults.allowUrls.isEmpty()) {
            taken.add("allowUrls");
        }
        if (!defaults.allowUrls.isEmpty()) {
            Set<String> ceiling = new java.util.HashSet<>();
            defaults.allowUrls.forEach(u -> ceiling.add(u.toLowerCase(java.util.Locale.ROOT)));
            b.allowUrlsOutside = allowUrls.stream().filter(u -> !ceiling.contains(u.toLowerCase(java.util.Locale.ROOT))).toList();
        }
        b.verify = pick("verify", verify, defaults.verify, taken);
        b.mcpServers = pick("mcpServers", mcpServers, defaults.mcpServers, taken);
        b.session = session;
        b.maxVerifyRounds = pick("maxVerifyRounds", maxVerifyRounds, defaults.maxVerifyRounds, taken);
        // the administrator's yes is a floor: every session runs sandboxed
        b.sandbox = Boolean.TRUE.equals(defaults.sandbox) ? Boolean.TRUE : pick("sandbox", sandbox, defaults.sandbox, taken);
        if (Boolean.TRUE.equals(defaults.sandbox) && !Boolean.TRUE.equals(sandbox)) {
            taken.add("sandbox");
        }
        b.timeoutMinutes = pick("timeout", timeoutMinutes, defaults.timeoutMinutes, taken);
        b.inactivityTimeoutMinutes = pick("inactivityTimeout", inactivityTimeoutMinutes, defaults.inactivityTimeoutMinutes, taken);
        b.toolTimeoutMinutes = pick("toolTimeout", toolTimeoutMinutes, defaults.toolTimeoutMinutes, taken);
        b.startupTimeoutMinutes = pick("startupTimeout", startupTimeoutMinutes, defaults.startupTimeoutMinutes, taken);
        b.resultWhenIncomplete = pick("resultWhenIncomplete", resultWhenIncomplete, defaults.resultWhenIncomplete, taken);
        b.resultWhenBlocked = pick("resultWhenBlocked", resultWhenBlocked, defaults.resultWhenBlocked, taken);
        b.installation = copilotPath != null ? installation
                : pick("installation", installation, defaults.installation, taken);
        TaskSettings provider = providerBaseUrl != null || defaults.providerBaseUrl == null ? this : defaults;
        if (provider == defaults) {
            taken.add("provider");
        }
        b.providerBaseUrl = provider.providerBaseUrl;
        b.providerType = provider.providerType;
        b.providerWireApi = provider.providerWireApi;
        b.providerCredentialsId = provider.providerCredentialsId;
        // a step may make the default provider stricter (offline), never looser
        b.offline = provider == defaults && Boolean.TRUE.equals(offline) ? Boolean.TRUE : provider.offline;
        return new TaskSettings(b, taken);
    }

    /**
     * The options the CLI is started with.
     *
     * @param githubToken the token the {@link #githubTokenSource} pointed at, or null
     * @param providerApiKey the secret behind {@link #providerCredentialsId()}, or null
     * @throws InvalidOptionsException listing every problem
     */
    public AutopilotOptions toOptions(String githubToken, String providerApiKey) {
        return toOptions(githubToken, providerApiKey, null);
    }

    /**
     * The options the CLI is started with, the task read from {@link #promptFile()} where the file is.
     *
     * @param promptFileText the text of {@link #promptFile()}, or null when there is none
     * @throws InvalidOptionsException listing every problem
     */
    public AutopilotOptions toOptions(String githubToken, String providerApiKey, String promptFileText) {
        List<String> problems = new ArrayList<>();
        String task = prompt;
        if (promptFile != null) {
            if (prompt != null && !prompt.isBlank()) {
                problems.add("Give the task as prompt or as promptFile, not both.");
            }
            task = promptFileText == null ? "" : promptFileText;
        }
        if (includeBuildLog != null && (includeBuildLog < 0 || includeBuildLog > BuildLogExcerpt.MAX_LINES)) {
            problems.add("includeBuildLog must be a number of lines from 0 to " + BuildLogExcerpt.MAX_LINES + "; was "
                    + includeBuildLog + ".");
        }
        if (allowAllPathsRefused) {
            problems.add("allowAllPaths is turned off by the administrator (Manage Jenkins » System): leave it out of the step.");
        }
        if (!allowUrlsOutside.isEmpty()) {
            problems.add("allowUrls may only narrow the administrator's allow list (Manage Jenkins » System), which does not hold "
                    + String.join(" ", allowUrlsOutside) + ".");
        }
        if (session != null && !AutopilotOptions.SESSION_NAME.matcher(session).matches()) {
            problems.add("session must be a name of letters, digits, '.', '_' and '-' (at most 64, not starting with '.', '_' or '-'),"
                    + " e.g. pr-42; was '" + session + "'.");
        }
        if (changesFile != null && Boolean.FALSE.equals(recordChanges)) {
            problems.add("changesFile needs the changes recorded: leave recordChanges on, or leave changesFile out.");
        }
        AutopilotOptions.Builder b = AutopilotOptions.builder(task)
                .model(model)
                .maxAutopilotContinues(maxAutopilotContinues)
                .maxPremiumRequests(maxPremiumRequests)
                .maxTokens(maxTokens)
                .allowAllTools(Boolean.TRUE.equals(allowAllTools))
                .allowAllPaths(Boolean.TRUE.equals(allowAllPaths) && !allowAllPathsRefused)
                .sandbox(Boolean.TRUE.equals(sandbox))
                .verify(verify)
                .keepSession(session != null)
                .maxVerifyRounds(maxVerifyRounds)
                .recordChanges(!Boolean.FALSE.equals(recordChanges))
                .githubToken(githubToken)
                .timeout(minutes("timeout", timeoutMinutes, AutopilotOptions.DEFAULT_TIMEOUT, problems))
                .inactivityTimeout(minutes("inactivityTimeout", inactivityTimeoutMinutes,
                        AutopilotOptions.DEFAULT_INACTIVITY_TIMEOUT, problems))
                .toolTimeout(minutes("toolTimeout", toolTimeoutMinutes, null, problems))
                .startupTimeout(minutes("startupTimeout", startupTimeoutMinutes, null, problems));
        allowTools.forEach(b::allowTool);
        denyTools.forEach(b::denyTool);
        addDirs.forEach(b::addDir);
        allowUrls.forEach(b::allowUrl);
        denyUrls.forEach(b::denyUrl);
        secretEnvVars.forEach(b::secretEnvVar);
        toolSecrets.forEach(b::toolSecret);
        if (providerBaseUrl != null) {
            b.provider(new ProviderOptions(providerBaseUrl, providerType, providerApiKey, providerWireApi,
                    Boolean.TRUE.equals(offline)));
        } else if (Boolean.TRUE.equals(offline)) {
            problems.add("offline needs your own model provider: set providerBaseUrl and model.");
        }
        try {
            ResultWhenIncomplete.parse(resultWhenIncomplete);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        try {
            ResultWhenIncomplete.parse(resultWhenBlocked, "resultWhenBlocked", null);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        AutopilotOptions options = b.build();
        problems.addAll(0, options.validate());
        if (!problems.isEmpty()) {
            throw new InvalidOptionsException(problems);
        }
        return options;
    }

    /**
     * Where the GitHub token comes from, in this order: the step's credential; {@code COPILOT_GITHUB_TOKEN} in
     * the build's environment (a token the pipeline bound on purpose); the administrator's default credential;
     * {@code GH_TOKEN} or {@code GITHUB_TOKEN} in the environment.
     *
     * @param environment the build's environment variables
     */
    public GithubTokenSource githubTokenSource(java.util.Map<String, String> environment) {
        boolean defaultCredential = fromDefaults.contains("credentialsId");
        if (credentialsId != null && !defaultCredential) {
            return GithubTokenSource.credential(credentialsId, false);
        }
        if (isSet(environment.get("COPILOT_GITHUB_TOKEN"))) {
            return GithubTokenSource.environment("COPILOT_GITHUB_TOKEN");
        }
        if (credentialsId != null) {
            return GithubTokenSource.credential(credentialsId, true);
        }
        for (String name : new String[] {"GH_TOKEN", "GITHUB_TOKEN"}) {
            if (isSet(environment.get(name))) {
                return GithubTokenSource.environment(name);
            }
        }
        return GithubTokenSource.none();
    }

    /** Which settings came from the defaults, in form order, for one line in the log ({@code provider} for the whole block). */
    public Set<String> fromDefaults() {
        return fromDefaults;
    }

    /** The build result for an INCOMPLETE outcome. */
    public ResultWhenIncomplete resultWhenIncompleteValue() {
        return ResultWhenIncomplete.parse(resultWhenIncomplete);
    }

    /** The build result for a BLOCKED outcome: as chosen, else that of an INCOMPLETE one. */
    public ResultWhenIncomplete resultWhenBlockedValue() {
        return ResultWhenIncomplete.parse(resultWhenBlocked, "resultWhenBlocked", resultWhenIncompleteValue());
    }

    private static Duration minutes(String name, Integer value, Duration fallback, List<String> problems) {
        if (value == null) {
            return fallback;
        }
        if (value < 0) {
            problems.add(name + " must be 0 (no limit) or a number of minutes; was " + value + ".");
            return fallback;
        }
        return value == 0 ? null : Duration.ofMinutes(value);
    }

    /** The lower of two limits (null = none); noted as taken from the defaults when the default one wins. */
    private static <T extends Comparable<T>> T lower(String name, T own, T fallback, Set<String> taken) {
        if (fallback != null && (own == null || fallback.compareTo(own) < 0)) {
            taken.add(name);
            return fallback;
        }
        return own;
    }

    private static <T> T pick(String name, T own, T fallback, Set<String> taken) {
        if (own != null) {
            return own;
        }
        if (fallback != null) {
            taken.add(name);
        }
        return fallback;
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static List<String> clean(List<String> entries) {
        return List.copyOf(Texts.nonBlank(entries));
    }

    public String prompt() {
        return prompt;
    }

    /** A file holding the task (relative to the step's directory, as {@code readFile} reads it), or null. */
    public String promptFile() {
        return promptFile;
    }

    /** How many of the build's last console lines to append to the task, or null (none). */
    public Integer includeBuildLog() {
        return includeBuildLog;
    }

    /** A file to write what the agent changed into (a unified diff, relative to the step's directory), or null. */
    public String changesFile() {
        return changesFile;
    }

    public String model() {
        return model;
    }

    public String credentialsId() {
        return credentialsId;
    }

    public Integer maxAutopilotContinues() {
        return maxAutopilotContinues;
    }

    public Double maxPremiumRequests() {
        return maxPremiumRequests;
    }

    public Long maxTokens() {
        return maxTokens;
    }

    public Boolean allowAllTools() {
        return allowAllTools;
    }

    public Boolean allowAllPaths() {
        return allowAllPaths;
    }

    public List<String> allowTools() {
        return allowTools;
    }

    public List<String> denyTools() {
        return denyTools;
    }

    public List<String> addDirs() {
        return addDirs;
    }

    public List<String> allowUrls() {
        return allowUrls;
    }

    public List<String> denyUrls() {
        return denyUrls;
    }

    public Boolean sandbox() {
        return sandbox;
    }

    public String verify() {
        return verify;
    }

    /** The MCP servers' configuration as given (JSON text, or {@code @file} in the workspace), or null. */
    public String mcpServers() {
        return mcpServers;
    }

    public Integer maxVerifyRounds() {
        return maxVerifyRounds;
    }

    public List<String> secretEnvVars() {
        return secretEnvVars;
    }

    /** Secret variables handed to the agent's tools all the same (still masked); a step's own, no default. */
    public List<String> toolSecrets() {
        return toolSecrets;
    }

    public String workingDirectory() {
        return workingDirectory;
    }

    public Integer timeoutMinutes() {
        return timeoutMinutes;
    }

    public Integer inactivityTimeoutMinutes() {
        return inactivityTimeoutMinutes;
    }

    public Integer toolTimeoutMinutes() {
        return toolTimeoutMinutes;
    }

    public Integer startupTimeoutMinutes() {
        return startupTimeoutMinutes;
    }

    public String resultWhenIncomplete() {
        return resultWhenIncomplete;
    }

    public String resultWhenBlocked() {
        return resultWhenBlocked;
    }

    /** The CLI executable or folder the step names; it wins over any installation. */
    public String copilotPath() {
        return copilotPath;
    }

    /** The name of a Copilot CLI tool installation, or null. */
    public String installation() {
        return installation;
    }

    public String providerBaseUrl() {
        return providerBaseUrl;
    }

    public String providerType() {
        return providerType;
    }

    public String providerWireApi() {
        return providerWireApi;
    }

    public String providerCredentialsId() {
        return providerCredentialsId;
    }

    /**
     * Whether what the agent writes is shown in the build's console, and so to everyone who may read the build; null
     * for the default (yes). When not, it is shown only to those who may read the workspace.
     */
    public boolean agentTextInConsole() {
        return !Boolean.FALSE.equals(agentTextInConsole);
    }

    /** The name of the check a session is published as, or null when none is to be published. */
    public String checksNameToPublish() {
        return Boolean.TRUE.equals(skipPublishingChecks) ? null : checksName != null ? checksName : DEFAULT_CHECKS_NAME;
    }

    /** Whether to record what the agent changed; null for the default (yes). */
    public Boolean recordChanges() {
        return recordChanges;
    }

    public Boolean offline() {
        return offline;
    }

    /** Collects settings; every one may stay unset. */
    public static final class Builder {
        private String prompt;
        private String promptFile;
        private String changesFile;
        private Integer includeBuildLog;
        private String model;
        private String credentialsId;
        private Integer maxAutopilotContinues;
        private Double maxPremiumRequests;
        private Long maxTokens;
        private Boolean allowAllTools;
        private Boolean allowAllPaths;
        private boolean allowAllPathsRefused;
        private List<String> allowTools = List.of();
        private List<String> denyTools = List.of();
        private List<String> addDirs = List.of();
        private List<String> allowUrls = List.of();
        private List<String> denyUrls = List.of();
        private List<String> allowUrlsOutside = List.of();
        private Boolean sandbox;
        private String verify;
        private String mcpServers;
        private String session;
        private Integer maxVerifyRounds;
        private List<String> secretEnvVars = List.of();
        private List<String> toolSecrets = List.of();
        private String workingDirectory;
        private Integer timeoutMinutes;
        private Integer inactivityTimeoutMinutes;
        private Integer toolTimeoutMinutes;
        private Integer startupTimeoutMinutes;
        private String resultWhenIncomplete;
        private String resultWhenBlocked;
        private String copilotPath;
        private String installation;
        private String providerBaseUrl;
        private String providerType;
        private String providerWireApi;
        private String providerCredentialsId;
        private Boolean offline;
        private Boolean recordChanges;
        private Boolean agentTextInConsole;
        private Boolean skipPublishingChecks;
        private String checksName;

        private Builder() {
        }

        public Builder prompt(String value) {
            prompt = value;
            return this;
        }

        public Builder promptFile(String value) {
            promptFile = value;
            return this;
        }

        public Builder changesFile(String value) {
            changesFile = value;
            return this;
        }

        public Builder includeBuildLog(Integer value) {
            includeBuildLog = value;
            return this;
        }

        public Builder model(String value) {
            model = value;
            return this;
        }

        public Builder credentialsId(String value) {
            credentialsId = value;
            return this;
        }

        public Builder maxPremiumRequests(Double value) {
            maxPremiumRequests = value;
            return this;
        }

        public Builder maxTokens(Long value) {
            maxTokens = value;
            return this;
        }

        public Builder maxAutopilotContinues(Integer value) {
            maxAutopilotContinues = value;
            return this;
        }

        public Builder allowAllPaths(Boolean value) {
            allowAllPaths = value;
            return this;
        }

        public Builder allowAllTools(Boolean value) {
            allowAllTools = value;
            return this;
        }

        public Builder allowTools(List<String> value) {
            allowTools = value == null ? List.of() : value;
            return this;
        }

        public Builder denyTools(List<String> value) {
            denyTools = value == null ? List.of() : value;
            return this;
        }

        public Builder allowUrls(List<String> value) {
            allowUrls = value == null ? List.of() : value;
            return this;
        }

        public Builder denyUrls(List<String> value) {
            denyUrls = value == null ? List.of() : value;
            return this;
        }

        public Builder session(String value) {
            session = value;
            return this;
        }

        public Builder mcpServers(String value) {
            mcpServers = value;
            return this;
        }

        public Builder verify(String value) {
            verify = value;
            return this;
        }

        public Builder maxVerifyRounds(Integer value) {
            maxVerifyRounds = value;
            return this;
        }

        public Builder sandbox(Boolean value) {
            sandbox = value;
            return this;
        }

        public Builder addDirs(List<String> value) {
            addDirs = value == null ? List.of() : value;
            return this;
        }

        public Builder toolSecrets(List<String> value) {
            toolSecrets = value == null ? List.of() : value;
            return this;
        }

        public Builder secretEnvVars(List<String> value) {
            secretEnvVars = value == null ? List.of() : value;
            return this;
        }

        public Builder workingDirectory(String value) {
            workingDirectory = value;
            return this;
        }

        public Builder timeoutMinutes(Integer value) {
            timeoutMinutes = value;
            return this;
        }

        /** Minutes one tool call may run; 0 or null: no limit. */
        public Builder toolTimeoutMinutes(Integer value) {
            toolTimeoutMinutes = value;
            return this;
        }

        /** Minutes the CLI may print nothing after its start; 0 or null: no limit. */
        public Builder startupTimeoutMinutes(Integer value) {
            startupTimeoutMinutes = value;
            return this;
        }

        public Builder inactivityTimeoutMinutes(Integer value) {
            inactivityTimeoutMinutes = value;
            return this;
        }

        public Builder resultWhenIncomplete(String value) {
            resultWhenIncomplete = value;
            return this;
        }

        /** FAILURE, UNSTABLE or SUCCESS for a BLOCKED outcome; none: as for INCOMPLETE. */
        public Builder resultWhenBlocked(String value) {
            resultWhenBlocked = value;
            return this;
        }

        public Builder copilotPath(String value) {
            copilotPath = value;
            return this;
        }

        public Builder installation(String value) {
            installation = value;
            return this;
        }

        public Builder providerBaseUrl(String value) {
            providerBaseUrl = value;
            return this;
        }

        public Builder providerType(String value) {
            providerType = value;
            return this;
        }

        public Builder providerWireApi(String value) {
            providerWireApi = value;
            return this;
        }

        public Builder providerCredentialsId(String value) {
            providerCredentialsId = value;
            return this;
        }

        public Builder skipPublishingChecks(Boolean value) {
            this.skipPublishingChecks = value;
            return this;
        }

        public Builder checksName(String value) {
            this.checksName = value;
            return this;
        }

        public Builder agentTextInConsole(Boolean value) {
            this.agentTextInConsole = value;
            return this;
        }

        public Builder recordChanges(Boolean value) {
            this.recordChanges = value;
            return this;
        }

        public Builder offline(Boolean value) {
            offline = value;
            return this;
        }

        public TaskSettings build() {
            return new TaskSettings(this, Set.of());
        }
    }
}
