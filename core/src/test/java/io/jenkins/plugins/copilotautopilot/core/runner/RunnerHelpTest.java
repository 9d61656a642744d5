package io.jenkins.plugins.copilotautopilot.core.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.testing.Readme;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code --help} and the README's table of the runner's options say about an option, and that they agree. */
class RunnerHelpTest {
    @Test
    void aDeniedUrlIsACheckOfTheCommandsTextNotANetworkBoundary() throws IOException {
        String help = helpEntry("--deny-url");
        String readme = readmeRow("--deny-url");
        for (String text : List.of(help, readme)) {
            assertThat(text).contains("refuse tool calls whose command names this URL or domain")
                    .contains("a check of the command's text, not a network boundary")
                    .doesNotContain("never reach");
        }
    }

    @Test
    void zeroMeansNoLimitForEveryDuration() throws IOException {
        for (String option : List.of("--timeout", "--inactivity-timeout", "--tool-timeout", "--startup-timeout")) {
            assertThat(helpEntry(option)).as("--help on " + option).contains("0 for none");
            assertThat(readmeRow(option)).as("README on " + option).contains("`0` = none");
        }
    }

    @Test
    void theOptionsThatNeedAnotherOneSaySo() throws IOException {
        assertThat(helpEntry("--max-verify-rounds")).contains("needs --verify");
        assertThat(readmeRow("--max-verify-rounds")).contains("needs `--verify`");
        assertThat(helpEntry("--demo")).contains("no --prompt");
        assertThat(readmeRow("--demo")).contains("no `--prompt`");
    }

    @Test
    void everyOptionTheRunnerTakesIsInTheHelpAndTheReadme() throws IOException {
        List<String> options = new ArrayList<>(OptionValues.names());
        options.add("--demo"); // read before the options, by the runner's main
        assertThat(options).contains("--approve-tool", "--otel", "--output-schema", "--review-findings");
        for (String option : options) {
            assertThat(helpEntry(option)).as("--help on " + option).isNotBlank();
            assertThat(readmeRow(option)).as("the README on " + option).isNotBlank();
        }
    }

    /** The lines of {@link RunnerArguments#USAGE} that describe {@code option}, joined with spaces. */
    private static String helpEntry(String option) {
        List<String> entry = new ArrayList<>();
        for (String line : RunnerArguments.USAGE.split("\n")) {
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

    /** The row of the README's table of the runner's options for {@code option}. */
    private static String readmeRow(String option) throws IOException {
        List<String> rows = Readme.lines().stream()
                .filter(l -> l.startsWith("| `" + option + "`") || l.startsWith("| `" + option + " ")
                        || l.startsWith("| `" + option + "=") || l.matches("\\| `-\\w`, `" + option + "[` ].*")).toList();
        assertThat(rows).as("the README's row for " + option).hasSize(1);
        return rows.get(0);
    }
}
