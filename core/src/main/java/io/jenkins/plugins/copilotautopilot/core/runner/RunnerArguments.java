package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.command.SessionTask;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import io.jenkins.plugins.copilotautopilot.core.prepare.SessionPreparation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The standalone runner's command line. Options mirror the Jenkins step; secrets are read only from the
 * environment, never from arguments.
 */
public final class RunnerArguments {
    static final String USAGE = String.join("\n",
            "Usage: copilot-autopilot (--prompt TEXT | --prompt-file FILE) [options]",
            "",
            "Runs one GitHub Copilot CLI autopilot task, prints a live log, and exits with",
            "0 COMPLETED, 2 INCOMPLETE, 4 BLOCKED, 5 NOT_VERIFIED, 6 OUTPUT_INVALID, 1 FAILED, 3 OVER_BUDGET, 124 TIMED_OUT or STALLED,",
            "130 ABORTED by Ctrl-C, 143 ABORTED by SIGTERM (64: bad arguments).",
            "",
            "Task:",
            "      --demo                     try it with no account: a scripted model on 127.0.0.1 plays the agent, which",
            "                                 lists a new folder and writes NOTES.md there; the Copilot CLI is real (its own",
            "                                 task: no --prompt)",
            "  -p, --prompt TEXT              the task for the agent",
            "      --prompt-file FILE         read the task from FILE ('-' for standard input)",
            "  -C, --dir DIR                  working directory of the agent (default: current directory)",
            "CLI:",
            "      --copilot PATH             Copilot CLI executable or npm install folder (default: $COPILOT_CLI, then PATH)",
            "      --model NAME               model (default: the CLI's; required with a provider; $COPILOT_MODEL)",
            "      --reasoning-effort LEVEL   none, minimal, low, medium, high, xhigh or max, as the model supports (default: the CLI's)",
            "      --max-autopilot-continues N  how often the CLI may nudge the agent to go on (CLI default: 5)",
            "Tools:",
            "      --allow-all-tools          let the agent run any tool without asking (off by default)",
            "      --allow-all-paths          let the tools use any path, not only the working directory and --add-dir ones",
            "      --allow-tool PATTERN       allow a tool, e.g. 'shell(npm test)', 'write' (repeatable)",
            "      --deny-tool PATTERN        deny a tool; beats allow (repeatable)",
            "      --approve-tool PATTERN     a call that matches waits for 'y' on the terminal; without a terminal it is",
            "                                 denied (repeatable)",
            "      --approval-timeout DURATION  how long such a call waits before it is denied; 0 for as long as the",
            "                                 session runs (default: 5m)",
            "      --add-dir DIR              let the agent access another, existing directory (repeatable)",
            "Acceptance check:",
            "      --verify CMD               a shell command run after task_complete; exit 0 accepts, else the agent is",
            "                                 asked to fix the failure in the same session (NOT_VERIFIED when it never passes)",
            "      --max-verify-rounds N      how often the check runs at most (default 2; needs --verify)",
            "The answer (checked before --verify):",
            "      --output-schema FILE       a JSON Schema the agent's answer must follow; the answer is the summary of",
            "                                 task_complete, sent back while invalid (OUTPUT_INVALID when it never follows it)",
            "      --review-findings          ask for review findings: path, line, endLine, severity, message, rule, category",
            "      --max-output-rounds N      how many answers are checked at most (default 2)",
            "      --output-file FILE         write the answer (JSON) to FILE",
            "      --issues-file FILE         write the findings to FILE in analysis-model's JSON, for warnings-ng",
            "Sessions that continue:",
            "      --session NAME             keep the session's state under NAME; a later run with the same NAME",
            "                                 continues the conversation (a new session when none is kept)",
            "      --state-dir DIR            where sessions are kept (default: ~/.copilot-autopilot/sessions)",
            "MCP servers:",
            "      --mcp-config FILE          MCP servers for the session, in the CLI's JSON format; a string value may",
            "                                 refer to a variable as ${env:NAME}, put in when the session starts (masked)",
            "Network:",
            "      --allow-url URL            a URL or domain the tools may reach without --allow-all-tools (repeatable)",
            "      --deny-url URL             refuse tool calls whose command names this URL or domain, even with",
            "                                 --allow-all-tools (repeatable; a check of the command's text, not a network boundary)",
            "      --sandbox                  run shell commands in the CLI's sandbox (Linux: bwrap, slirp4netns;",
            "                                 macOS: sandbox-exec); checked before the CLI starts",
            "Limits:",
            "      --timeout DURATION         wall-clock limit, e.g. 30m, 1h, 90s; 0 for none (default: 60m)",
            "      --inactivity-timeout DURATION  stop when no event arrives for this long; 0 for none (default: 10m)",
            "      --tool-timeout DURATION    stop when one tool call runs this long (TIMED_OUT, naming it); 0 for none",
            "                                 (default: none)",
            "      --startup-timeout DURATION stop when the CLI prints nothing this long after its start (FAILED); 0 for none",
            "                                 (default: none)",
            "      --service-retries N        continue the same session at most N times after GitHub's service refused it for a while (default: 2)",
            "      --max-ai-credits N         stop once GitHub billed the model calls N AI credits (default: no limit)",
            "      --max-premium-requests N   stop once the model calls cost N premium requests (default: no limit)",
            "      --max-tokens N             stop once the model calls used N tokens, input plus output (default: no limit)",
            "Output:",
            "      --journal FILE             record every event (secrets masked) as JSON lines in FILE",
            "      --changes FILE             write what the agent changed in the git work tree as a patch to FILE",
            "      --record-changes=false     do not record what the agent changed (no snapshots of the work tree)",
            "      --timeline FILE            draw the session as an SVG timeline into FILE",
            "      --otel                     keep the CLI's OpenTelemetry spans beside --journal FILE as FILE.otel.jsonl",
            "                                 (under $TRACEPARENT's trace when set; needs --journal)",
            "      --client-telemetry         let the CLI send its own usage telemetry to GitHub (default: off)",
            "      --github-mcp-server=false  no built-in GitHub MCP server for the agent (default: on; it uses the token)",
            "Own model provider (BYOK):",
            "      --provider-base-url URL    OpenAI-compatible, Azure or Anthropic endpoint ($COPILOT_PROVIDER_BASE_URL)",
            "      --provider-type TYPE       openai (default), azure or anthropic ($COPILOT_PROVIDER_TYPE)",
            "      --provider-wire-api API    completions (default) or responses ($COPILOT_PROVIDER_WIRE_API)",
            "      --offline                  no network use but the provider ($COPILOT_OFFLINE=true)",
            "Secrets (environment only):",
            "      COPILOT_GITHUB_TOKEN (or GH_TOKEN, GITHUB_TOKEN)  token for GitHub-hosted models",
            "      COPILOT_PROVIDER_API_KEY                          the provider's API key",
            "      --secret-env-var NAME      another variable whose value must be masked and hidden from tools (repeatable)",
            "      --tool-secret NAME         a secret variable the agent's tools get all the same, masked (repeatable)",
            "",
            "Boolean options also take =true or =false. Options other than the repeatable ones may be given once.",
            "",
            "  -h, --help                     this help",
            "      --version                  print the runner's version and the Copilot CLI's");

