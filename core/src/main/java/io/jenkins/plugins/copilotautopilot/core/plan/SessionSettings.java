package io.jenkins.plugins.copilotautopilot.core.plan;

import io.jenkins.plugins.copilotautopilot.core.plan.Setting.Merge;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Every setting of a session, each defined once, in the order forms show them. A setting defined here reaches the
 * Pipeline step (a field of the plugin's step), the Freestyle step and the global defaults (which hold a step), their
 * forms (drawn from this list), Configuration as Code, the runner (its {@link Setting#option()}), the plan a session
 * runs from ({@link SessionPlan}), the journal's record of it and a restarted controller. Help is the step's
 * {@code help-<name>.html}.
 *
 * <p>A long class of one-line definitions on purpose: the catalog is read as a whole.
 */
public final class SessionSettings {
    /** The longest task taken (it goes to the CLI's standard input): 1 MiB. */
    public static final int MAX_PROMPT_BYTES = 1024 * 1024;
    /** The most console lines {@code includeBuildLog} may append to a task. */
    public static final int MAX_BUILD_LOG_LINES = 10_000;
    /** A name a session is kept under between runs ({@code session: 'pr-42'}). */
    public static final Pattern SESSION_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    public static final int MAX_VERIFY_ROUNDS_LIMIT = 10;
    /** What the CLI takes as a URL rule: a domain, or a URL with http or https and no spaces. */
    private static final Pattern URL_RULE = Pattern.compile("(?i)(https?://)?[^\\s/:]+(:\\d+)?(/\\S*)?");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** The check a session is published as unless {@code checksName} says otherwise. */
    public static final String DEFAULT_CHECKS_NAME = "Copilot Autopilot";

    private static final List<Setting<?>> ALL = new ArrayList<>();

    // ---- the task ----
    public static final Setting<String> PROMPT_FILE = add(define("promptFile", Kind.text()).merge(Merge.STEP_ONLY)
            .title("Or a workspace file holding the task"));
    public static final Setting<Integer> INCLUDE_BUILD_LOG = add(define("includeBuildLog", Kind.count(0, MAX_BUILD_LOG_LINES,
            " must be a number of lines from 0 to {max}; was {value}.")).merge(Merge.STEP_ONLY)
            .title("Append the last lines of this build's console to the task"));
    public static final Setting<String> CREDENTIALS_ID = add(define("credentialsId", Kind.credentials())
            .title("GitHub token, a Secret text credential"));
    public static final Setting<String> MODEL = add(define("model", Kind.text()).title("Model").option("--model"));
    public static final Setting<String> REASONING_EFFORT = add(define("reasoningEffort", Kind.choice(List.of("none", "minimal",
            "low", "medium", "high", "xhigh", "max"), " must be one of none, minimal, low, medium, high, xhigh, max; was '{value}'."))
            .advanced().title("Reasoning effort (the model must support it)").option("--reasoning-effort"));
    public static final Setting<String> SESSION = add(define("session", Kind.name(SESSION_NAME,
            " must be a name of letters, digits, '.', '_' and '-' (at most 64, not starting with '.', '_' or '-'), e.g. pr-42;"
                    + " was '{value}'.")).merge(Merge.STEP_ONLY)
            .title("Session to continue in the next build, a name such as pr-42"));
    public static final Setting<String> VERIFY = add(define("verify", Kind.script("a shell command"))
            .title("Acceptance check: a shell command that must pass after the agent completes").option("--verify"));
    public static final Setting<Integer> MAX_VERIFY_ROUNDS = add(define("maxVerifyRounds", Kind.count(1, MAX_VERIFY_ROUNDS_LIMIT,
            " must be from {min} to {max}, was {value}.")).fallback(2)
            .title("Acceptance check rounds at most").option("--max-verify-rounds"));

    // ---- the answer: JSON that follows a schema, review findings ----
    public static final Setting<String> OUTPUT_SCHEMA = add(define("outputSchema", Kind.document()).merge(Merge.STEP_ONLY)
            .title("Answer schema: a JSON Schema the agent's answer must follow, or @file in the workspace"));
    public static final Setting<Boolean> REVIEW_FINDINGS = add(define("reviewFindings", Kind.flag()).fallback(false)
            .merge(Merge.STEP_ONLY).title("Ask for review findings (path, line, severity, message)").option("--review-findings"));
    public static final Setting<Integer> MAX_OUTPUT_ROUNDS = add(define("maxOutputRounds", Kind.count(1, MAX_VERIFY_ROUNDS_LIMIT,
            " must be from {min} to {max}, was {value}.")).fallback(2)
            .title("Answers checked against the schema at most").option("--max-output-rounds"));
    public static final Setting<String> OUTPUT_FILE = add(define("outputFile", Kind.text()).merge(Merge.STEP_ONLY).advanced()
            .title("Write the answer to this workspace file"));
    public static final Setting<String> ISSUES_FILE = add(define("issuesFile", Kind.text()).merge(Merge.STEP_ONLY).advanced()
            .title("Write the review findings to this workspace file, for warnings-ng"));

    // ---- tools, paths and the network ----
    public static final Setting<Boolean> ALLOW_ALL_TOOLS = add(define("allowAllTools", Kind.flag()).fallback(false)
            .title("Allow all tools").option("--allow-all-tools"));
    public static final Setting<Boolean> ALLOW_ALL_PATHS = add(define("allowAllPaths", Kind.flag()).fallback(false)
            .merge(Merge.DEFAULT_NO_HOLDS).title("Allow the tools any path").option("--allow-all-paths"));
    public static final Setting<ArrayList<String>> ALLOW_TOOLS = add(define("allowTools", Kind.list(null))
            .title("Allowed tools, one per line").option("--allow-tool"));
    public static final Setting<ArrayList<String>> DENY_TOOLS = add(define("denyTools", Kind.list(null)).merge(Merge.UNION)
            .title("Denied tools, one per line").option("--deny-tool"));
    public static final Setting<ArrayList<String>> APPROVE_TOOLS = add(define("approveTools", Kind.list(SessionSettings::approvalPattern)).merge(Merge.UNION)
            .title("Tools that wait for a person's approval, one per line").option("--approve-tool"));
    public static final Setting<ArrayList<String>> APPROVERS = add(define("approvers", Kind.list(null))
            .title("Who may approve: user ids or group names, one per line (empty: whoever may build the job)"));
    public static final Setting<Duration> APPROVAL_TIMEOUT = add(define("approvalTimeout", Kind.minutes())
            .fallback(Duration.ofMinutes(5)).title("Approval timeout in minutes (0: as long as the session runs); a call nobody decided on is denied")
            .option("--approval-timeout"));
    public static final Setting<ArrayList<String>> ALLOW_URLS = add(define("allowUrls", Kind.list(SessionSettings::urlRule))
            .merge(Merge.NARROWS).title("Allowed URLs and domains, one per line").option("--allow-url"));
    public static final Setting<ArrayList<String>> DENY_URLS = add(define("denyUrls", Kind.list(SessionSettings::urlRule))
            .merge(Merge.UNION).title("Denied URLs and domains, one per line").option("--deny-url"));
    public static final Setting<Boolean> SANDBOX = add(define("sandbox", Kind.flag()).fallback(false).merge(Merge.DEFAULT_YES_HOLDS)
            .title("Run shell commands in the CLI's sandbox").option("--sandbox"));
    public static final Setting<Boolean> CLIENT_TELEMETRY = add(define("clientTelemetry", Kind.flag()).fallback(false)
            .merge(Merge.DEFAULT_NO_HOLDS).advanced().title("Let the Copilot CLI send its own usage telemetry to GitHub")
            .option("--client-telemetry"));
    public static final Setting<Boolean> GITHUB_MCP_SERVER = add(define("githubMcpServer", Kind.flag()).fallback(true)
            .merge(Merge.DEFAULT_NO_HOLDS).advanced()
            .title("Give the agent the Copilot CLI's built-in GitHub MCP server (it acts with the session's GitHub token)")
            .option("--github-mcp-server"));
    public static final Setting<String> MCP_SERVERS = add(define("mcpServers", Kind.document())
            .title("MCP servers: the CLI's configuration as JSON or YAML, or @file in the workspace"));

    // ---- limits and budgets ----
    public static final Setting<Integer> MAX_AUTOPILOT_CONTINUES = add(define("maxAutopilotContinues", Kind.count(0,
            Integer.MAX_VALUE, " must be 0 or more, was {value}.")).advanced()
            .title("Maximum autopilot continuations").option("--max-autopilot-continues"));
    public static final Setting<Double> MAX_PREMIUM_REQUESTS = add(define("maxPremiumRequests", Kind.amount()).merge(Merge.LOWER)
            .advanced().title("Budget: at most this many premium requests").option("--max-premium-requests"));
    public static final Setting<Integer> SERVICE_RETRIES = add(define("serviceRetries", Kind.count(0, 10,
            " must be from {min} to {max}, was {value}.")).fallback(2).advanced()
            .title("When GitHub's service refuses the session for a while (rate limit, server error), continue it at most this often")
            .option("--service-retries"));
    public static final Setting<Double> MAX_AI_CREDITS = add(define("maxAiCredits", Kind.amount()).merge(Merge.LOWER)
            .advanced().title("Budget: at most this many AI credits").option("--max-ai-credits"));
    public static final Setting<Long> MAX_TOKENS = add(define("maxTokens", Kind.tokens()).merge(Merge.LOWER).advanced()
            .title("Budget: at most this many tokens, input plus output").option("--max-tokens"));
    public static final Setting<String> WORKING_DIRECTORY = add(define("workingDirectory", Kind.text()).merge(Merge.STEP_ONLY)
            .advanced().title("Working directory, relative to the workspace"));
    public static final Setting<Duration> TIMEOUT = add(define("timeout", Kind.minutes()).fallback(Duration.ofMinutes(60))
            .advanced().title("Timeout in minutes, 0 for none").option("--timeout"));
    public static final Setting<Duration> INACTIVITY_TIMEOUT = add(define("inactivityTimeout", Kind.minutes())
            .fallback(Duration.ofMinutes(10)).advanced().title("Inactivity timeout in minutes, 0 for none")
            .option("--inactivity-timeout"));
    public static final Setting<Duration> TOOL_TIMEOUT = add(define("toolTimeout", Kind.minutes()).fallback(Duration.ZERO)
            .advanced().title("Longest one tool call may run, in minutes").option("--tool-timeout"));
    public static final Setting<Duration> STARTUP_TIMEOUT = add(define("startupTimeout", Kind.minutes()).fallback(Duration.ZERO)
            .advanced().title("Longest the CLI may take to start, in minutes").option("--startup-timeout"));

    // ---- what the session shows and leaves ----
    public static final Setting<Boolean> AGENT_TEXT_IN_CONSOLE = add(define("agentTextInConsole", Kind.flag()).fallback(true)
            .advanced().title("Show what the agent writes in the console"));
    public static final Setting<String> RESULT_WHEN_INCOMPLETE = add(define("resultWhenIncomplete", Kind.choice(
            List.of("FAILURE", "UNSTABLE", "SUCCESS"), " must be FAILURE, UNSTABLE or SUCCESS; was '{value}'.")).fallback("FAILURE")
            .advanced().title("Build result when the task is incomplete"));
    public static final Setting<String> RESULT_WHEN_BLOCKED = add(define("resultWhenBlocked", Kind.choice(
            List.of("FAILURE", "UNSTABLE", "SUCCESS"), " must be FAILURE, UNSTABLE or SUCCESS; was '{value}'.")).advanced()
            .title("Build result when the agent is blocked"));
    public static final Setting<ArrayList<String>> ADD_DIRS = add(define("addDirs", Kind.list(null)).merge(Merge.STEP_ONLY)
            .advanced().title("Additional directories, one per line").option("--add-dir"));
    public static final Setting<ArrayList<String>> SECRET_ENV_VARS = add(define("secretEnvVars",
            Kind.list(SessionSettings::variableName)).merge(Merge.STEP_ONLY).advanced()
            .title("Secret environment variables, one per line").option("--secret-env-var"));
    public static final Setting<ArrayList<String>> TOOL_SECRETS = add(define("toolSecrets", Kind.list(SessionSettings::toolSecret))
            .merge(Merge.STEP_ONLY).advanced().title("Secret variables handed to the agent's tools, one per line")
            .option("--tool-secret"));
    public static final Setting<Boolean> RECORD_CHANGES = add(define("recordChanges", Kind.flag()).fallback(true).advanced()
            .title("Record what the agent changed in the git work tree").option("--record-changes"));
    public static final Setting<Boolean> OTEL = add(define("otel", Kind.flag()).fallback(false).advanced()
            .title("Keep the Copilot CLI's OpenTelemetry spans with the session, under the build's trace").option("--otel"));
    public static final Setting<Boolean> SKIP_PUBLISHING_CHECKS = add(define("skipPublishingChecks", Kind.flag()).fallback(false)
            .advanced().title("Publish the session as a check"));
    public static final Setting<String> LABEL = add(define("label", Kind.text()).merge(Merge.STEP_ONLY).advanced()
            .title("Label shown in Pipeline views and on the session's pages"));
    public static final Setting<String> CHECKS_NAME = add(define("checksName", Kind.text()).fallback(DEFAULT_CHECKS_NAME).advanced()
            .title("Name of the check"));
    public static final Setting<String> COPILOT_PATH = add(define("copilotPath", Kind.text()).merge(Merge.STEP_ONLY).advanced()
            .title("Copilot CLI executable or install folder"));
    public static final Setting<String> INSTALLATION = add(define("installation", Kind.installation()).advanced()
            .unlessStepSets(COPILOT_PATH).title("Copilot CLI installation"));
    public static final Setting<String> CHANGES_FILE = add(define("changesFile", Kind.text()).merge(Merge.STEP_ONLY).advanced()
            .title("Write what the agent changed to this workspace file, as a patch"));

    // ---- an own model provider, taken as one block ----
    public static final Setting<String> PROVIDER_BASE_URL = add(define("providerBaseUrl", Kind.httpUrl())
            .merge(Merge.BLOCK).advanced().title("Provider base URL").option("--provider-base-url")).inBlock("provider");
    public static final Setting<String> PROVIDER_TYPE = add(define("providerType", Kind.choice(List.of("openai", "azure",
            "anthropic"), " must be one of openai, azure, anthropic; was '{value}'.")).merge(Merge.BLOCK).advanced()
            .title("Provider type").option("--provider-type")).inBlock("provider");
    public static final Setting<String> PROVIDER_WIRE_API = add(define("providerWireApi", Kind.choice(List.of("completions",
            "responses"), " must be completions or responses; was '{value}'.")).merge(Merge.BLOCK).advanced()
            .title("Wire API").option("--provider-wire-api")).inBlock("provider");
    public static final Setting<String> PROVIDER_CREDENTIALS_ID = add(define("providerCredentialsId", Kind.credentials())
            .merge(Merge.BLOCK).advanced().title("Provider API key, a Secret text credential")).inBlock("provider");
    public static final Setting<Boolean> OFFLINE = add(define("offline", Kind.flag()).fallback(false).merge(Merge.BLOCK_OR_YES)
            .advanced().title("Offline, with no network use but the provider").option("--offline")).inBlock("provider");

    /**
     * Not a user's: set for a build of a change request whose author the SCM does not trust ({@link
     * PlanDraft#restrictForUntrusted()}); the CLI then loads no custom instructions and no built-in MCP server.
     */
    public static final Setting<Boolean> UNTRUSTED = new Setting.Definition<>("untrusted", Kind.flag()).merge(Merge.STEP_ONLY)
            .fallback(false).define();

    private SessionSettings() {
    }

    /** Every setting a user can give, in form order. */
    public static List<Setting<?>> all() {
        return List.copyOf(ALL);
    }

    /** The setting of that name, or null. */
    public static Setting<?> named(String name) {
        for (Setting<?> s : ALL) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return UNTRUSTED.name().equals(name) ? UNTRUSTED : null;
    }

    private static <T extends Serializable> Setting.Definition<T> define(String name, Kind<T> kind) {
        return new Setting.Definition<>(name, kind);
    }

    private static <T extends Serializable> Setting<T> add(Setting.Definition<T> definition) {
        Setting<T> setting = definition.define();
        ALL.add(setting);
        return setting;
    }

    private static String urlRule(String entry) {
        return URL_RULE.matcher(entry).matches() ? null
                : ": '" + entry + "' is not a URL or domain (e.g. https://registry.example.com or example.com).";
    }

    private static String approvalPattern(String entry) {
        int open = entry.indexOf('(');
        String kind = (open < 0 ? entry : entry.substring(0, open)).strip();
        if (open == 0 || open > 0 && !entry.strip().endsWith(")") || open < 0 && entry.contains(")")
                || !kind.matches("[A-Za-z0-9_.-]+")) {
            return ": '" + entry + "' is not a tool pattern (shell, shell(git push), shell(git:*), write, write(.env),"
                    + " url(github.com), or an MCP server's name with or without a tool).";
        }
        return null;
    }

    private static String variableName(String entry) {
        return ENV_NAME.matcher(entry).matches() ? null : ": '" + entry + "' is not an environment variable name.";
    }

    private static String toolSecret(String entry) {
        if (!ENV_NAME.matcher(entry).matches()) {
            return ": '" + entry + "' is not an environment variable name.";
        }
        return OwnCredentials.isOwn(entry) ? ": " + entry + " holds the Copilot CLI's own credential and is never handed to tools."
                : null;
    }
}
