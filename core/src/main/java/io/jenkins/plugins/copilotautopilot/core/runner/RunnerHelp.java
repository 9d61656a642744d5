package io.jenkins.plugins.copilotautopilot.core.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The runner's options ({@link RunnerOptions}) rendered: as {@code --help} prints them, and as the README's table. */
final class RunnerHelp {
    /** The widest line {@code --help} prints (but for a word longer than that). */
    static final int WIDTH = 100;
    /** Where an option's description starts. */
    private static final int DESCRIPTION_COLUMN = 33;
    private static final Pattern CODE = Pattern.compile("`([^`]*)`");

    private static final String HEADER = String.join("\n",
            "Usage: copilot-autopilot (--prompt TEXT | --prompt-file FILE | --demo) [options]",
            "",
            "Runs one GitHub Copilot CLI autopilot task, prints a live log, and exits with",
            "0 COMPLETED, 2 INCOMPLETE, 4 BLOCKED, 5 NOT_VERIFIED, 6 OUTPUT_INVALID, 1 FAILED, 3 OVER_BUDGET,",
            "124 TIMED_OUT or STALLED, 130 ABORTED by Ctrl-C, 143 ABORTED by SIGTERM (64: bad arguments).");

    private static final String FOOTER = String.join("\n",
            "A value follows its option after a space or '='; a flag also takes =true or =false. Options other",
            "than the repeatable ones may be given once.",
            "",
            "Credentials, from the environment only:",
            "      COPILOT_GITHUB_TOKEN (or GH_TOKEN, GITHUB_TOKEN)  token for GitHub-hosted models",
            "      COPILOT_PROVIDER_API_KEY                          the provider's API key");

    private RunnerHelp() {
    }

    /** What {@code --help} prints: every option under its group's heading, wrapped at {@link #WIDTH} columns. */
    static String text() {
        StringBuilder help = new StringBuilder(HEADER).append("\n");
        String group = null;
        for (RunnerOption option : RunnerOptions.ALL) {
            if (!option.group().equals(group)) {
                group = option.group();
                help.append("\n").append(group).append(":\n");
            }
            help.append(entry(option)).append("\n");
        }
        return help.append("\n").append(FOOTER).toString();
    }

    /** The README's table of the runner's options: a header and one row per option, without a line break at the end. */
    static String markdownTable() {
        List<String> rows = new ArrayList<>(List.of("| Option | Meaning | Default |", "|---|---|---|"));
        for (RunnerOption option : RunnerOptions.ALL) {
            String names = (option.shortName() == null ? "" : "`" + option.shortName() + "`, ") + "`" + option.usage() + "`";
            String byDefault = option.byDefault() == null ? "" : " " + option.byDefault();
            rows.add("| " + names + " | " + option.meaning() + " |" + byDefault + " |");
        }
        return String.join("\n", rows);
    }

    /** One option in {@code --help}: its usage, then its description and default, wrapped under the description's column. */
    static String entry(RunnerOption option) {
        String start = (option.shortName() == null ? "      " : "  " + option.shortName() + ", ") + option.usage();
        StringBuilder line = new StringBuilder(start);
        line.append(" ".repeat(Math.max(2, DESCRIPTION_COLUMN - start.length())));
        List<String> lines = new ArrayList<>();
        for (String word : plain(description(option)).split(" ")) {
            if (line.length() + word.length() > WIDTH && line.length() > DESCRIPTION_COLUMN) {
                lines.add(line.toString().stripTrailing());
                line = new StringBuilder(" ".repeat(DESCRIPTION_COLUMN));
            }
            line.append(word).append(' ');
        }
        lines.add(line.toString().stripTrailing());
        return String.join("\n", lines);
    }

    /** What an option does, with its default, as one text with Markdown's code marks. */
    static String description(RunnerOption option) {
        return option.byDefault() == null ? option.meaning() : option.meaning() + " (default: " + option.byDefault() + ")";
    }

    /**
     * Markdown's code marks taken out for a terminal: a piece of code stays as it is, but one that holds a space or is
     * a single letter or mark ({@code y}, {@code -}) is quoted, so that it still reads as a piece of code.
     */
    static String plain(String markdown) {
        Matcher code = CODE.matcher(markdown);
        StringBuilder text = new StringBuilder();
        while (code.find()) {
            String piece = code.group(1);
            boolean quote = piece.contains(" ") || piece.length() == 1 && !Character.isDigit(piece.charAt(0));
            code.appendReplacement(text, Matcher.quoteReplacement(quote ? "'" + piece + "'" : piece));
        }
        return code.appendTail(text).toString();
    }
}
