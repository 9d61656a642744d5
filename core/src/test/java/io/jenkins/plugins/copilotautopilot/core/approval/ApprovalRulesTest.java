package io.jenkins.plugins.copilotautopilot.core.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The approval rules as the hook (POSIX {@code grep -E}) and the follower ({@link java.util.regex.Pattern}) read them:
 * both must find the same calls, on the JSON the CLI hands the hook.
 */
class ApprovalRulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0} on {1} {2}: {3}")
    @CsvSource(delimiter = '|', value = {
        "shell(git push)|bash|git push origin main|true",
        "shell(git push)|bash|git push|true",
        "shell(git push)|bash|cd repo && git push --force|true",
        "shell(git push)|bash|ls; /usr/bin/git push|true",
        "shell(git push)|bash|echo $(git push)|true",
        "shell(git push)|bash|GIT_TRACE=1 git  push|true",
        "shell(git push)|bash|git status\\ngit push|true",
        "shell(git push)|bash|git pull|false",
        "shell(git push)|bash|gitpush|false",
        "shell(git push)|bash|echo git push|false",
        "shell(git push)|bash|git pushy|false",
        "shell(git push)|view|git push|false",
        "shell(git:*)|bash|git status|true",
        "shell(git:*)|bash|gitea status|false",
        "shell|bash|anything at all|true",
        "shell|powershell|Get-Item|true",
        "shell|create|x|false",
        "write|create|a.txt|true",
        "write|edit|a.txt|true",
        "write|bash|echo > a.txt|false",
        "write(.env)|create|.env|true",
        "write(.env)|create|config/.env|true",
        "write(.env)|create|.envrc|false",
        "write(/etc/hosts)|edit|/etc/hosts|true",
        "write(/etc/hosts)|edit|/tmp/etc/hosts|false",
        "url(github.com)|web_fetch|https://github.com/x|true",
        "url(https://github.com)|bash|curl https://github.com/x|true",
        "url(github.com)|web_fetch|https://gitlab.com/x|false",
        "github|github-get_issue|1|true",
        "github(get_issue)|github-get_issue|1|true",
        "github(get_issue)|github-list_issues|1|false",
        "task_complete|task_complete|x|true",
    })
    void theHookAndTheFollowerFindTheSameCalls(String pattern, String tool, String argument, boolean expected) throws Exception {
        String input = input(tool, argument.replace("\\n", "\n"));
        ApprovalRules.Rule rule = ApprovalRules.of(List.of(pattern)).rules().get(0);

        assertThat(rule.matches(tool, input)).as("Java").isEqualTo(expected);
        assertThat(grep(rule, input)).as("grep -E").isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} names {1}")
    @CsvSource(delimiter = '|', value = {
        "shell(git push)|bash|powershell",
        "write|create|edit",
        "my.server(tool)|my[.]server-tool|",
    })
    void theHooksMatcherNamesTheToolsOfEveryRule(String pattern, String first, String second) {
        String matcher = ApprovalRules.of(List.of(pattern)).hookMatcher();
        assertThat(matcher).contains(first);
        if (second != null) {
            assertThat(matcher).contains(second);
        }
        assertThat(java.util.regex.Pattern.compile(matcher).matcher("task_complete").matches()).isFalse();
    }

    /** The CLI's input to a preToolUse hook (as measured with 1.0.102: compact JSON, toolArgs an object). */
    private static String input(String tool, String argument) throws IOException {
        Map<String, Object> args = switch (tool) {
            case "create", "edit" -> Map.of("path", argument, "file_text", "x=1");
            case "web_fetch" -> Map.of("url", argument);
            case "bash", "powershell" -> Map.of("command", argument, "description", "Run it");
            default -> Map.of("value", argument);
        };
        Map<String, Object> input = new java.util.LinkedHashMap<>();
        input.put("sessionId", "s-1");
        input.put("timestamp", 1796188051520L);
        input.put("cwd", "/work/repo");
        input.put("toolName", tool);
        input.put("toolArgs", args);
        return JSON.writeValueAsString(input);
    }

    /** Both of the hook's tests, run by grep -E as the hook runs them. */
    private static boolean grep(ApprovalRules.Rule rule, String input) throws Exception {
        if (!run(List.of("grep", "-E", "-q", "-e", "[{,] *\"toolName\" *: *\"(" + rule.toolNames() + ")\""), input)) {
            return false;
        }
        return rule.arguments() == null || run(List.of("grep", "-E", "-q", "-e", rule.arguments()), input);
    }

    private static boolean run(List<String> command, String input) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().write((input + "\n").getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        assertThat(code).as("grep: " + out).isIn(0, 1);
        return code == 0;
    }
}
