package io.jenkins.plugins.copilotautopilot.core.runner;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerArgumentsTest {
    private static final ByteArrayInputStream NO_INPUT = new ByteArrayInputStream(new byte[0]);
    private static final Map<String, String> PROVIDER = Map.of("COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:9/v1", "COPILOT_MODEL", "m");

    @TempDir
    Path dir;

    /**
     * The command line read with {@code env}, and a GitHub token when {@code env} has no credentials: the runner refuses
     * a session without any (RunnerEndToEndTest), and these tests are about the options.
     */
    private static RunnerArguments.Parsed parse(Map<String, String> env, String... args) throws Exception {
        Map<String, String> withCredentials = new java.util.HashMap<>(env);
        if (java.util.stream.Stream.of("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_PROVIDER_BASE_URL")
                .noneMatch(env::containsKey)) {
            withCredentials.put("COPILOT_GITHUB_TOKEN", "github_pat_options");
        }
        return RunnerArguments.parse(args, withCredentials, NO_INPUT);
    }

    private static RunnerArguments.Parsed options(String... args) throws Exception {
        return parse(Map.of(), args);
    }

    @Test
    void everyOption() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        RunnerArguments.Parsed parsed = parse(Map.of("GH_TOKEN", "github_pat_env123"),
                "-p", "Fix it", "-C", "/repo", "--copilot", "/opt/cli", "--model", "gpt-5", "--max-autopilot-continues", "3",
                "--allow-all-tools", "--allow-tool", "shell(npm test)", "--deny-tool=shell(rm)", "--add-dir", data.toString(),
                "--timeout", "1h30m", "--inactivity-timeout", "90s", "--journal", "/tmp/j.jsonl", "--timeline", "/tmp/t.svg",
                "--secret-env-var", "NPM_TOKEN");
        RunnerArguments.Parsed o = parsed;
        assertThat(o.task().prompt()).isEqualTo("Fix it");
        assertThat(parsed.workingDirectory()).isEqualTo("/repo");
        assertThat(parsed.copilotPath()).isEqualTo("/opt/cli");
        assertThat(parsed.journal()).isEqualTo(Path.of("/tmp/j.jsonl"));
        assertThat(parsed.timeline()).isEqualTo(Path.of("/tmp/t.svg"));
        assertThat(o.plan().get(MODEL)).isEqualTo("gpt-5");
        assertThat(o.plan().get(MAX_AUTOPILOT_CONTINUES)).isEqualTo(3);
        assertThat(o.plan().get(ALLOW_ALL_TOOLS)).isTrue();
        assertThat(o.plan().list(ALLOW_TOOLS)).containsExactly("shell(npm test)");
        assertThat(o.plan().list(DENY_TOOLS)).containsExactly("shell(rm)");
        assertThat(o.plan().list(ADD_DIRS)).containsExactly(data.toString());
        assertThat(o.plan().list(SECRET_ENV_VARS)).containsExactly("NPM_TOKEN");
        assertThat(o.plan().limit(TIMEOUT)).isEqualTo(Duration.ofMinutes(90));
        assertThat(o.plan().limit(INACTIVITY_TIMEOUT)).isEqualTo(Duration.ofSeconds(90));
        assertThat(o.task().githubToken()).isEqualTo("github_pat_env123");
        assertThat(o.plan().get(PROVIDER_BASE_URL)).isNull();
        assertThat(parsed.help()).isFalse();
        assertThat(parsed.version()).isFalse();
    }

    @Test
    void everyValueOptionTakesItsValueAfterASpaceOrAnEqualsSign() throws Exception {
        String[][] forms = {
            {"--prompt", "a=b c"}, {"--prompt=a=b c"}, {"-p", "a=b c"}, {"-p=a=b c"},
        };
        for (String[] form : forms) {
            assertThat(options(form).task().prompt()).as(String.join(" ", form)).isEqualTo("a=b c");
        }
        assertThat(parse(Map.of(), "-p", "x", "--dir=/w").workingDirectory()).isEqualTo("/w");
        assertThat(parse(Map.of(), "-p", "x", "-C", "/w").workingDirectory()).isEqualTo("/w");
        assertThat(parse(Map.of(), "-p", "x", "--copilot=/c").copilotPath()).isEqualTo("/c");
        assertThat(options("-p", "x", "--model=gpt").plan().get(MODEL)).isEqualTo("gpt");
        assertThat(options("-p", "x", "--max-autopilot-continues=0").plan().get(MAX_AUTOPILOT_CONTINUES)).isZero();
        assertThat(options("-p", "x", "--timeout=0").plan().limit(TIMEOUT)).isNull();
        assertThat(options("-p", "x", "--inactivity-timeout=2m").plan().limit(INACTIVITY_TIMEOUT)).isEqualTo(Duration.ofMinutes(2));
        assertThat(options("-p", "x", "--allow-tool=write").plan().list(ALLOW_TOOLS)).containsExactly("write");
        assertThat(options("-p", "x", "--secret-env-var=K").plan().list(SECRET_ENV_VARS)).containsExactly("K");
        assertThat(parse(Map.of(), "-p", "x", "--journal=j.jsonl").journal()).isEqualTo(Path.of("j.jsonl"));
        RunnerArguments.Parsed provider = parse(Map.of(), "-p", "x", "--provider-base-url=http://127.0.0.1:1/v1", "--model", "m",
                "--provider-type=azure", "--provider-wire-api=responses");
        assertThat(provider.plan().get(PROVIDER_BASE_URL)).isEqualTo("http://127.0.0.1:1/v1");
        assertThat(provider.plan().get(PROVIDER_TYPE)).isEqualTo("azure");
        assertThat(provider.plan().get(PROVIDER_WIRE_API)).isEqualTo("responses");
        assertThatThrownBy(() -> options("-p", "x", "--model=")).as("an empty value is refused, not taken as no value")
                .hasMessageStartingWith("--model was given an empty value");
    }

    @Test
    void changesAreRecordedUnlessTurnedOffAndThePatchNeedsThem() throws Exception {
        assertThat(options("-p", "x").plan().get(RECORD_CHANGES)).isTrue();
        assertThat(options("-p", "x", "--record-changes=false").plan().get(RECORD_CHANGES)).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--record-changes=false", "--changes", "c.patch"))
                .hasMessage("--changes needs what the agent changed to be recorded: leave out --record-changes=false");
    }

    @Test
    void urlRules() throws Exception {
        RunnerArguments.Parsed options = options("-p", "x", "--allow-url", "https://registry.example.com", "--deny-url=evil.example",
                "--deny-url", "http://127.0.0.1:9");
        assertThat(options.plan().list(ALLOW_URLS)).containsExactly("https://registry.example.com");
        assertThat(options.plan().list(DENY_URLS)).containsExactly("evil.example", "http://127.0.0.1:9");
        assertThat(options.plan().get(SANDBOX)).isFalse();
        // whether the machine can run the sandbox is the launch script's to find out, where the CLI runs (SandboxTest)
        assertThat(options("-p", "x", "--sandbox").plan().get(SANDBOX)).isTrue();
    }

    @Test
    void mcpConfigTakesItsSecretsFromTheEnvironment(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path config = java.nio.file.Files.writeString(tmp.resolve("mcp.json"),
                "{\"tickets\": {\"command\": \"node\", \"env\": {\"TOKEN\": \"${env:TICKETS_TOKEN}\"}}}");
        RunnerArguments.Parsed options = parse(Map.of("TICKETS_TOKEN", "tkt_secret"), "-p", "x", "--mcp-config", config.toString());
        assertThat(options.task().mcpServers().servers()).containsExactly("tickets");
        assertThat(options.task().mcpServers().json()).contains("\"TOKEN\":\"tkt_secret\"");
        assertThat(options.task().secretValues()).contains("tkt_secret");
        assertThat(options.task().toString()).doesNotContain("tkt_secret");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--mcp-config", config.toString()))
                .isInstanceOf(RunnerArguments.UsageException.class)
                .hasMessage("--mcp-config " + config + " refers to env:TICKETS_TOKEN, which has no value here"
                        + " (a credential this build may not use, or a variable it does not set).");
    }

    @Test
    void booleanOptionsHonourAnExplicitValue() throws Exception {
        assertThat(options("-p", "x", "--allow-all-tools").plan().get(ALLOW_ALL_TOOLS)).isTrue();
        assertThat(options("-p", "x", "--allow-all-tools=true").plan().get(ALLOW_ALL_TOOLS)).isTrue();
        assertThat(options("-p", "x", "--allow-all-tools=TRUE").plan().get(ALLOW_ALL_TOOLS)).isTrue();
        assertThat(options("-p", "x", "--allow-all-tools=false").plan().get(ALLOW_ALL_TOOLS)).isFalse();
        assertThat(parse(PROVIDER, "-p", "x", "--offline").plan().get(OFFLINE)).isTrue();
        assertThat(parse(PROVIDER, "-p", "x", "--offline=true").plan().get(OFFLINE)).isTrue();
        assertThat(parse(PROVIDER, "-p", "x", "--offline=false").plan().get(OFFLINE)).isFalse();
        Map<String, String> offlineEnv = new java.util.HashMap<>(PROVIDER);
        offlineEnv.put("COPILOT_OFFLINE", "true");
        assertThat(parse(offlineEnv, "-p", "x", "--offline=false").plan().get(OFFLINE))
                .as("the option wins over COPILOT_OFFLINE").isFalse();
        assertThat(options("-p", "x", "--offline=false").plan().get(PROVIDER_BASE_URL)).as("offline=false needs no provider").isNull();
        assertThatThrownBy(() -> options("-p", "x", "--allow-all-tools=yes"))
                .hasMessage("--allow-all-tools takes no value, or =true or =false; got 'yes'");
        assertThatThrownBy(() -> options("-p", "x", "--offline="))
                .hasMessage("--offline takes no value, or =true or =false; got ''");
    }

    @Test
    void aBooleanOptionDoesNotSwallowTheNextArgument() throws Exception {
        RunnerArguments.Parsed o = options("--allow-all-tools", "-p", "x");
        assertThat(o.plan().get(ALLOW_ALL_TOOLS)).isTrue();
        assertThat(o.task().prompt()).isEqualTo("x");
    }

    @Test
    void defaultsAndEnvironment() throws Exception {
        RunnerArguments.Parsed parsed = parse(Map.of("COPILOT_CLI", "/env/cli", "COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:9/v1",
                "COPILOT_PROVIDER_API_KEY", "sk-env", "COPILOT_MODEL", "local", "COPILOT_OFFLINE", "true"), "--prompt", "t");
        assertThat(parsed.copilotPath()).isEqualTo("/env/cli");
        assertThat(parsed.plan().limit(TIMEOUT)).isEqualTo(Duration.ofMinutes(60));
        assertThat(parsed.plan().limit(INACTIVITY_TIMEOUT)).isEqualTo(Duration.ofMinutes(10));
        assertThat(parsed.task().providerApiKey()).isEqualTo("sk-env");
        assertThat(parsed.plan().get(OFFLINE)).isTrue();
        assertThat(parsed.plan().get(MODEL)).isEqualTo("local");
        assertThat(parse(Map.of("COPILOT_CLI", "/env/cli"), "-p", "t", "--copilot", "/opt/cli").copilotPath()).isEqualTo("/opt/cli");
    }

    @Test
    void durations() throws Exception {
        assertThat(RunnerArguments.duration("--timeout", "45")).isEqualTo(Duration.ofMinutes(45));
        assertThat(RunnerArguments.duration("--timeout", "2h")).isEqualTo(Duration.ofHours(2));
        assertThat(RunnerArguments.duration("--timeout", "0")).isNull();
        assertThatThrownBy(() -> RunnerArguments.duration("--timeout", "soon"))
                .hasMessage("--timeout needs a duration like 90s, 30m or 1h30m, got 'soon'");
    }

    @Test
    void zeroToolAndStartupTimeoutsMeanNoLimit() throws Exception {
        RunnerArguments.Parsed none = options("-p", "x", "--tool-timeout", "0", "--startup-timeout", "0s");
        assertThat(none.plan().limit(TOOL_TIMEOUT)).as("no limit on a tool call").isNull();
        assertThat(none.plan().limit(STARTUP_TIMEOUT)).as("no limit on the start").isNull();
        RunnerArguments.Parsed some = options("-p", "x", "--tool-timeout", "90s", "--startup-timeout", "2");
        assertThat(some.plan().limit(TOOL_TIMEOUT)).isEqualTo(Duration.ofSeconds(90));
        assertThat(some.plan().limit(STARTUP_TIMEOUT)).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void maxVerifyRoundsNeedsAVerifyCommand() throws Exception {
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--max-verify-rounds", "3"))
                .hasMessage("--max-verify-rounds needs --verify CMD");
        RunnerArguments.Parsed verified = options("-p", "x", "--verify", "make test", "--max-verify-rounds", "3");
        assertThat(verified.plan().get(VERIFY)).isEqualTo("make test");
        assertThat(verified.plan().get(MAX_VERIFY_ROUNDS)).isEqualTo(3);
    }

    @Test
    void promptFromFileOrStdin() throws Exception {
        Path file = Files.writeString(dir.resolve("task.md"), "Line 1\nLine 2 with \"quotes\" and $(x) ünïcode\n");
        assertThat(options("--prompt-file", file.toString()).task().prompt())
                .isEqualTo("Line 1\nLine 2 with \"quotes\" and $(x) ünïcode\n");
        assertThat(RunnerArguments.parse(new String[] {"--prompt-file", "-"}, Map.of("COPILOT_GITHUB_TOKEN", "github_pat_options"),
                new ByteArrayInputStream("from stdin".getBytes(StandardCharsets.UTF_8))).task().prompt()).isEqualTo("from stdin");
    }

    @Test
    void aPromptFileThatCannotBeUsedSaysWhatIsWrongWithIt() throws Exception {
        Path latin1 = Files.write(dir.resolve("latin1.txt"), "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> options("--prompt-file", latin1.toString()))
                .hasMessage("the prompt file " + latin1 + " is not UTF-8 text (--prompt-file); save it as UTF-8");
        assertThatThrownBy(() -> RunnerArguments.parse(new String[] {"--prompt-file", "-"}, Map.of("COPILOT_GITHUB_TOKEN", "github_pat_options"),
                new ByteArrayInputStream(new byte[] {'a', (byte) 0xff})))
                .hasMessage("standard input is not UTF-8 text (--prompt-file -)");
        Path missing = dir.resolve("missing.txt");
        assertThatThrownBy(() -> options("--prompt-file", missing.toString()))
                .hasMessage("there is no prompt file " + missing + " (--prompt-file)");
        assertThatThrownBy(() -> options("--prompt-file", dir.toString()))
                .hasMessage("the prompt file " + dir + " is a directory (--prompt-file)");
        Path secret = Files.writeString(dir.resolve("secret.txt"), "task");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("---------"));
        if (!Files.isReadable(secret)) { // root can read anything
            assertThatThrownBy(() -> options("--prompt-file", secret.toString()))
                    .hasMessage("cannot read the prompt file " + secret + ": permission denied (--prompt-file)");
        }
    }

    @Test
    void anAddDirThatIsNoDirectoryIsRefused() throws Exception {
        Path missing = dir.resolve("nope");
        assertThatThrownBy(() -> options("-p", "x", "--add-dir", missing.toString()))
                .hasMessage("--add-dir " + missing + ": no such directory");
        Path file = Files.writeString(dir.resolve("file.txt"), "x");
        assertThatThrownBy(() -> options("-p", "x", "--add-dir", file.toString()))
                .hasMessage("--add-dir " + file + ": not a directory");
        Files.createDirectories(dir.resolve("repo/libs"));
        assertThat(parse(Map.of(), "-p", "x", "-C", dir.resolve("repo").toString(), "--add-dir", "libs").plan().list(ADD_DIRS))
                .as("relative to --dir, where the CLI runs").containsExactly("libs");
    }

    @Test
    void unknownOptionsAreNamedOnce() {
        assertThatThrownBy(() -> options("-p", "x", "--frobnicate")).hasMessage("unknown option --frobnicate");
        assertThatThrownBy(() -> options("-p", "x", "--frobnicate", "foo")).hasMessage("unknown option --frobnicate");
        assertThatThrownBy(() -> options("-p", "x", "--frobnicate=foo")).hasMessage("unknown option --frobnicate");
        assertThatThrownBy(() -> options("-p", "x", "-z")).hasMessage("unknown option -z");
        assertThatThrownBy(() -> options("-p", "x", "--Prompt", "y")).hasMessage("unknown option --Prompt");
    }

    @Test
    void aMissingValueAtTheEndIsNamed() {
        for (String option : new String[] {"--prompt", "-p", "--prompt-file", "-C", "--dir", "--copilot", "--model",
            "--max-autopilot-continues", "--allow-tool", "--deny-tool", "--add-dir", "--timeout", "--inactivity-timeout",
            "--journal", "--timeline", "--provider-base-url", "--provider-type", "--provider-wire-api", "--secret-env-var"}) {
            assertThatThrownBy(() -> options("-p", "x", option).task().prompt()).as(option).hasMessage(option + " needs a value");
        }
    }

    @Test
    void aSchemaThatRefersToAnotherDocumentIsRefusedBeforeTheCliStarts() throws Exception {
        Path schema = dir.resolve("schema.json");
        Files.writeString(schema, "{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"file:///etc/passwd\"}}}");
        assertThatThrownBy(() -> options("-p", "x", "--output-schema", schema.toString()))
                .hasMessage("--output-schema " + schema + " refers to another document ('file:///etc/passwd' at"
                        + " /properties/a/$ref): nothing is fetched, so a $ref may only point inside the schema; put what it"
                        + " refers to under $defs and refer to it as '#/$defs/NAME'.");
    }

    @Test
    void anEmptyValueIsRefusedNotTakenAsNotGiven() {
        // `--verify="$CHECK"` with CHECK unset: a session without its check would end COMPLETED
        for (String option : new String[] {"--verify", "--model", "--deny-tool", "--allow-tool", "--approve-tool", "--deny-url",
            "--allow-url", "--secret-env-var", "--tool-secret", "--timeout", "--mcp-config", "--output-schema", "--dir", "-C",
            "--copilot", "--journal", "--changes", "--session", "--max-tokens", "--provider-base-url", "--prompt-file"}) {
            for (String[] args : new String[][] {{option + "="}, {option, ""}, {option + "=  "}}) {
                String[] all = new String[args.length + 2];
                all[0] = option.equals("--prompt-file") ? "--max-tokens" : "-p";
                all[1] = option.equals("--prompt-file") ? "9" : "x";
                System.arraycopy(args, 0, all, 2, args.length);
                assertThatThrownBy(() -> options(all)).as(String.join(" ", all))
                        .isInstanceOf(RunnerArguments.UsageException.class)
                        .hasMessage(option + " was given an empty value (an unset variable?): give it a value, or leave the option out");
            }
        }
    }

    @Test
    void repeatableOptionsAddUpAndOthersMayBeGivenOnce() throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        RunnerArguments.Parsed o = options("-p", "x", "--allow-tool", "write", "--allow-tool=shell(ls)", "--deny-tool", "a",
                "--deny-tool", "b", "--add-dir", a.toString(), "--add-dir=" + b, "--secret-env-var", "A", "--secret-env-var", "B");
        assertThat(o.plan().list(ALLOW_TOOLS)).containsExactly("write", "shell(ls)");
        assertThat(o.plan().list(DENY_TOOLS)).containsExactly("a", "b");
        assertThat(o.plan().list(ADD_DIRS)).containsExactly(a.toString(), b.toString());
        assertThat(o.plan().list(SECRET_ENV_VARS)).containsExactly("A", "B");
        assertThatThrownBy(() -> options("-p", "x", "--model", "a", "--model=b")).hasMessage("--model is given twice; give it once");
        assertThatThrownBy(() -> options("-p", "x", "--prompt", "y")).hasMessage("--prompt is given twice; give it once");
        assertThatThrownBy(() -> options("-p", "x", "--allow-all-tools", "--allow-all-tools=false"))
                .hasMessage("--allow-all-tools is given twice; give it once");
        assertThatThrownBy(() -> options("-p", "x", "-C", "/a", "--dir", "/b")).hasMessage("--dir is given twice; give it once");
    }

    @Test
    void badCommandLinesSayWhy() {
        assertThatThrownBy(() -> parse(Map.of())).hasMessage("no task: give --prompt TEXT or --prompt-file FILE");
        assertThatThrownBy(() -> parse(Map.of(), "--prompt")).hasMessage("--prompt needs a value");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "stray")).hasMessage("unexpected argument 'stray' (put the task in --prompt)");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--max-autopilot-continues", "many"))
                .hasMessage("--max-autopilot-continues needs a whole number, got 'many'");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--offline"))
                .hasMessageStartingWith("--offline needs an own model provider");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--prompt-file", "y")).hasMessage("give either --prompt or --prompt-file, not both");
    }

    @Test
    void invalidOptionsAreNamedAsTheUserTypedThem() {
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--max-autopilot-continues", "-3"))
                .hasMessage("--max-autopilot-continues must be 0 or more, was -3.");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--deny-url", "a b", "--secret-env-var", "NO-NAME"))
                .hasMessageStartingWith("--deny-url: ").hasMessageContaining("'a b'")
                .hasMessageEndingWith(" --secret-env-var: 'NO-NAME' is not an environment variable name.");
        assertThatThrownBy(() -> parse(Map.of(), "-p", "x", "--provider-base-url", "ftp://h", "--provider-type", "gemini"))
                .hasMessage("--provider-base-url must be an http:// or https:// URL, was 'ftp://h'."
                        + " --provider-type must be one of openai, azure, anthropic; was 'gemini'."
                        + " An own model provider (--provider-base-url) needs a model: set --model to the provider's model name.");
    }

    @Test
    void helpAndVersion() throws Exception {
        assertThat(parse(Map.of(), "--help").help()).isTrue();
        assertThat(parse(Map.of(), "-h").help()).isTrue();
        assertThat(parse(Map.of(), "-p", "x", "--help").help()).isTrue();
        RunnerArguments.Parsed version = parse(Map.of("COPILOT_CLI", "/env/cli"), "--version");
        assertThat(version.version()).isTrue();
        assertThat(version.copilotPath()).isEqualTo("/env/cli");
        assertThat(parse(Map.of(), "--copilot", "/opt/cli", "--version").copilotPath()).isEqualTo("/opt/cli");
        assertThat(RunnerHelp.text()).contains("--version");
    }
}
