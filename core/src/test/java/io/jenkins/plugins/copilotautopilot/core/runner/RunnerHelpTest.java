package io.jenkins.plugins.copilotautopilot.core.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jenkins.plugins.copilotautopilot.core.testing.Readme;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@code --help} and the README's table of the runner's options, both rendered from {@link RunnerOptions}: that the
 * README holds that table as it is rendered, that every option the runner reads has an entry, and what the entries say.
 */
class RunnerHelpTest {
    private static final String TABLE_HEADER = "| Option | Meaning | Default |";

    @Test
    void theReadmesTableIsTheOptionsAsRendered() throws IOException {
        String expected = RunnerHelp.markdownTable();
        String readme = String.join("\n", readmeTable());
        if (!expected.equals(readme)) {
            // for the maintainer: the table to paste into the README
            Path file = Files.writeString(Path.of("target", "runner-options-table.md"), expected + "\n", StandardCharsets.UTF_8);
            assertEquals(expected, readme, "the README's table of the runner's options differs from RunnerOptions rendered;"
                    + " the rendered table is in " + file.toAbsolutePath());
        }
    }

    @Test
    void everyOptionTheRunnerReadsHasOneEntry() throws Exception {
        Set<String> read = new TreeSet<>(OptionValues.names());
        read.add("--demo"); // read before the options, by the runner's main
        List<String> described = RunnerOptions.names();
        assertEquals(read, new TreeSet<>(described), "the options the runner reads and those RunnerOptions describes");
        assertEquals(described.size(), new TreeSet<>(described).size(), "each option is described once: " + described);
        for (RunnerOption option : RunnerOptions.ALL) {
            if (option.shortName() != null) {
                String[] args = option.argument() == null ? new String[] {option.shortName()} : new String[] {option.shortName(), "x"};
                assertThat(OptionValues.read(args).has(option.name())).as(option.shortName() + " is " + option.name()).isTrue();
            }
        }
    }

    @Test
    void theHelpAndTheReadmeListTheOptionsTheyOnceLeftOut() throws IOException {
        for (String option : List.of("--approve-tool", "--approval-timeout", "--otel", "--client-telemetry")) {
            assertThat(helpEntry(option)).as("--help on " + option).isNotBlank();
        }
        for (String option : List.of("--output-schema", "--output-file", "--max-output-rounds", "--review-findings", "--issues-file")) {
            assertThat(readmeRow(option)).as("the README on " + option).isNotBlank();
        }
    }

    @Test
    void aDeniedUrlIsACheckOfTheCommandsTextNotANetworkBoundary() throws IOException {
        for (String text : List.of(helpEntry("--deny-url"), readmeRow("--deny-url"))) {
            assertThat(text).contains("refuse tool calls whose command names this URL or domain")
                    .contains("a check of the command's text, not a network boundary")
                    .doesNotContain("never reach");
        }
    }

    @Test
    void zeroMeansNoLimitForEveryDuration() throws IOException {
        for (String option : List.of("--timeout", "--inactivity-timeout", "--tool-timeout", "--startup-timeout")) {
            assertThat(helpEntry(option)).as("--help on " + option).contains("0 for none");
            assertThat(readmeRow(option)).as("README on " + option).contains("`0` for none");
        }
    }

    @Test
    void theOptionsThatNeedAnotherOneSaySo() throws IOException {
        assertThat(helpEntry("--max-verify-rounds")).contains("needs --verify");
        assertThat(readmeRow("--max-verify-rounds")).contains("needs `--verify`");
        assertThat(helpEntry("--demo")).contains("no --prompt");
        assertThat(readmeRow("--demo")).contains("no `--prompt`");
        for (String option : List.of("--max-output-rounds", "--output-file", "--issues-file")) {
            assertThat(helpEntry(option)).as("--help on " + option).contains("needs --output-schema or --review-findings");
        }
    }

    @Test
    void theHelpIsPlainTextThatFitsATerminal() {
        String help = RunnerHelp.text();
        assertThat(help).doesNotContain("`").contains("e.g. 'shell(npm test)', shell(git:*), write")
                .contains("waits for 'y' on the").contains("(default: 60m)")
                .contains("COPILOT_GITHUB_TOKEN (or GH_TOKEN, GITHUB_TOKEN)");
        for (String line : help.split("\n")) {
            assertThat(line.length()).as(line).isLessThanOrEqualTo(RunnerHelp.WIDTH);
        }
    }

    /** The lines of {@code --help} that describe {@code option}, joined with spaces. */
    private static String helpEntry(String option) {
        List<String> entry = new ArrayList<>();
        for (String line : RunnerHelp.text().split("\n")) {
            String name = line.strip().replaceFirst("^-\\w, ", "");
            if (entry.isEmpty() ? name.equals(option) || name.startsWith(option + " ") || name.startsWith(option + "=")
                    : line.startsWith(" ".repeat(33))) {
                entry.add(line.strip());
            } else if (!entry.isEmpty()) {
                break;
            }
        }
        assertThat(entry).as("--help describes " + option).isNotEmpty();
        return String.join(" ", entry);
    }

    /** The README's table of the runner's options, from its header to its last row. */
    private static List<String> readmeTable() throws IOException {
        List<String> lines = Readme.lines();
        int start = lines.indexOf(TABLE_HEADER);
        assertThat(start).as("the README has a table headed " + TABLE_HEADER).isNotNegative();
        int end = start;
        while (end < lines.size() && lines.get(end).startsWith("|")) {
            end++;
        }
        return lines.subList(start, end);
    }

    /** The row of the README's table of the runner's options for {@code option}. */
    private static String readmeRow(String option) throws IOException {
        List<String> rows = readmeTable().stream()
                .filter(l -> l.startsWith("| `" + option + "`") || l.startsWith("| `" + option + " ")
                        || l.startsWith("| `" + option + "=") || l.matches("\\| `-\\w`, `" + option + "[` ].*")).toList();
        assertThat(rows).as("the README's row for " + option).hasSize(1);
        return rows.get(0);
    }
}
