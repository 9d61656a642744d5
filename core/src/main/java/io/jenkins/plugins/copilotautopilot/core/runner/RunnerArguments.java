package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import io.jenkins.plugins.copilotautopilot.core.command.EnvironmentTokens;
import io.jenkins.plugins.copilotautopilot.core.command.ProviderOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
            "0 COMPLETED, 2 INCOMPLETE, 1 FAILED, 124 TIMED_OUT or STALLED, 130 ABORTED (64: bad arguments).",
            "",
            "Task:",
            "  -p, --prompt TEXT              the task for the agent",
            "      --prompt-file FILE         read the task from FILE ('-' for standard input)",
            "  -C, --dir DIR                  working directory of the agent (default: current directory)",
            "CLI:",
            "      --copilot PATH             Copilot CLI executable or npm install folder (default: $COPILOT_CLI, then PATH)",
            "      --model NAME               model (default: the CLI's; required with a provider; $COPILOT_MODEL)",
            "      --max-autopilot-continues N  how often the CLI may nudge the agent to go on (CLI default: 5)",
            "Tools:",
            "      --allow-all-tools          let the agent run any tool without asking (off by default)",
            "      --allow-tool PATTERN       allow a tool, e.g. 'shell(npm test)', 'write' (repeatable)",
            "      --deny-tool PATTERN        deny a tool; beats allow (repeatable)",
            "      --add-dir DIR              let the agent access another directory (repeatable)",
            "Limits:",
            "      --timeout DURATION         wall-clock limit, e.g. 30m, 1h, 90s; 0 for none (default: 60m)",
            "      --inactivity-timeout DURATION  stop when no event arrives for this long; 0 for none (default: 10m)",
            "Output:",
            "      --journal FILE             record every event (secrets masked) as JSON lines in FILE",
            "      --timeline FILE            draw the session as an SVG timeline into FILE",
            "Own model provider (BYOK):",
            "      --provider-base-url URL    OpenAI-compatible, Azure or Anthropic endpoint ($COPILOT_PROVIDER_BASE_URL)",
            "      --provider-type TYPE       openai (default), azure or anthropic ($COPILOT_PROVIDER_TYPE)",
            "      --provider-wire-api API    completions (default) or responses ($COPILOT_PROVIDER_WIRE_API)",
            "      --offline                  no network use but the provider ($COPILOT_OFFLINE=true)",
            "Secrets (environment only):",
            "      COPILOT_GITHUB_TOKEN (or GH_TOKEN, GITHUB_TOKEN)  token for GitHub-hosted models",
            "      COPILOT_PROVIDER_API_KEY                          the provider's API key",
            "      --secret-env-var NAME      another variable whose value must be masked and hidden from tools (repeatable)",
            "",
            "  -h, --help                     this help");

    private static final Pattern DURATION = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");

    private RunnerArguments() {
    }

    /** What the command line asks for. */
    public record Parsed(AutopilotOptions options, String workingDirectory, String copilotPath, Path journal,
                         Path timeline, boolean help) {
    }

    /** Thrown for a command line that cannot be used; the message says why. */
    public static final class UsageException extends Exception {
        public UsageException(String message) {
            super(message);
        }
    }

    public static Parsed parse(String[] args, Map<String, String> env, InputStream stdin) throws UsageException {
        String prompt = null;
        String promptFile = null;
        String dir = null;
        String copilot = env.get("COPILOT_CLI");
        String model = env.get("COPILOT_MODEL");
        Integer maxContinues = null;
        boolean allowAll = false;
        List<String> allow = new ArrayList<>();
        List<String> deny = new ArrayList<>();
        List<String> addDirs = new ArrayList<>();
        List<String> secretVars = new ArrayList<>();
        Duration timeout = AutopilotOptions.DEFAULT_TIMEOUT;
        Duration inactivity = AutopilotOptions.DEFAULT_INACTIVITY_TIMEOUT;
        Path journal = null;
        Path timeline = null;
        String baseUrl = env.get("COPILOT_PROVIDER_BASE_URL");
        String providerType = env.get("COPILOT_PROVIDER_TYPE");
        String wireApi = env.get("COPILOT_PROVIDER_WIRE_API");
        boolean offline = "true".equalsIgnoreCase(env.getOrDefault("COPILOT_OFFLINE", ""));

        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String inline = null;
            if (arg.startsWith("--") && arg.contains("=")) {
                name = arg.substring(0, arg.indexOf('='));
                inline = arg.substring(arg.indexOf('=') + 1);
            }
            switch (name) {
                case "-h", "--help" -> {
                    return new Parsed(null, null, null, null, null, true);
                }
                case "--allow-all-tools" -> allowAll = true;
                case "--offline" -> offline = true;
                default -> {
                    if (!name.startsWith("-")) {
                        throw new UsageException("unexpected argument '" + arg + "' (put the task in --prompt)");
                    }
                    String value = inline;
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new UsageException(name + " needs a value");
                        }
                        value = args[++i];
                    }
                    switch (name) {
                        case "-p", "--prompt" -> prompt = value;
                        case "--prompt-file" -> promptFile = value;
                        case "-C", "--dir" -> dir = value;
                        case "--copilot" -> copilot = value;
                        case "--model" -> model = value;
                        case "--max-autopilot-continues" -> maxContinues = integer(name, value);
                        case "--allow-tool" -> allow.add(value);
                        case "--deny-tool" -> deny.add(value);
                        case "--add-dir" -> addDirs.add(value);
                        case "--secret-env-var" -> secretVars.add(value);
                        case "--timeout" -> timeout = duration(name, value);
                        case "--inactivity-timeout" -> inactivity = duration(name, value);
                        case "--journal" -> journal = Path.of(value);
                        case "--timeline" -> timeline = Path.of(value);
                        case "--provider-base-url" -> baseUrl = value;
                        case "--provider-type" -> providerType = value;
                        case "--provider-wire-api" -> wireApi = value;
                        default -> throw new UsageException("unknown option " + name + " (see --help)");
                    }
                }
            }
        }
        if (prompt != null && promptFile != null) {
            throw new UsageException("give either --prompt or --prompt-file, not both");
        }
        if (promptFile != null) {
            prompt = readPrompt(promptFile, stdin);
        }
        if (prompt == null) {
            throw new UsageException("no task: give --prompt TEXT or --prompt-file FILE");
        }
        AutopilotOptions.Builder options = AutopilotOptions.builder(prompt)
                .model(model)
                .maxAutopilotContinues(maxContinues)
                .allowAllTools(allowAll)
                .githubToken(EnvironmentTokens.githubToken(env))
                .timeout(timeout)
                .inactivityTimeout(inactivity);
        allow.forEach(options::allowTool);
        deny.forEach(options::denyTool);
        addDirs.forEach(options::addDir);
        secretVars.forEach(options::secretEnvVar);
        if (baseUrl != null && !baseUrl.isBlank()) {
            options.provider(new ProviderOptions(baseUrl, providerType, env.get("COPILOT_PROVIDER_API_KEY"), wireApi, offline));
        } else if (offline) {
            throw new UsageException("--offline needs an own model provider: set --provider-base-url (or COPILOT_PROVIDER_BASE_URL)");
        }
        return new Parsed(options.build(), dir, copilot, journal, timeline, false);
    }

    private static String readPrompt(String file, InputStream stdin) throws UsageException {
        try {
            if ("-".equals(file)) {
                return new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
            }
            return Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new UsageException("cannot read the prompt file " + file + ": " + e.getMessage());
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