    /** How the user points the runner at the CLI, for messages. */
    public static final String HOW_TO_SET_CLI = "--copilot or COPILOT_CLI";

    private static final Pattern DURATION = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");

    /** The variables of the CLI's own that give a setting when its option is not given. */
    private static final Map<Setting<?>, String> FROM_ENVIRONMENT = Map.of(
            SessionSettings.MODEL, "COPILOT_MODEL",
            SessionSettings.PROVIDER_BASE_URL, "COPILOT_PROVIDER_BASE_URL",
            SessionSettings.PROVIDER_TYPE, "COPILOT_PROVIDER_TYPE",
            SessionSettings.PROVIDER_WIRE_API, "COPILOT_PROVIDER_WIRE_API");

    private RunnerArguments() {
    }

    /** What the command line asks for: the session's plan and task (null for help and version), and the runner's own. */
    public record Parsed(SessionPlan plan, SessionTask task, String workingDirectory, String copilotPath, Path journal,
                         Path timeline, Path changes, boolean help, boolean version, Path keptSession, Path outputFile,
                         Path issuesFile) {
    }

    /** Thrown for a command line that cannot be used; the message says why. */
    public static final class UsageException extends Exception {
        private final boolean credentials;

        public UsageException(String message) {
            this(message, false);
        }

