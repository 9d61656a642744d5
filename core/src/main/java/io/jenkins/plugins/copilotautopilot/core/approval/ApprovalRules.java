package io.jenkins.plugins.copilotautopilot.core.approval;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The tool patterns of {@code approveTools} (the CLI's vocabulary: {@code shell(git push)}, {@code shell(git:*)},
 * {@code write(.env)}, {@code url(github.com)}, {@code <mcp-server>(tool)}) as the launch script's approval hook tests
 * them: each a regular expression on the tool's name (the hook's {@code matcher}) and one on the raw JSON the CLI hands
 * the hook ({@code toolName}, {@code toolArgs}). The argument tests are textual and lean towards asking: a call that
 * might match waits for a person; a shell command spelled to hide a command from any pattern (a variable holding
 * {@code git}) is not found, as no pattern finds it in the CLI's own rules either.
 *
 * <p>The expressions use only what POSIX extended expressions ({@code grep -E}) and {@link Pattern} read alike.
 */
public final class ApprovalRules {
    /** The tools a pattern kind stands for, as CLI 1.0.102 names them. */
    static final List<String> SHELL_TOOLS = List.of("bash", "powershell");
    static final List<String> WRITE_TOOLS = List.of("create", "edit", "str_replace_editor", "apply_patch", "write");
    static final List<String> URL_TOOLS = List.of("web_fetch", "bash", "powershell");
    /** Where a command begins in a shell line: its start, after a separator, a subshell, a substitution or a line feed. */
    /** A blank between words as the hook's input spells it: a space, or an escaped tab. */
    private static final String BLANK = "( |\\\\t)";
    /**
     * Where a command begins in a shell line: the command's start, or after a separator, a subshell, a substitution or
     * a line feed; then variable assignments and a folder before the command's name.
     */
    private static final String COMMAND_START = "\"command\" *: *\"(([^\"\\\\]|\\\\.)*(;|&|[|]|[(]|`|\\\\n|[$][(]))?"
            + BLANK + "*([A-Za-z_][A-Za-z0-9_]*=[^ \"\\\\]* +)*([^ \"\\\\;&|()]*/)?";
    /** Where a command word ends: a blank, a separator, the string's end or an escaped character. */
    private static final String WORD_END = "( |;|&|[|]|[)]|`|\"|\\\\|$)";

    /** One pattern: what it is called and its two expressions. */
    public record Rule(String pattern, String toolNames, String arguments) {
        /** Whether the call (its tool's name, and the hook's input as the CLI wrote it) matches. */
        public boolean matches(String toolName, String rawInput) {
            return Pattern.compile(toolNames).matcher(toolName).matches()
                    && (arguments == null || Pattern.compile(arguments).matcher(rawInput).find());
        }
    }

    private final List<Rule> rules;

    private ApprovalRules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** The rules of {@code approveTools}. */
    public static ApprovalRules approving(SessionPlan plan) {
        return of(plan.list(SessionSettings.APPROVE_TOOLS));
    }

    /** The rules of {@code denyTools}: a call they match is left to the CLI, which denies it. */
    public static ApprovalRules denying(SessionPlan plan) {
        return of(plan.list(SessionSettings.DENY_TOOLS));
    }

    /**
     * How long a call waits for a person: {@code approvalTimeout}; 0 stands for as long as the session may run (at most
     * a day).
     */
    public static Duration timeout(SessionPlan plan) {
        Duration limit = plan.limit(SessionSettings.APPROVAL_TIMEOUT);
        if (limit != null) {
            return limit;
        }
        Duration session = plan.limit(SessionSettings.TIMEOUT);
        return session != null && session.compareTo(Duration.ofDays(1)) < 0 ? session : Duration.ofDays(1);
    }

    /** The rules of these patterns, in their order. */
    public static ApprovalRules of(List<String> patterns) {
        List<Rule> rules = new ArrayList<>();
        for (String pattern : patterns) {
            rules.add(rule(pattern.strip()));
        }
        return new ApprovalRules(rules);
    }

    public List<Rule> rules() {
        return rules;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** The first rule the call matches, or null. */
    public Rule firstMatch(String toolName, String rawInput) {
        for (Rule rule : rules) {
            if (rule.matches(toolName, rawInput)) {
                return rule;
            }
        }
        return null;
    }

    /** The hook's {@code matcher}: every tool a rule may stand for (never {@code task_complete}). */
    public String hookMatcher() {
        Set<String> names = new LinkedHashSet<>();
        for (Rule rule : rules) {
            names.add(rule.toolNames());
        }
        return String.join("|", names);
    }

    private static Rule rule(String pattern) {
        int open = pattern.indexOf('(');
        String kind = (open < 0 ? pattern : pattern.substring(0, open)).strip();
        String argument = open < 0 ? null : pattern.substring(open + 1, pattern.length() - 1).strip();
        if (argument != null && argument.isEmpty()) {
            argument = null;
        }
        switch (kind.toLowerCase(Locale.ROOT)) {
            case "shell":
                return new Rule(pattern, names(SHELL_TOOLS), argument == null ? null : shellCommand(argument));
            case "write":
                return new Rule(pattern, names(WRITE_TOOLS), argument == null ? null : writePath(argument));
            case "url":
                return new Rule(pattern, names(URL_TOOLS), argument == null ? null : literal(urlText(argument)));
            default:
                // an MCP server's tools are named <server>-<tool>; a built-in tool by its own name
                String server = literal(kind);
                return new Rule(pattern, argument == null ? server + "|" + server + "-.*" : server + "-" + literal(argument), null);
        }
    }

    private static String names(List<String> tools) {
        return String.join("|", tools);
    }

    /** A command whose words begin with these words ({@code git push}), or whose first word is the stem ({@code git:*}). */
    private static String shellCommand(String argument) {
        String words = argument.endsWith(":*") ? argument.substring(0, argument.length() - 2) : argument;
        StringBuilder regex = new StringBuilder(COMMAND_START);
        String[] parts = words.strip().split("[ \t]+");
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                regex.append(BLANK).append('+');
            }
            regex.append(literal(parts[i]));
        }
        return regex.append(WORD_END).toString();
    }

    /** A relative path matches by its trailing components, an absolute one exactly (as the CLI's write rules). */
    private static String writePath(String path) {
        String target = "\"(path|file_path|filePath)\" *: *\"";
        return path.startsWith("/") ? target + literal(path) + "\"" : target + "([^\"]*/)?" + literal(path) + "\"";
    }

    /** A URL rule without its protocol: the domain (or URL) appears in the call's arguments. */
    private static String urlText(String argument) {
        return argument.replaceFirst("(?i)^https?://", "").replace("*.", "");
    }

    /** {@code text} as an expression matching it alone: every character that is not a letter or digit in brackets. */
    static String literal(String text) {
        StringBuilder regex = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == ' ' || c == '_' || c == '-' || c == '/' || c == ':' || c == '=' || c == ',') {
                regex.appendCodePoint(c);
            } else if (c == '\\') {
                regex.append("[\\\\]");
            } else if (c == '^' || c == '[' || c == ']' || c == '{' || c == '}') {
                regex.append('\\').appendCodePoint(c);
            } else if (c == '"') {
                regex.append("\\\\\""); // in the hook's input a quote is escaped
            } else {
                regex.append('[').appendCodePoint(c).append(']');
            }
        });
        return regex.toString();
    }
}
