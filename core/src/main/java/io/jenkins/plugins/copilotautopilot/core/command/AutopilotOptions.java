package io.jenkins.plugins.copilotautopilot.core.command;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Everything that describes one autopilot task: the prompt, the model, the tool policy, credentials
 * and limits. Immutable; build with {@link #builder(String)} and check with {@link #validate()}.
 *
 * <p>Names follow the CLI's own vocabulary ({@code maxAutopilotContinues}, {@code allowAllTools},
 * {@code allowTools}, {@code denyTools}, {@code addDirs}). Secrets (the GitHub token, the provider's API
 * key) never appear in {@link #toString()}.
 */
public final class AutopilotOptions {
    /** Wall-clock limit unless set otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(60);
    /** Longest time without any event unless set otherwise. */
    public static final Duration DEFAULT_INACTIVITY_TIMEOUT = Duration.ofMinutes(10);
    /** The longest task taken (it goes to the CLI's standard input): 1 MiB. */
    public static final int MAX_PROMPT_BYTES = 1024 * 1024;

    static final Set<String> PROVIDER_TYPES = Set.of("openai", "azure", "anthropic");
    static final Set<String> WIRE_APIS = Set.of("completions", "responses");
    /** A name a session is kept under between runs ({@code session: 'pr-42'}). */
    public static final Pattern SESSION_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** Acceptance check rounds without {@code maxVerifyRounds}: one failure the agent may fix. */
    public static final int DEFAULT_VERIFY_ROUNDS = 2;
    public static final int MAX_VERIFY_ROUNDS = 10;
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** What the CLI takes as a URL rule: a domain, or a URL with http or https and no spaces. */
    private static final Pattern URL_RULE = Pattern.compile("(?i)(https?://)?[^\\s/:]+(:\\d+)?(/\\S*)?");

    private final String prompt;
    private final String model;
    private final Integer maxAutopilotContinues;
    private final Double maxPremiumRequests;
    private final Long maxTokens;
    private final boolean allowAllTools;
    private final boolean allowAllPaths;
    private final boolean sandbox;
    private final String verify;
    private final boolean keepSession;
    private final boolean untrusted;
    private final byte[] keptSession;
    private final McpServers.Resolved mcpServers;
    private final Integer maxVerifyRounds;
    private final List<String> allowTools;
    private final List<String> denyTools;
    private final List<String> addDirs;
    private final List<String> allowUrls;
    private final List<String> denyUrls;
    private final List<String> secretEnvVars;
    private final List<String> toolSecrets;
    private final String githubToken;
    private final ProviderOptions provider;
    private final Duration timeout;
    private final Duration inactivityTimeout;
    private final Duration toolTimeout;
    private final Duration startupTimeout;
    private final boolean recordChanges;

    private AutopilotOptions(Builder b) {
        this.prompt = b.prompt;
        this.model = blankToNull(b.model);
        this.maxAutopilotContinues = b.maxAutopilotContinues;
        this.maxPremiumRequests = b.maxPremiumRequests;
        this.maxTokens = b.maxTokens;
        this.allowAllTools = b.allowAllTools;
        this.allowAllPaths = b.allowAllPaths;
        this.sandbox = b.sandbox;
        this.verify = b.verify;
        this.keepSession = b.keepSession;
        this.untrusted = b.untrusted;
        this.keptSession = b.keptSession;
        this.mcpServers = b.mcpServers;
        this.maxVerifyRounds = b.maxVerifyRounds;
        this.allowTools = List.copyOf(b.allowTools);
        this.denyTools = List.copyOf(b.denyTools);
        this.addDirs = List.copyOf(b.addDirs);
        this.allowUrls = List.copyOf(b.allowUrls);
        this.denyUrls = List.copyOf(b.denyUrls);
        this.secretEnvVars = List.copyOf(b.secretEnvVars);
        this.toolSecrets = List.copyOf(b.toolSecrets);
        this.githubToken = blankToNull(b.githubToken);
        this.provider = b.provider;
        this.timeout = b.timeout;
        this.inactivityTimeout = b.inactivityTimeout;
        this.toolTimeout = b.toolTimeout;
        this.startupTimeout = b.startupTimeout;
        this.recordChanges = b.recordChanges;
    }

    public static Builder builder(String prompt) {
        return new Builder(prompt);
    }

    /** These options with another task (validate them again: it may be too long). */
    public AutopilotOptions withPrompt(String task) {
        Builder b = toBuilder();
        b.prompt = task;
        return b.build();
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        Builder b = new Builder(prompt).model(model).maxAutopilotContinues(maxAutopilotContinues)
                .maxPremiumRequests(maxPremiumRequests).maxTokens(maxTokens)
                .allowAllTools(allowAllTools).allowAllPaths(allowAllPaths).sandbox(sandbox).verify(verify).keepSession(keepSession).untrusted(untrusted).keptSession(keptSession).maxVerifyRounds(maxVerifyRounds).mcpServers(mcpServers).githubToken(githubToken).provider(provider)
                .timeout(timeout).inactivityTimeout(inactivityTimeout).toolTimeout(toolTimeout).startupTimeout(startupTimeout)
                .recordChanges(recordChanges);
        allowTools.forEach(b::allowTool);
        denyTools.forEach(b::denyTool);
        addDirs.forEach(b::addDir);
        allowUrls.forEach(b::allowUrl);
        denyUrls.forEach(b::denyUrl);
        secretEnvVars.forEach(b::secretEnvVar);
        toolSecrets.forEach(b::toolSecret);
        return b;
    }

    /**
     * Every problem with these options, in words a user can act on, settings named by the Jenkins step's
     * parameter names; empty when they can run.
     */
    public List<String> validate() {
        return validate(Setting::parameterName);
    }

    /** Every problem with these options, settings named by {@code names}; empty when they can run. */
    public List<String> validate(Function<Setting, String> names) {
        List<String> messages = new ArrayList<>();
        for (OptionProblem problem : problems()) {
            messages.add(problem.message(names));
        }
        return messages;
    }

    /** Every problem with these options, each with the setting it is about; empty when they can run. */
    public List<OptionProblem> problems() {
        List<OptionProblem> problems = new ArrayList<>();
        if (prompt == null || prompt.isBlank()) {
            problems.add(fixed(Setting.PROMPT, "The prompt is empty: give the agent a task."));
        } else {
            if (prompt.indexOf('\0') >= 0) {
                problems.add(fixed(Setting.PROMPT, "The prompt contains a NUL character, which the CLI cannot take as text."));
            }
            int bytes = prompt.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_PROMPT_BYTES) {
                problems.add(fixed(Setting.PROMPT, "The prompt is " + bytes + " bytes long; the limit is " + MAX_PROMPT_BYTES + " bytes (1 MiB)."));
            }
        }
        if (maxAutopilotContinues != null && maxAutopilotContinues < 0) {
            problems.add(named(Setting.MAX_AUTOPILOT_CONTINUES, " must be 0 or more, was " + maxAutopilotContinues + "."));
        }
        if (maxPremiumRequests != null && !(maxPremiumRequests > 0)) {
            problems.add(named(Setting.MAX_PREMIUM_REQUESTS, " must be more than 0, was " + maxPremiumRequests + "."));
        }
        if (maxTokens != null && maxTokens <= 0) {
            problems.add(named(Setting.MAX_TOKENS, " must be more than 0, was " + maxTokens + "."));
        }
        checkPositive(problems, Setting.TIMEOUT, timeout);
        checkPositive(problems, Setting.INACTIVITY_TIMEOUT, inactivityTimeout);
        checkPositive(problems, Setting.TOOL_TIMEOUT, toolTimeout);
        checkPositive(problems, Setting.STARTUP_TIMEOUT, startupTimeout);
        checkEntries(problems, Setting.ALLOW_TOOLS, allowTools);
        checkEntries(problems, Setting.DENY_TOOLS, denyTools);
        checkEntries(problems, Setting.ADD_DIRS, addDirs);
        checkUrlRules(problems, Setting.ALLOW_URLS, allowUrls);
        if (verify != null && (verify.isBlank() || verify.indexOf('\0') >= 0)) {
            problems.add(named(Setting.VERIFY, " must be a shell command; was empty or held a NUL character."));
        }
        if (maxVerifyRounds != null && (maxVerifyRounds < 1 || maxVerifyRounds > MAX_VERIFY_ROUNDS)) {
            problems.add(named(Setting.MAX_VERIFY_ROUNDS, " must be from 1 to " + MAX_VERIFY_ROUNDS + ", was " + maxVerifyRounds + "."));
        }
        checkUrlRules(problems, Setting.DENY_URLS, denyUrls);
        for (String name : secretEnvVars) {
            if (name == null || !ENV_NAME.matcher(name).matches()) {
                problems.add(named(Setting.SECRET_ENV_VARS, ": '" + name + "' is not an environment variable name."));
            }
        }
        for (String name : toolSecrets) {
            if (name == null || !ENV_NAME.matcher(name).matches()) {
                problems.add(named(Setting.TOOL_SECRETS, ": '" + name + "' is not an environment variable name."));
            } else if (CliCommandBuilder.isOwnCredential(name)) {
                problems.add(named(Setting.TOOL_SECRETS, ": " + name + " holds the Copilot CLI's own credential and is never"
                        + " handed to tools."));
            }
        }
        if (model != null && model.chars().anyMatch(c -> c < 0x20)) {
            problems.add(named(Setting.MODEL, " contains a control character."));
        }
        if (provider != null) {
            checkProvider(problems);
        }
        return problems;
    }

    /** These options, or an {@link InvalidOptionsException} listing every problem. */
    public AutopilotOptions validated() {
        List<String> problems = validate();
        if (!problems.isEmpty()) {
            throw new InvalidOptionsException(problems);
        }
        return this;
    }

    /** A problem whose message names no setting. */
    private static OptionProblem fixed(Setting setting, String message) {
        return new OptionProblem(setting, names -> message);
    }

    /** A problem whose message is the setting's name followed by {@code rest}. */
    private static OptionProblem named(Setting setting, String rest) {
        return new OptionProblem(setting, names -> names.apply(setting) + rest);
    }

    private void checkProvider(List<OptionProblem> problems) {
        String url = provider.baseUrl();
        if (url == null || url.isBlank()) {
            problems.add(named(Setting.PROVIDER_BASE_URL, " is empty: give the provider's endpoint, e.g. http://127.0.0.1:11434/v1."));
        } else if (!isHttpUrl(url)) {
            problems.add(named(Setting.PROVIDER_BASE_URL, " must be an http:// or https:// URL, was '" + url + "'."));
        }
        if (provider.type() != null && !PROVIDER_TYPES.contains(provider.type().toLowerCase(Locale.ROOT))) {
            problems.add(named(Setting.PROVIDER_TYPE, " must be one of openai, azure, anthropic; was '" + provider.type() + "'."));
        }
        if (provider.wireApi() != null && !WIRE_APIS.contains(provider.wireApi().toLowerCase(Locale.ROOT))) {
            problems.add(named(Setting.PROVIDER_WIRE_API, " must be completions or responses; was '" + provider.wireApi() + "'."));
        }
        if (model == null) {
            problems.add(new OptionProblem(Setting.MODEL, names -> "An own model provider (" + names.apply(Setting.PROVIDER_BASE_URL)
                    + ") needs a model: set " + names.apply(Setting.MODEL) + " to the provider's model name."));
        }
    }

    private static boolean isHttpUrl(String url) {
        try {
            URI uri = new URI(url.strip());
            String scheme = uri.getScheme();
            return scheme != null && (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                    && uri.getHost() != null && !uri.getHost().isBlank();
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static void checkPositive(List<OptionProblem> problems, Setting setting, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            problems.add(named(setting, " must be positive, was " + value.toSeconds() + " seconds."));
        }
    }

    private static void checkEntries(List<OptionProblem> problems, Setting setting, List<String> entries) {
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i);
            if (entry == null || entry.isBlank()) {
                problems.add(named(setting, ": entry " + (i + 1) + " is empty."));
            } else if (entry.chars().anyMatch(c -> c < 0x20)) {
                problems.add(named(setting, ": entry " + (i + 1) + " contains a line break or control character."));
            }
        }
    }

    private static void checkUrlRules(List<OptionProblem> problems, Setting setting, List<String> entries) {
        checkEntries(problems, setting, entries);
        for (String entry : entries) {
            if (entry != null && !entry.isBlank() && !URL_RULE.matcher(entry.strip()).matches()) {
                problems.add(named(setting, ": '" + entry.strip() + "' is not a URL or domain (e.g. https://registry.example.com"
                        + " or example.com)."));
            }
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    public String prompt() {
        return prompt;
    }

    /** The model, or null for the CLI's default. With a provider, the provider's model name. */
    public String model() {
        return model;
    }

    /** How often the CLI may nudge the agent to continue, or null for the CLI's default (5). */
    public Integer maxAutopilotContinues() {
        return maxAutopilotContinues;
    }

    /** The most premium requests the session may use (the CLI's cost per model call, added up), or null for no limit. */
    public Double maxPremiumRequests() {
        return maxPremiumRequests;
    }

    /** The most tokens (input plus output) the session may use, or null for no limit. */
    public Long maxTokens() {
        return maxTokens;
    }

    public boolean allowAllTools() {
        return allowAllTools;
    }

    /**
     * Whether the CLI's path policy is off ({@code --allow-all-paths}): without it, its tools may use the working
     * directory and the {@link #addDirs()} only, whatever the tool policy allows.
     */
    public boolean allowAllPaths() {
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

    /** URLs and domains the agent's tools may reach (the CLI's {@code --allow-url}). */
    public List<String> allowUrls() {
        return allowUrls;
    }

    /** URLs and domains they may not reach, whatever else allows it (the CLI's {@code --deny-url}). */
    public List<String> denyUrls() {
        return denyUrls;
    }

    /** The MCP servers the session adds, resolved (they may hold secrets: never logged), or null. */
    public McpServers.Resolved mcpServers() {
        return mcpServers;
    }

    /**
     * Whether the session works on a change request whose author is not trusted: the CLI then loads no custom
     * instructions ({@code --no-custom-instructions}) and no built-in MCP server ({@code --disable-builtin-mcps}, the
     * GitHub one among them, which would act with the token).
     */
    public boolean untrusted() {
        return untrusted;
    }

    /** What {@link #restrictedForUntrusted()} made: the options, and the settings it took away, by name. */
    public record Restricted(AutopilotOptions options, List<String> removed) {
    }

    /**
     * These options for a build of a change request whose author is not trusted (the {@code restricted} policy): no
     * {@code allowAllTools} or {@code allowAllPaths}, no write tools ({@code write} denied, and left out of the allowed
     * ones), no tool secrets, no MCP servers, and {@link #untrusted()}.
     */
    public Restricted restrictedForUntrusted() {
        List<String> removed = new ArrayList<>();
        Builder b = toBuilder().untrusted(true).allowAllTools(false).allowAllPaths(false).mcpServers(null);
        b.allowTools.clear();
        b.toolSecrets.clear();
        if (allowAllTools) {
            removed.add("allowAllTools");
        }
        if (allowAllPaths) {
            removed.add("allowAllPaths");
        }
        for (String tool : allowTools) {
            if (isWriteTool(tool)) {
                removed.add("allowTools " + tool);
            } else {
                b.allowTool(tool);
            }
        }
        if (denyTools.stream().noneMatch(t -> t.strip().equals("write"))) {
            b.denyTool("write");
        }
        if (!toolSecrets.isEmpty()) {
            removed.add("toolSecrets");
        }
        if (mcpServers != null) {
            removed.add("mcpServers");
        }
        return new Restricted(b.build(), removed);
    }

    private static boolean isWriteTool(String pattern) {
        String name = pattern.strip().toLowerCase(java.util.Locale.ROOT);
        int paren = name.indexOf('(');
        String tool = paren < 0 ? name : name.substring(0, paren);
        return tool.equals("write") || tool.equals("edit") || tool.equals("create");
    }

    /** Whether the session's state is packed at the end, for a later run to continue ({@code session}). */
    public boolean keepSession() {
        return keepSession;
    }

    /** The packed state of a session an earlier run kept, which this one continues, or null (a new session). */
    public byte[] keptSession() {
        return keptSession;
    }

    /** The acceptance check run on the agent after the agent completes, or null: a shell command (exit 0 accepts). */
    public String verify() {
        return verify;
    }

    /** How often the check runs at most: the agent gets {@code maxVerifyRounds - 1} chances to fix a failure. */
    public int maxVerifyRounds() {
        return maxVerifyRounds == null ? DEFAULT_VERIFY_ROUNDS : maxVerifyRounds;
    }

    /** Whether shell commands run in the CLI's OS sandbox ({@code --sandbox}: bubblewrap on Linux, Seatbelt on macOS). */
    public boolean sandbox() {
        return sandbox;
    }

    /** Names of further environment variables whose values are secrets (masked, hidden from tools). */
    public List<String> secretEnvVars() {
        return secretEnvVars;
    }

    /**
     * Secret variables handed to the agent's tools all the same (a private registry's token a build command needs):
     * left out of {@code --secret-env-vars}, still masked everywhere.
     */
    public List<String> toolSecrets() {
        return toolSecrets;
    }

    /** The GitHub token for GitHub-hosted models, or null. */
    public String githubToken() {
        return githubToken;
    }

    /** The own model provider, or null for GitHub-hosted models. */
    public ProviderOptions provider() {
        return provider;
    }

    /** Wall-clock limit, or null for none. */
    public Duration timeout() {
        return timeout;
    }

    /** Longest time without an event, or null for none. */
    /** Whether what the agent changed in the git work tree is recorded. */
    public boolean recordChanges() {
        return recordChanges;
    }

    public Duration inactivityTimeout() {
        return inactivityTimeout;
    }

    /** Longest one tool call may run before the session ends TIMED_OUT naming it; null for none. */
    public Duration toolTimeout() {
        return toolTimeout;
    }

    /** Longest the CLI may print nothing after it was started before the session ends FAILED; null for none. */
    public Duration startupTimeout() {
        return startupTimeout;
    }

    /** The secret values these options carry (token, API key). */
    public List<String> secretValues() {
        return secretValues(java.util.Map.of());
    }

    /**
     * The secret values these options carry, plus the values that the {@link #secretEnvVars()} have in
     * the environment the CLI will inherit.
     */
    public List<String> secretValues(java.util.Map<String, String> inheritedEnvironment) {
        List<String> values = new ArrayList<>();
        for (String name : secretEnvVars) {
            String value = inheritedEnvironment.get(name);
            if (value != null && !value.isBlank()) {
                values.add(value);
            }
        }
        if (githubToken != null) {
            values.add(githubToken);
        }
        if (provider != null && provider.apiKey() != null) {
            values.add(provider.apiKey());
        }
        if (mcpServers != null) {
            values.addAll(mcpServers.secretValues());
        }
        return values;
    }

    @Override
    public String toString() {
        return "AutopilotOptions[prompt=" + (prompt == null ? null : prompt.length() + " chars") + ", model=" + model
                + ", maxAutopilotContinues=" + maxAutopilotContinues + ", maxPremiumRequests=" + maxPremiumRequests
                + ", maxTokens=" + maxTokens + ", allowAllTools=" + allowAllTools + ", allowAllPaths=" + allowAllPaths
                + ", allowTools=" + allowTools + ", denyTools=" + denyTools + ", addDirs=" + addDirs
                + ", allowUrls=" + allowUrls + ", denyUrls=" + denyUrls + ", sandbox=" + sandbox
                + ", verify=" + (verify == null ? null : verify.length() + " chars") + ", maxVerifyRounds=" + maxVerifyRounds
                + ", mcpServers=" + (mcpServers == null ? null : mcpServers.servers())
                + ", secretEnvVars=" + secretEnvVars + ", toolSecrets=" + toolSecrets + ", githubToken=" + (githubToken == null ? "none" : "****")
                + ", provider=" + provider + ", timeout=" + timeout + ", inactivityTimeout=" + inactivityTimeout
                + ", toolTimeout=" + toolTimeout + ", startupTimeout=" + startupTimeout
                + ", recordChanges=" + recordChanges + "]";
    }

    /** Builds {@link AutopilotOptions}; every setter accepts null for "not set". */
    public static final class Builder {
        private String prompt;
        private String model;
        private Integer maxAutopilotContinues;
        private Double maxPremiumRequests;
        private Long maxTokens;
        private boolean allowAllTools;
        private boolean allowAllPaths;
        private boolean sandbox;
        private String verify;
        private boolean keepSession;
        private boolean untrusted;
        private byte[] keptSession;
        private McpServers.Resolved mcpServers;
        private Integer maxVerifyRounds;
        private final List<String> allowTools = new ArrayList<>();
        private final List<String> denyTools = new ArrayList<>();
        private final List<String> addDirs = new ArrayList<>();
        private final List<String> allowUrls = new ArrayList<>();
        private final List<String> denyUrls = new ArrayList<>();
        private final List<String> secretEnvVars = new ArrayList<>();
        private final List<String> toolSecrets = new ArrayList<>();
        private String githubToken;
        private ProviderOptions provider;
        private Duration timeout = DEFAULT_TIMEOUT;
        private Duration inactivityTimeout = DEFAULT_INACTIVITY_TIMEOUT;
        private Duration toolTimeout;
        private Duration startupTimeout;
        private boolean recordChanges = true;

        private Builder(String prompt) {
            this.prompt = prompt;
        }

        public Builder model(String value) {
            this.model = value;
            return this;
        }

        /** The most premium requests; null for no limit. */
        public Builder maxPremiumRequests(Double value) {
            this.maxPremiumRequests = value;
            return this;
        }

        /** The most tokens, input plus output; null for no limit. */
        public Builder maxTokens(Long value) {
            this.maxTokens = value;
            return this;
        }

        public Builder maxAutopilotContinues(Integer value) {
            this.maxAutopilotContinues = value;
            return this;
        }

        public Builder allowAllPaths(boolean value) {
            this.allowAllPaths = value;
            return this;
        }

        public Builder allowAllTools(boolean value) {
            this.allowAllTools = value;
            return this;
        }

        public Builder allowTool(String pattern) {
            allowTools.add(pattern);
            return this;
        }

        public Builder denyTool(String pattern) {
            denyTools.add(pattern);
            return this;
        }

        public Builder allowUrl(String rule) {
            allowUrls.add(rule);
            return this;
        }

        public Builder denyUrl(String rule) {
            denyUrls.add(rule);
            return this;
        }

        public Builder mcpServers(McpServers.Resolved value) {
            this.mcpServers = value;
            return this;
        }

        public Builder keptSession(byte[] packedState) {
            this.keptSession = packedState;
            return this;
        }

        public Builder untrusted(boolean value) {
            this.untrusted = value;
            return this;
        }

        public Builder keepSession(boolean value) {
            this.keepSession = value;
            return this;
        }

        public Builder verify(String command) {
            this.verify = command;
            return this;
        }

        public Builder maxVerifyRounds(Integer value) {
            this.maxVerifyRounds = value;
            return this;
        }

        public Builder sandbox(boolean value) {
            this.sandbox = value;
            return this;
        }

        public Builder addDir(String dir) {
            addDirs.add(dir);
            return this;
        }

        public Builder secretEnvVar(String name) {
            secretEnvVars.add(name);
            return this;
        }

        public Builder toolSecret(String name) {
            toolSecrets.add(name);
            return this;
        }

        public Builder githubToken(String value) {
            this.githubToken = value;
            return this;
        }

        public Builder provider(ProviderOptions value) {
            this.provider = value;
            return this;
        }

        /** Wall-clock limit; null for none. Defaults to {@link #DEFAULT_TIMEOUT}. */
        public Builder timeout(Duration value) {
            this.timeout = value;
            return this;
        }

        /** Longest one tool call may run; null (the default) for none. */
        public Builder toolTimeout(Duration value) {
            this.toolTimeout = value;
            return this;
        }

        /** Longest the CLI may print nothing after its start; null (the default) for none. */
        public Builder startupTimeout(Duration value) {
            this.startupTimeout = value;
            return this;
        }

        /** Longest time without an event; null for none. Defaults to {@link #DEFAULT_INACTIVITY_TIMEOUT}. */
        public Builder inactivityTimeout(Duration value) {
            this.inactivityTimeout = value;
            return this;
        }

        /** Whether to record what the agent changed in the git work tree (snapshots before and after); on by default. */
        public Builder recordChanges(boolean value) {
            this.recordChanges = value;
            return this;
        }

        public AutopilotOptions build() {
            return new AutopilotOptions(this);
        }
    }
}
