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
 * environment, never from arguments. What each option does, for {@code --help} and the README, is in
 * {@link RunnerOptions}.
 */
public final class RunnerArguments {
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