        UsageException(String message, boolean credentials) {
            super(message);
            this.credentials = credentials;
        }

        /** Whether the command line is fine and only the credentials are missing or cannot be used (exit 1, not 64). */
        public boolean credentials() {
            return credentials;
        }
    }

    /** The runner's name for a setting: its option, e.g. {@code --max-autopilot-continues}. */
    public static String optionName(Setting<?> setting) {
        return setting.option() != null ? setting.option() : setting.name();
    }

    /**
     * Reads the command line. The options are checked here, each problem named by the option the user typed;
     * a {@link Parsed#help()} or {@link Parsed#version()} request carries no options.
     */
    public static Parsed parse(String[] args, Map<String, String> env, InputStream stdin) throws UsageException {
        OptionValues given = OptionValues.read(args);
        String copilot = given.last("--copilot", env.get("COPILOT_CLI"));
        if (given.flag("--help", false)) {
            return new Parsed(null, null, null, copilot, null, null, null, true, false, null, null, null);
        }
        if (given.flag("--version", false)) {
            return new Parsed(null, null, null, copilot, null, null, null, false, true, null, null, null);
        }
        String prompt = given.last("--prompt", null);
        String promptFile = given.last("--prompt-file", null);
        String dir = given.last("--dir", null);
        if (prompt != null && promptFile != null) {
            throw new UsageException("give either --prompt or --prompt-file, not both");
        }
        if (prompt == null && promptFile == null) {
            throw new UsageException("no task: give --prompt TEXT or --prompt-file FILE");
        }
        SettingValues values = SettingValues.none();
        for (Setting<?> setting : SessionSettings.all()) {
            if (setting.option() != null) {
                values = values.with(setting, value(setting, given, env));
            }
        }
        for (String addDir : given.all("--add-dir")) {
            String problem = RunnerChecks.addDir(addDir, dir);
            if (problem != null) {
                throw new UsageException(problem);
            }
        }
        if (given.has("--max-verify-rounds") && !given.has("--verify")) {
            throw new UsageException("--max-verify-rounds needs --verify CMD");
        }
        values = values.with(SessionSettings.PROMPT_FILE, promptFile);
        Path kept = null;
        String session = given.last("--session", null);
        if (session != null) {
            if (!SessionSettings.SESSION_NAME.matcher(session).matches()) {
                throw new UsageException("--session must be a name of letters, digits, '.', '_' and '-' (at most 64), was '" + session + "'");
            }
            String stateDir = given.last("--state-dir", Path.of(env.getOrDefault("HOME", "."), ".copilot-autopilot", "sessions").toString());
            kept = Path.of(stateDir).resolve(session + ".tgz").toAbsolutePath().normalize();
            String problem = RunnerChecks.stateDirectory(kept.getParent());
            if (problem != null) {
                throw new UsageException(problem);
            }
            values = values.with(SessionSettings.SESSION, session);
        } else if (given.last("--state-dir", null) != null) {
            throw new UsageException("--state-dir needs --session NAME");
        }
        String schemaFile = given.last("--output-schema", null);
        values = values.with(SessionSettings.OUTPUT_SCHEMA, schemaFile == null ? null : "@" + schemaFile);
        boolean answers = schemaFile != null || given.flag("--review-findings", false);
        for (String option : List.of("--max-output-rounds", "--output-file", "--issues-file")) {
            if (given.has(option) && !answers) {
                throw new UsageException(option + " needs --output-schema FILE or --review-findings");
            }
        }
        String mcpConfig = given.last("--mcp-config", null);
        values = values.with(SessionSettings.MCP_SERVERS, mcpConfig == null ? null : "@" + mcpConfig);
        if (!values.sets(SessionSettings.PROVIDER_BASE_URL) && Boolean.TRUE.equals(values.raw(SessionSettings.OFFLINE))) {
            throw new UsageException("--offline needs an own model provider: set --provider-base-url (or COPILOT_PROVIDER_BASE_URL)");
        }
        if (Boolean.TRUE.equals(values.raw(SessionSettings.OTEL)) && given.last("--journal", null) == null) {
            throw new UsageException("--otel needs --journal FILE: the spans are kept beside it, as FILE.otel.jsonl");
        }
        if (Boolean.FALSE.equals(values.raw(SessionSettings.RECORD_CHANGES)) && given.last("--changes", null) != null) {
            throw new UsageException("--changes needs what the agent changed to be recorded: leave out --record-changes=false");
        }
        SessionPreparation.Prepared prepared;
        try {
            prepared = SessionPreparation.prepare(new SessionPreparation.Asked(prompt, values, SettingValues.none()),
                    new SessionPreparation.Situation(env, List.of(), null, false), new RunnerLookups(env, stdin, kept),
                    new RunnerWording(schemaFile, mcpConfig));
        } catch (SessionPreparation.Refused e) {
            throw new UsageException(e.getMessage(), e.credentialsOnly());
        } catch (IOException e) {
            throw new UsageException(RunnerChecks.reason(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UsageException("interrupted");
        }
        return new Parsed(prepared.plan(), prepared.task(), dir, copilot, path(given.last("--journal", null)),
                path(given.last("--timeline", null)), path(given.last("--changes", null)), false, false, kept,
                path(given.last("--output-file", null)), path(given.last("--issues-file", null)));
    }

    /** A setting's value as its option (else the CLI's own variable) gives it, read as the runner reads its options. */
    private static Object value(Setting<?> setting, OptionValues given, Map<String, String> env) throws UsageException {
        String option = setting.option();
        String variable = FROM_ENVIRONMENT.get(setting);
        if (setting == SessionSettings.OFFLINE) {
            return given.flag(option, "true".equalsIgnoreCase(env.getOrDefault("COPILOT_OFFLINE", ""))) ? Boolean.TRUE : null;
        }
        switch (setting.kind().control()) {
            case FLAG:
                return given.has(option) ? Boolean.valueOf(given.flag(option, false)) : null;
            case LIST:
                return given.all(option).isEmpty() ? null : new ArrayList<>(given.all(option));
            default:
                break;
        }
        String text = given.last(option, variable == null ? null : env.get(variable));
        if (text == null) {
            return null;
        }
        Class<?> type = setting.kind().type();
        if (type == Duration.class) {
            Duration d = duration(option, text);
            return d == null ? Duration.ZERO : d; // 0: no limit
        }
        if (type == Integer.class) {
            return integer(option, text);
        }
        if (type == Long.class) {
            return whole(option, text);
        }
        return type == Double.class ? decimal(option, text) : text;
    }

    private static Path path(String value) {
        return value == null ? null : Path.of(value);
    }

    private static Double decimal(String name, String value) throws UsageException {
        try {
            return Double.valueOf(value.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " needs a number, got '" + value + "'");
        }
    }

    private static Long whole(String name, String value) throws UsageException {
        try {
            return Long.valueOf(value.strip().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new UsageException(name + " needs a whole number, got '" + value + "'");
        }
    }

    private static Integer integer(String name, String value) throws UsageException {
        try {
            return Integer.valueOf(value.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " needs a whole number, got '" + value + "'");
        }
    }

    /**
     * {@code 90s}, {@code 30m}, {@code 1h30m}, or a plain number of minutes; {@code 0} means no limit (null).
     */
    static Duration duration(String name, String value) throws UsageException {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.matches("\\d+")) {
            long minutes = Long.parseLong(v);
            return minutes == 0 ? null : Duration.ofMinutes(minutes);
        }
        Matcher m = DURATION.matcher(v);
        if (v.isEmpty() || !m.matches()) {
            throw new UsageException(name + " needs a duration like 90s, 30m or 1h30m, got '" + value + "'");
        }
        Duration d = Duration.ZERO;
        if (m.group(1) != null) {
            d = d.plusHours(Long.parseLong(m.group(1)));
        }
        if (m.group(2) != null) {
            d = d.plusMinutes(Long.parseLong(m.group(2)));
        }
        if (m.group(3) != null) {
            d = d.plusSeconds(Long.parseLong(m.group(3)));
        }
        return d.isZero() ? null : d;
    }
}
