package io.jenkins.plugins.copilotautopilot.core.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.testing.GithubStandIn;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.Readme;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import io.jenkins.plugins.copilotautopilot.core.testing.TestFolders;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The standalone runner as a user runs it: exit codes, messages, the journal, Ctrl-C. */
@Timeout(120)
class RunnerEndToEndTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(Map<String, String> env, String... args) {
        return run(env, System.getenv(), args);
    }

    /** @param cliEnv the environment the CLI starts with (the runner's process environment) */
    private int run(Map<String, String> env, Map<String, String> cliEnv, String... args) {
        RunnerMain runner = new RunnerMain(env, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false);
        runner.cliEnvironment = cliEnv;
        return runner.run(args);
    }

    /** A user's environment with a GitHub token and no provider: the runner runs the CLI in GitHub-token mode. */
    private static Map<String, String> tokenEnv() {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("COPILOT_CLI", TestCli.executable().path());
        env.put("COPILOT_GITHUB_TOKEN", GithubStandIn.TOKEN);
        return env;
    }

    @Test
    void aGithubTokenRunsTheTaskAgainstGithubAndExitsZero() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        Path journal = dir.resolve("journal.jsonl");
        try (GithubStandIn github = GithubStandIn.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            Map<String, String> cliEnv = github.environment(System.getenv(), Files.createTempDirectory(TestFolders.root(), "cache-"));
            int code = run(tokenEnv(), cliEnv, "--allow-all-tools", "-C", work.toString(), "-p", "Write hi.txt",
                    "--model", GithubStandIn.MODEL, "--journal", journal.toString());

            String log = out.toString(StandardCharsets.UTF_8);
            assertThat(code).as(log + err.toString(StandardCharsets.UTF_8)).isZero();
            assertThat(log).contains("[copilot] Model: gpt-5", "[copilot] COMPLETED: The agent called task_complete",
                    "[copilot] Summary: Wrote hi.txt.", "| premium requests: 1 | AI credits: 2 |");
            assertThat(work.resolve("hi.txt")).exists();
            assertThat(github.modelCalls()).hasSize(2).allSatisfy(r ->
                    assertThat(r.header("authorization")).isEqualTo("Bearer " + GithubStandIn.TOKEN));
            assertThat(log + err.toString(StandardCharsets.UTF_8) + Files.readString(journal)).doesNotContain(GithubStandIn.TOKEN);
        }
    }

    @Test
    void paymentRequiredByGithubExitsOneWithTheServiceMessage() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        try (GithubStandIn github = GithubStandIn.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))
                .paymentRequired("quota_exceeded")) {
            // as a plugin test would give them to a build (withEnv): only the stand-in's variables added
            Map<String, String> cliEnv = new HashMap<>(System.getenv());
            cliEnv.putAll(github.variables(Files.createTempDirectory(TestFolders.root(), "cache-")));
            int code = run(tokenEnv(), cliEnv, "-C", work.toString(), "-p", "Write hi.txt", "--model", GithubStandIn.MODEL);

            String log = out.toString(StandardCharsets.UTF_8);
            assertThat(code).as(log).isEqualTo(1);
            assertThat(log).contains("[copilot] FAILED: The session failed with a quota error (HTTP 402): standin: payment required"
                    + " (quota_exceeded)");
            assertThat(log).contains("[copilot] Failure: QUOTA_EXHAUSTED (quota_exceeded, HTTP 402, retrying will not help): ");
            assertThat(github.modelCalls()).hasSize(1);
        }
    }

    @Test
    void aTokenGithubRefusesExitsOneNamingWhereItCameFrom() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        try (GithubStandIn github = GithubStandIn.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))
                .unauthorizedEverywhere()) {
            Map<String, String> cliEnv = new HashMap<>(System.getenv());
            cliEnv.putAll(github.variables(Files.createTempDirectory(TestFolders.root(), "cache-")));
            int code = run(tokenEnv(), cliEnv, "-C", work.toString(), "-p", "Write hi.txt", "--model", GithubStandIn.MODEL);

            String log = out.toString(StandardCharsets.UTF_8);
            assertThat(code).as(log).isEqualTo(1);
            assertThat(log).contains("[copilot] Failure: AUTHORIZATION (retrying will not help): ").contains("$COPILOT_GITHUB_TOKEN");
            assertThat(github.modelCalls()).isEmpty();
        }
    }

    private Map<String, String> providerEnv(ScriptedModelServer server) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("COPILOT_CLI", TestCli.executable().path());
        env.put("COPILOT_PROVIDER_BASE_URL", server.baseUrl());
        env.put("COPILOT_PROVIDER_API_KEY", "sk-runner-test-key");
        env.put("COPILOT_MODEL", "fake-model");
        return env;
    }

    @Test
    void theDemoRunsARealSessionWithNoAccountAndPrintsWhatTheReadmeShows() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("COPILOT_CLI", TestCli.executable().path());
        Path journal = dir.resolve("demo.jsonl");

        int code = run(env, "--demo", "--journal", journal.toString());

        String log = out.toString(StandardCharsets.UTF_8);
        java.util.regex.Matcher folder = java.util.regex.Pattern.compile("The agent works in (\\S+)").matcher(log);
        assertThat(folder.find()).as(log).isTrue();
        try {
            assertThat(code).as(log).isZero();
            java.util.regex.Matcher wrote = java.util.regex.Pattern.compile("demo: the agent wrote (\\S+NOTES\\.md)").matcher(log);
            assertThat(wrote.find()).as(log).isTrue();
            assertThat(Path.of(wrote.group(1))).content().contains("- README.md").contains("- src");
            assertThat(Files.readString(journal)).contains("\"model\":\"demo-model\"");

            // the README's console, line for line but for what differs between runs (folder, port, times, session id);
            // a token line comes when the CLI has recorded its call, so where it falls varies: those are compared as a set
            List<String> readme = Readme.textBlockAfter("./copilot-autopilot --demo").stream().map(RunnerEndToEndTest::runFree).toList();
            List<String> printed = log.lines().map(RunnerEndToEndTest::runFree).toList();
            assertThat(printed.stream().filter(l -> !isTokenLine(l)).toList())
                    .isEqualTo(readme.stream().filter(l -> !isTokenLine(l)).toList());
            assertThat(printed.stream().filter(RunnerEndToEndTest::isTokenLine).map(l -> l.replaceFirst(" \\(turn \\d+\\)", "")))
                    .hasSize(3).containsOnly("[copilot]   tokens: 1,200 in, 40 out");
            assertThat(readme.stream().filter(RunnerEndToEndTest::isTokenLine)).hasSize(3);
        } finally {
            io.jenkins.plugins.copilotautopilot.core.files.FileTrees.delete(Path.of(folder.group(1)));
        }
    }

    /** A line of a demo's console without what differs from run to run. */
    private static String runFree(String line) {
        return line.replaceAll("\\S*copilot-autopilot-demo-[^/\\s]*", "<folder>")
                .replaceAll("\\(\\S*/copilot\\)", "(<cli>)")
                .replaceAll("http://127\\.0\\.0\\.1:\\d+/v1", "<model>")
                .replaceAll("\\((\\d+ ms|[\\d.]+s)\\)", "(<took>)")
                .replaceAll("\\| [\\dhms. ]+$", "| <took>")
                .replaceAll("Session [0-9a-f-]{36} ", "Session <id> ");
    }

    private static boolean isTokenLine(String line) {
        return line.startsWith("[copilot]   tokens");
    }

    @Test
    void completedTaskExitsZeroWithLogAndJournal() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            Path journal = dir.resolve("out/journal.jsonl");
            Path timeline = dir.resolve("out/timeline.svg");
            int code = run(providerEnv(server), "--offline", "--allow-all-tools", "-C", dir.toString(),
                    "-p", "Write hi.txt", "--journal", journal.toString(), "--timeline", timeline.toString());

            assertThat(code).isZero();
            String log = out.toString(StandardCharsets.UTF_8);
            assertThat(log).contains("[copilot]   > bash: echo hi > hi.txt", "[copilot] COMPLETED: The agent called task_complete",
                    "[copilot] Summary: Wrote hi.txt.");
            assertThat(dir.resolve("hi.txt")).exists();
            assertThat(Files.readAllLines(journal)).first().asString().contains("\"type\":\"autopilot.run_started\"");
            assertThat(log + Files.readString(journal)).doesNotContain("sk-runner-test-key");
            assertThat(Files.readString(timeline)).startsWith("<svg ").contains("<g class=\"tool\"><title>bash: echo hi &gt; hi.txt");
            assertThat(log).contains("[copilot] Timeline: " + timeline);
        }
    }

    @Test
    void changesAreWrittenAsAPatchAndATokenBudgetExitsThree() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        for (String[] git : new String[][] {{"init", "-q"}, {"config", "user.email", "t@example.invalid"}, {"config", "user.name", "t"},
            {"commit", "-q", "--allow-empty", "-m", "start"}}) {
            List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
            command.addAll(List.of(git));
            assertThat(new ProcessBuilder(command).start().waitFor()).isZero();
        }
        Path patch = dir.resolve("out/changes.patch");
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            int code = run(providerEnv(server), "--offline", "--allow-all-tools", "-C", repo.toString(), "-p", "Write hi.txt",
                    "--changes", patch.toString());
            assertThat(code).isZero();
            assertThat(Files.readString(patch)).contains("+++ b/hi.txt").contains("+hi");
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("[copilot] Changed: 1 file (+1 -0): hi.txt (added)");
        }
        out.reset();
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.neverComplete())) {
            int code = run(providerEnv(server), "--offline", "-C", dir.toString(), "-p", "Chat", "--max-tokens", "1500");
            assertThat(code).isEqualTo(3);
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("[copilot] OVER_BUDGET: Stopped").contains("tokens used, limit 1,500");
        }
    }

    @Test
    void approveToolAsksOnTheTerminalAndRunsWhatTheUserApproves() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            RunnerMain runner = new RunnerMain(providerEnv(server), new ByteArrayInputStream(new byte[0]),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false);
            runner.approvalTerminal = new java.io.BufferedReader(new java.io.StringReader("y\n"));
            int code = runner.run(new String[] {"--offline", "-C", dir.toString(), "-p", "Write hi.txt", "--approve-tool", "shell(echo)"});

            assertThat(code).isZero();
            String log = out.toString(StandardCharsets.UTF_8);
            assertThat(log).contains("copilot-autopilot: run bash echo hi > hi.txt (approveTools shell(echo))? [y/N]",
                    "[copilot] Approved by " + TerminalApprover.USER + " at ");
            assertThat(dir.resolve("hi.txt")).exists();
        }
    }

    @Test
    void approveToolWithoutATerminalDeniesAtOnce() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Could not."))) {
            int code = run(providerEnv(server), "--offline", "--allow-all-tools", "-C", dir.toString(), "-p", "Write hi.txt",
                    "--approve-tool", "shell", "--approval-timeout", "30m");

            assertThat(code).isZero();
            String log = out.toString(StandardCharsets.UTF_8);
            assertThat(log).contains("[copilot] Denied by the runner (no terminal to ask on) at ");
            assertThat(log).containsPattern("< bash DENIED.*denied by the runner \\(no terminal to ask on\\): do not run it");
            assertThat(dir.resolve("hi.txt")).doesNotExist();
        }
    }

    @Test
    void otelKeepsTheClisSpansBesideTheJournalUnderTheGivenTrace() throws Exception {
        String trace = "0af7651916cd43dd8448eb211c80319c";
        String parent = "b7ad6b7169203331";
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            Map<String, String> env = providerEnv(server);
            env.put("TRACEPARENT", "00-" + trace + "-" + parent + "-01");
            Path journal = dir.resolve("out/journal.jsonl");
            int code = run(env, "--offline", "--allow-all-tools", "-C", dir.toString(), "-p", "Write hi.txt", "--otel",
                    "--journal", journal.toString());

            assertThat(code).isZero();
            Path spans = dir.resolve("out/journal.jsonl.otel.jsonl");
            byte[] lines = Files.readAllBytes(spans);
            io.jenkins.plugins.copilotautopilot.core.otel.SpanFile.Counts counts = io.jenkins.plugins.copilotautopilot.core.otel.SpanFile.count(lines);
            assertThat(counts.runs()).isEqualTo(1);
            assertThat(counts.modelCalls()).as("one span per model call").isEqualTo(server.agentTurns());
            assertThat(counts.toolCalls()).as("bash and task_complete").isEqualTo(2);
            assertThat(counts.metrics()).isPositive();
            com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
            java.util.Set<String> spanIds = new java.util.HashSet<>();
            List<com.fasterxml.jackson.databind.JsonNode> all = new ArrayList<>();
            for (String line : Files.readAllLines(spans)) {
                com.fasterxml.jackson.databind.JsonNode node = json.readTree(line);
                if ("span".equals(node.path("type").asText())) {
                    all.add(node);
                    spanIds.add(node.path("spanId").asText());
                }
            }
            assertThat(all).allSatisfy(span -> assertThat(span.path("traceId").asText()).isEqualTo(trace));
            assertThat(all).filteredOn(span -> span.path("name").asText().startsWith("invoke_agent"))
                    .singleElement().satisfies(root -> assertThat(root.path("parentSpanId").asText()).isEqualTo(parent));
            assertThat(all).filteredOn(span -> !span.path("name").asText().startsWith("invoke_agent"))
                    .allSatisfy(span -> assertThat(spanIds).contains(span.path("parentSpanId").asText()));
            assertThat(new String(lines, StandardCharsets.UTF_8)).doesNotContain("sk-runner-test-key");
        }
    }

    @Test
    void otelWithoutAJournalIsOneLine() {
        assertThat(run(Map.of("PATH", System.getenv("PATH")), "-p", "x", "--otel")).isEqualTo(64);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--otel needs --journal FILE");
    }

    @Test
    void incompleteTaskExitsTwo() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.neverComplete())) {
            int code = run(providerEnv(server), "--offline", "-C", dir.toString(), "-p", "Chat", "--max-autopilot-continues", "0");
            assertThat(code).isEqualTo(2);
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("INCOMPLETE:");
        }
    }

    @Test
    void failedTaskExitsOne() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.always(Reply.status(400, "nope")))) {
            assertThat(run(providerEnv(server), "--offline", "-C", dir.toString(), "-p", "x")).isEqualTo(1);
        }
    }

    @Test
    void missingCliIsOneClearLine() {
        Map<String, String> env = Map.of("COPILOT_CLI", dir.resolve("no-cli").toString(), "COPILOT_GITHUB_TOKEN", "github_pat_x12345");
        assertThat(run(env, "-p", "x")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().toList()).singleElement().asString()
                .startsWith("copilot-autopilot: No Copilot CLI at '" + dir.resolve("no-cli") + "'")
                .contains("Set --copilot or COPILOT_CLI");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void missingCredentialsIsOneClearLine() {
        assertThat(run(Map.of("COPILOT_CLI", TestCli.executable().path()), "-p", "x")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().toList()).singleElement().asString()
                .startsWith("copilot-autopilot: no credentials for the Copilot CLI: set COPILOT_GITHUB_TOKEN");
    }

    @Test
    void aTokenCopilotRefusesIsOneLineBeforeTheCliIsEvenLookedFor() {
        // a CLI that is not there: the token is judged first, so its line is the one said
        String noCli = dir.resolve("no-cli").toString();
        assertThat(run(Map.of("COPILOT_CLI", noCli, "GH_TOKEN", "ghp_classic0123456789"), "-p", "x")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().toList()).singleElement().asString()
                .isEqualTo("copilot-autopilot: The GitHub token in GH_TOKEN is a classic personal access token (ghp_...), which"
                        + " Copilot does not accept: use a fine-grained personal access token (github_pat_...) with the"
                        + " \"Copilot Requests\" permission.");
        err.reset();
        assertThat(run(Map.of("COPILOT_CLI", noCli, "COPILOT_GITHUB_TOKEN", "ghs_installation0123"), "-p", "x")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("copilot-autopilot: The GitHub token in COPILOT_GITHUB_TOKEN is a"
                + " GitHub App installation token (ghs_...), which GitHub refuses for Copilot requests");
        for (String fine : List.of("github_pat_0123", "gho_0123", "ghu_0123")) {
            err.reset();
            assertThat(run(Map.of("COPILOT_CLI", noCli, "GITHUB_TOKEN", fine), "-p", "x")).isEqualTo(1);
            assertThat(err.toString(StandardCharsets.UTF_8)).as(fine).startsWith("copilot-autopilot: No Copilot CLI at ");
        }
    }

    @Test
    void badArgumentsExit64() {
        assertThat(run(Map.of(), "--max-autopilot-continues", "-3", "-p", "x")).isEqualTo(RunnerMain.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("copilot-autopilot: --max-autopilot-continues must be 0 or more, was -3. (see --help)\n");
        err.reset();
        assertThat(run(Map.of(), "--bogus", "x")).isEqualTo(RunnerMain.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("copilot-autopilot: unknown option --bogus (see --help)\n");
        err.reset();
        assertThat(run(Map.of(), "-p", "x", "--max-verify-rounds", "3")).isEqualTo(RunnerMain.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("copilot-autopilot: --max-verify-rounds needs --verify CMD (see --help)\n");
    }

    @Test
    void anAnswerWithFindingsIsWrittenToTheOutputAndIssuesFiles() throws Exception {
        String answer = "{\"findings\": [{\"path\": \"src/a.c\", \"line\": 3, \"severity\": \"high\", \"message\": \"overflow\"},"
                + " {\"path\": \"/etc/passwd\", \"line\": 1, \"severity\": \"low\", \"message\": \"outside\"}]}";
        Path output = dir.resolve("out/answer.json");
        Path issues = dir.resolve("out/issues.json");
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.answers(answer))) {
            int code = run(providerEnv(server), "--offline", "-C", dir.toString(), "-p", "Review it.", "--review-findings",
                    "--output-file", output.toString(), "--issues-file", issues.toString());

            assertThat(code).isZero();
            assertThat(Files.readString(output)).isEqualTo(answer.replace(", ", ",").replace(": ", ":")); // compact
            assertThat(Files.readString(issues)).contains("\"fileName\" : \"src/a.c\"").doesNotContain("passwd");
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("[copilot] Answer 1: follows the schema (",
                    "[copilot] WARNING: a finding for '/etc/passwd' was dropped: the path is not a file in the workspace",
                    "[copilot] Findings: 1 in " + issues, "[copilot] Answer: " + output);
        }
    }

    @Test
    void aSchemaThatIsNotOneOrAnOutputFileWithoutOneIsOneLineBeforeAnythingRuns() throws Exception {
        Path schema = Files.writeString(dir.resolve("schema.json"), "{\"type\": 12}");
        assertThat(run(Map.of(), "-p", "x", "--output-schema", schema.toString())).isEqualTo(RunnerMain.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("copilot-autopilot: --output-schema " + schema + " is not a valid JSON Schema: ")
                .endsWith(" (see --help)\n").hasLineCount(1);
        err.reset();
        assertThat(run(Map.of(), "-p", "x", "--output-file", "a.json")).isEqualTo(RunnerMain.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("copilot-autopilot: --output-file needs --output-schema FILE or"
                + " --review-findings (see --help)\n");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void theDemoRefusesATaskOfItsOwn() {
        for (String[] args : List.of(new String[] {"--demo", "-p", "Fix the build"}, new String[] {"--prompt-file", "task.md", "--demo"})) {
            err.reset();
            assertThat(run(Map.of("COPILOT_CLI", TestCli.executable().path()), args)).isEqualTo(RunnerMain.EXIT_USAGE);
            assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("copilot-autopilot: --demo runs its own task (its scripted"
                    + " model answers every task the same way): leave out --prompt and --prompt-file, or leave out --demo (see --help)\n");
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).as("no demo model was started, no folder made").isEmpty();
    }

    @Test
    void aToolTimeoutOfZeroIsNoLimitNotZeroSeconds() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.bashThenComplete("sleep 2 && echo slept", "Slept."))) {
            assertThat(run(providerEnv(server), "--offline", "--allow-all-tools", "-C", dir.toString(), "-p", "Sleep",
                    "--tool-timeout", "0")).as(out.toString(StandardCharsets.UTF_8)).isZero();
            String none = out.toString(StandardCharsets.UTF_8);
            assertThat(none).contains("| limits: 1h wall clock, 10m without events\n", "[copilot]   < bash ok (",
                    "[copilot] COMPLETED: ").doesNotContain("per tool call");
            out.reset();
            assertThat(run(providerEnv(server), "--offline", "--allow-all-tools", "-C", dir.toString(), "-p", "Sleep",
                    "--tool-timeout", "1s")).isEqualTo(124);
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("10m without events, 1s per tool call",
                    "[copilot] TIMED_OUT: The tool call 'bash' (sleep 2 && echo slept) in turn 1 ran longer than 1s");
        }
    }

    @Test
    void helpListsEveryOption() {
        assertThat(run(Map.of(), "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--prompt", "--prompt-file", "--dir", "--copilot", "--model",
                "--max-autopilot-continues", "--allow-all-tools", "--allow-tool", "--deny-tool", "--add-dir", "--timeout",
                "--inactivity-timeout", "--journal", "--timeline", "--provider-base-url", "--provider-type", "--provider-wire-api", "--offline",
                "COPILOT_GITHUB_TOKEN", "COPILOT_PROVIDER_API_KEY", "--secret-env-var");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"INT, 130", "TERM, 143"})
    void aSignalStopsTheCliTreeFinishesTheRecordsAndLeavesNothingOnDisk(String signal, int exitCode) throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Path journal = dir.resolve("out/journal.jsonl");
        Path timeline = dir.resolve("out/timeline.svg");
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.bashThenComplete("sleep 317", "never"))) {
            // A build started in the background (nohup, &) ignores SIGINT, as its children do, and a JVM that starts with
            // SIGINT ignored leaves it ignored: the runner is started with Ctrl-C's default, as a terminal starts it.
            List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.io.tmpdir=" + tmp,
                    "-cp", System.getProperty("java.class.path"), RunnerMain.class.getName(),
                    "--offline", "--allow-all-tools", "-C", work.toString(), "-p", "Sleep",
                    "--journal", journal.toString(), "--timeline", timeline.toString()));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(providerEnv(server));
            Process runner = builder.start();
            List<String> lines = new ArrayList<>();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(runner.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    lines.add(line);
                    if (line.contains("> bash: sleep 317")) {
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        while (ProcessTable.workingIn(work).stream().noneMatch(p -> p.contains("sleep 317")) && System.nanoTime() < deadline) {
                            Thread.sleep(20); // until the tool's shell runs its command
                        }
                        new ProcessBuilder("kill", "-" + signal, String.valueOf(runner.pid())).start().waitFor();
                    }
                }
            }
            assertThat(runner.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(runner.exitValue()).isEqualTo(exitCode);
            assertThat(lines).anyMatch(l -> l.startsWith("[copilot] ABORTED: Aborted while tool 'bash' (sleep 317)"));
            assertThat(ProcessTable.workingIn(work)).isEmpty();
            // the records are complete
            List<String> records = Files.readAllLines(journal, StandardCharsets.UTF_8);
            assertThat(records.get(records.size() - 1)).contains("autopilot.run_finished").contains("ABORTED");
            assertThat(timeline).content(StandardCharsets.UTF_8).startsWith("<svg");
            // and the private folder (the CLI's COPILOT_HOME with the session's unmasked state) is gone
            try (java.util.stream.Stream<Path> left = Files.list(tmp)) {
                assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("copilot-autopilot"));
            }
        }
    }

    @Test
    void aRunnerKilledWithSigkillWhileAToolRunsLeavesTheJournalUpToThatTool() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Path journal = dir.resolve("out/journal.jsonl");
        try (ScriptedModelServer server = ScriptedModelServer.start(Scripts.bashThenComplete("sleep 318", "never"))) {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.io.tmpdir=" + tmp,
                    "-cp", System.getProperty("java.class.path"), RunnerMain.class.getName(),
                    "--offline", "--allow-all-tools", "-C", work.toString(), "-p", "Sleep", "--journal", journal.toString()));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(providerEnv(server));
            Process runner = builder.start();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(runner.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (line.contains("> bash: sleep 318")) {
                        new ProcessBuilder("kill", "-KILL", String.valueOf(runner.pid())).start().waitFor();
                    }
                }
            }
            assertThat(runner.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(runner.exitValue()).isEqualTo(137);
            // what came before the tool started reached the disk before it ran
            List<String> records = Files.readAllLines(journal, StandardCharsets.UTF_8);
            assertThat(records.get(0)).contains("autopilot.run_started").contains("\"prompt\":\"Sleep\"");
            assertThat(records).anyMatch(r -> r.contains("\"type\":\"tool.execution_start\"") && r.contains("sleep 318"));
            assertThat(records).noneMatch(r -> r.contains("autopilot.run_finished"));
        } finally {
            // a runner killed that way cannot stop the CLI: its watchdog would, at the wall-clock limit
            for (String p : ProcessTable.workingIn(work)) {
                new ProcessBuilder("kill", "-KILL", p.substring(0, p.indexOf(' '))).start().waitFor();
            }
        }
    }
}
