package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;
import io.jenkins.plugins.copilotautopilot.tools.CopilotCliInstallation;

import hudson.model.Label;
import hudson.model.Result;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jenkinsci.plugins.workflow.actions.WarningAction;
import org.jenkinsci.plugins.workflow.cps.SnippetizerTester;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.graphanalysis.DepthFirstScanner;
import org.jenkinsci.plugins.workflow.graphanalysis.NodeStepTypePredicate;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.jenkinsci.plugins.workflow.steps.StepConfigTester;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.BuildWatcherExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Pipeline step {@code copilotAutopilot}, with a fake CLI replaying real captured sessions. */
@WithJenkins
class CopilotAutopilotStepTest {
    @RegisterExtension
    private static final BuildWatcherExtension BUILD_WATCHER = new BuildWatcherExtension();

    static final String TOKEN = TestCredentials.TOKEN;

    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
    }

    private WorkflowJob pipeline(String script) throws Exception {
        return TestPipelines.create(j, script);
    }

    private WorkflowRun build(Result expected, WorkflowJob p) throws Exception {
        return j.assertBuildStatus(expected, p.scheduleBuild2(0));
    }

    private static String step(Path cli, String more) {
        return "copilotAutopilot prompt: 'Create hello.txt', credentialsId: 'copilot-token', copilotPath: '" + cli + "'" + more;
    }

    @Test
    void completedTaskSucceedsAndReturnsAMap() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").write();
        WorkflowJob p = pipeline("node {\n"
                + "  def r = " + step(cli, "") + "\n"
                + "  echo \"outcome=${r.outcome} completed=${r.completed} turns=${r['turns']} tools=${r.toolCalls}"
                + " session=${r.sessionId} exit=${r.exitCode} premium=${r.premiumRequests}\"\n"
                + "  echo \"summary=${r.summary}\"\n"
                + "}");
        WorkflowRun b = j.buildAndAssertSuccess(p);

        j.assertLogContains("[copilot] Turn 1", b);
        j.assertLogContains("[copilot]   > bash: echo hello-from-fake-model > hello.txt && cat hello.txt", b);
        j.assertLogContains("[copilot] COMPLETED: The agent called task_complete after 2 turns.", b);
        j.assertLogContains("outcome=COMPLETED completed=true turns=2 tools=2 session=b47bbc09-5752-47c6-9720-d76beed46fe1"
                + " exit=0 premium=0.0", b);
        j.assertLogContains("summary=Created hello.txt containing 'hello-from-fake-model'.", b);
        j.assertLogNotContains("$ " + cli, b); // the command line is not echoed

        CopilotAutopilotRunAction action = b.getAction(CopilotAutopilotRunAction.class);
        assertEquals(1, action.getSessions().size());
        SessionRecord session = action.getSessions().get(0);
        assertEquals("COMPLETED", session.getEnding().getOutcome());
        assertEquals(2, session.getActivity().getTurns());
        File journal = new File(new File(b.getRootDir(), SessionFiles.FOLDER), session.getJournalFile());
        assertTrue(journal.getName().endsWith(".jsonl.gz"), "a finished journal is kept compressed");
        List<String> lines = journalText(journal).lines().toList();
        assertTrue(lines.size() > 50, "every event is journaled");
        assertThat(lines.get(0), containsString("\"type\":\"autopilot.run_started\""));
    }

    @Test
    void incompleteTaskFailsTheBuildByDefault() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-never-max2").write();
        WorkflowRun b = build(Result.FAILURE, pipeline("node { " + step(cli, "") + " }"));

        j.assertLogContains("Copilot autopilot INCOMPLETE: The agent stopped without calling task_complete after 2 autopilot"
                + " continuations", b);
        j.assertLogNotContains("\tat io.jenkins", b); // a polite error, no stack trace
    }

    @Test
    void incompleteTaskCanMakeTheBuildUnstable() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-never-max2").write();
        WorkflowRun b = build(Result.UNSTABLE,
                pipeline("node { def r = " + step(cli, ", resultWhenIncomplete: 'UNSTABLE'") + "\n echo \"got ${r.outcome}\" }"));

        j.assertLogContains("got INCOMPLETE", b);
        FlowNode node = new DepthFirstScanner().findFirstMatch(b.getExecution(), new NodeStepTypePredicate("copilotAutopilot"));
        WarningAction warning = node.getAction(WarningAction.class);
        assertEquals(Result.UNSTABLE, warning.getResult());
        assertThat(warning.getMessage(), containsString("without calling task_complete"));
    }

    @Test
    void aBlockedAgentGivesTheBuildResultChosenForItAndNamesTheBlocker() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy")
                .blockedBy("{\"kind\":\"missing_access\",\"description\":\"No write access to <b>the registry</b>.\"}").write();
        WorkflowRun b = build(Result.UNSTABLE, pipeline("node { def r = " + step(cli, ", resultWhenIncomplete: 'FAILURE',"
                + " resultWhenBlocked: 'UNSTABLE'") + "\n echo \"got ${r.outcome} blocker=${r.blocker}\" }"));

        j.assertLogContains("[copilot]   Task blocked: missing_access: No write access to <b>the registry</b>.", b);
        j.assertLogContains("[copilot] BLOCKED: The agent called task_complete saying it is blocked after 2 turns.", b);
        j.assertLogContains("got BLOCKED blocker=missing_access: No write access to <b>the registry</b>.", b);
        SessionRecord session = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0);
        assertEquals("BLOCKED", session.getEnding().getOutcome());
        assertEquals("missing_access: No write access to <b>the registry</b>.", session.getEnding().getBlocker());

        WorkflowRun byDefault = build(Result.FAILURE, pipeline("node { " + step(cli, "") + " }"));
        j.assertLogContains("Copilot autopilot BLOCKED: The agent called task_complete saying it is blocked", byDefault);
    }

    @Test
    void theLabelNamesTheStepInPipelineViewsAsShsDoes() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").write();
        WorkflowRun b = j.buildAndAssertSuccess(pipeline("node { " + step(cli, ", label: 'Fix the failing tests'") + "\n"
                + step(cli, ", label: '" + "x".repeat(150) + "'") + "\n" + step(cli, "") + " }"));

        List<FlowNode> nodes = new DepthFirstScanner().filteredNodes(b.getExecution(), new NodeStepTypePredicate("copilotAutopilot"));
        assertEquals(3, nodes.size());
        List<String> names = nodes.stream().map(FlowNode::getDisplayName).sorted().toList();
        assertThat(names, contains("Fix the failing tests", "Run a GitHub Copilot CLI autopilot task", "x".repeat(100)));
        assertEquals("Fix the failing tests", nodes.stream().map(n -> n.getAction(org.jenkinsci.plugins.workflow.actions.LabelAction.class))
                .filter(java.util.Objects::nonNull).map(org.jenkinsci.plugins.workflow.actions.LabelAction::getDisplayName)
                .filter(n -> n.startsWith("Fix")).findFirst().orElseThrow());
    }

    @Test
    void aModelErrorFailsWithTheReason() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-error400").write();
        WorkflowRun b = build(Result.FAILURE, pipeline("node { " + step(cli, "") + " }"));

        j.assertLogContains("Copilot autopilot FAILED: The session failed with a model error (HTTP 400): 400 fake server: bad request (scripted)", b);
    }

    @Test
    void theTokenIsMaskedEverywhere() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").sayingFirst("my token is $COPILOT_GITHUB_TOKEN").write();
        WorkflowRun b = j.buildAndAssertSuccess(pipeline("node { def r = " + step(cli, "") + "\n echo \"map=${r}\" }"));

        j.assertLogContains("[copilot]   my token is ****", b);
        j.assertLogNotContains(TOKEN, b);
        File folder = new File(b.getRootDir(), SessionFiles.FOLDER);
        for (File file : folder.listFiles()) {
            if (file.getName().endsWith(".report")) {
                // the session page's report, kept beside the journal
                assertThat(Files.readString(file.toPath(), StandardCharsets.ISO_8859_1), not(containsString(TOKEN)));
                continue;
            }
            String text = journalText(file);
            assertThat(text, not(containsString(TOKEN)));
            assertThat(text, containsString("my token is ****"));
        }
        assertThat(Files.readString(new File(b.getRootDir(), "build.xml").toPath()), not(containsString(TOKEN)));
        assertThat(Files.readString(FakeCopilot.in(tmp).argsFile()), not(containsString(TOKEN)));
    }

    @Test
    void thePromptReachesTheCliByteForByte() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy");
        Path cli = fake.write();
        String prompt = "Fix it: costs $HOME, ${PATH} and $$ \"quoted\" `tick` $(date)";
        WorkflowRun b = j.buildAndAssertSuccess(pipeline("node { copilotAutopilot prompt: '''" + prompt
                + "''', credentialsId: 'copilot-token', copilotPath: '" + cli + "' }"));

        // the task is the CLI's standard input, never an argument
        assertEquals(prompt, Files.readString(fake.stdinFile(), StandardCharsets.UTF_8));
        assertThat(Files.readAllLines(fake.argsFile()), hasItems("--autopilot", "--no-ask-user",
                "--secret-env-vars=COPILOT_GITHUB_TOKEN"));
        assertThat(Files.readString(fake.argsFile()), not(containsString("tick")));
        j.assertLogContains("COMPLETED", b);
    }

    @Test
    void abortStopsTheCliAndEverythingItStarted() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("987.5").write();
        WorkflowJob p = pipeline("node { " + step(cli, "") + " }");
        WorkflowRun b = p.scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", b);
        waitForProcess("987.5", true);

        b.doStop();
        j.waitForCompletion(b);

        j.assertBuildStatus(Result.ABORTED, b);
        waitForProcess("987.5", false);
    }

    @Test
    void theTimeoutStepStopsTheCli() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("986.5").write();
        WorkflowRun b = build(Result.ABORTED,
                pipeline("node { timeout(time: 5, unit: 'SECONDS') { " + step(cli, "") + " } }"));

        j.assertLogContains("Timeout has been exceeded", b);
        waitForProcess("986.5", false);
    }

    @Test
    void runsOnAnAgent() throws Exception {
        hudson.slaves.DumbSlave agent = j.createOnlineSlave(Label.get("remote"));
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy");
        Path cli = fake.write();
        WorkflowJob p = pipeline("node('remote') { " + step(cli, "") + " }");
        WorkflowRun b = j.buildAndAssertSuccess(p);

        j.assertLogContains("[copilot] COMPLETED", b);
        String pwd = Files.readString(tmp.resolve("pwd.txt")).trim();
        assertEquals(agent.getWorkspaceFor(p).getRemote(), pwd, "the CLI ran in the agent's workspace");
    }

    @Test
    void aMissingCliFailsWithWhatToSet() throws Exception {
        WorkflowRun b = build(Result.FAILURE,
                pipeline("node { copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', copilotPath: '" + tmp.resolve("none") + "' }"));
        j.assertLogContains("No Copilot CLI at '" + tmp.resolve("none") + "'", b);
        j.assertLogContains("Set copilotPath (or installation) to the Copilot CLI executable", b);
    }

    @Test
    void missingCredentialsFailWithWhatToSet() throws Exception {
        Path cli = FakeCopilot.in(tmp).write();
        WorkflowRun b = build(Result.FAILURE, pipeline("node { copilotAutopilot prompt: 'x', copilotPath: '" + cli + "' }"));
        j.assertLogContains("no credentials for the Copilot CLI. Set credentialsId", b);

        WorkflowRun unknown = build(Result.FAILURE,
                pipeline("node { copilotAutopilot prompt: 'x', credentialsId: 'nope', copilotPath: '" + cli + "' }"));
        j.assertLogContains("credentialsId: no Secret text credential with ID 'nope' that this build may use.", unknown);
    }

    @Test
    void aTokenCopilotRefusesFailsBeforeTheCliStartsNamingWhereItCameFrom() throws Exception {
        Path ran = tmp.resolve("cli-ran");
        Path cli = tmp.resolve("copilot");
        java.nio.file.Files.writeString(cli, "#!/bin/sh\ntouch '" + ran + "'\n");
        cli.toFile().setExecutable(true);
        TestCredentials.addSecretText(j, "classic", "ghp_classicToken0123456789");
        WorkflowRun classic = build(Result.FAILURE, pipeline("node { copilotAutopilot prompt: 'x', credentialsId: 'classic', copilotPath: '" + cli + "' }"));
        j.assertLogContains("copilotAutopilot: The GitHub token in credential 'classic' is a classic personal access token (ghp_...),"
                + " which Copilot does not accept: use a fine-grained personal access token (github_pat_...) with the"
                + " \"Copilot Requests\" permission.", classic);
        WorkflowRun app = build(Result.FAILURE, pipeline("node { withEnv(['GITHUB_TOKEN=ghs_installation0123456789']) {"
                + " copilotAutopilot prompt: 'x', copilotPath: '" + cli + "' } }"));
        j.assertLogContains("copilotAutopilot: The GitHub token in $GITHUB_TOKEN is a GitHub App installation token (ghs_...)", app);
        j.assertLogNotContains("ghs_installation0123456789", app);
        assertFalse(java.nio.file.Files.exists(ran), "nothing started on the agent");
    }

    @Test
    void invalidOptionsFailBeforeTheCliStarts() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp);
        Path cli = fake.write();
        WorkflowRun b = build(Result.FAILURE, pipeline("node { " + step(cli, ", maxAutopilotContinues: -1, workingDirectory: '../elsewhere'") + " }"));
        j.assertLogContains("maxAutopilotContinues must be 0 or more, was -1.", b);
        assertTrue(Files.notExists(fake.argsFile()), "the CLI was not started");
    }

    @Test
    void configRoundTrip() throws Exception {
        CopilotAutopilotStep step = new CopilotAutopilotStep("Fix the tests");
        step.setModel("gpt-5");
        step.setCredentialsId("copilot-token");
        step.setMaxAutopilotContinues(3);
        step.setAllowAllTools(true);
        step.setAllowTools(List.of("shell(npm test)", "write"));
        step.setDenyTools(List.of("shell(git push)"));
        step.setAddDirs(List.of("/cache"));
        step.setSecretEnvVars(List.of("NPM_TOKEN"));
        step.setWorkingDirectory("app");
        step.setTimeout(30);
        step.setInactivityTimeout(5);
        step.setResultWhenIncomplete("UNSTABLE");
        step.setResultWhenBlocked("SUCCESS");
        step.setLabel("Fix the tests");
        step.setPromptFile(".ci/task.md");
        step.setIncludeBuildLog(200);
        step.setChangesFile("copilot.patch");
        step.setRecordChanges(true);
        step.setSkipPublishingChecks(false);
        step.setChecksName("Copilot: fix");
        step.setToolTimeout(5);
        step.setStartupTimeout(2);
        step.setToolSecrets(List.of("NPM_TOKEN"));
        step.setAllowAllPaths(true);
        step.setAllowUrls(List.of("https://registry.example.com", "example.org"));
        step.setDenyUrls(List.of("http://169.254.169.254"));
        step.setSandbox(true);
        step.setVerify("mvn -q test");
        step.setSession("pr-42");
        step.setMcpServers("{\"tickets\": {\"command\": \"node\", \"env\": {\"T\": \"${credentials:t}\"}}}");
        step.setMaxVerifyRounds(3);
        step.setCopilotPath("/opt/copilot");
        j.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class)
                .setInstallations(new CopilotCliInstallation("copilot-test", "/opt/copilot-cli", List.of()));
        step.setInstallation("copilot-test");
        step.setProviderBaseUrl("http://127.0.0.1:11434/v1");
        step.setProviderType("openai");
        step.setProviderWireApi("completions");
        step.setProviderCredentialsId("copilot-token");
        step.setOffline(true);

        CopilotAutopilotStep after = new StepConfigTester(j).configRoundTrip(step);

        j.assertEqualDataBoundBeans(step, after);
        assertThat(after.getAllowTools(), contains("shell(npm test)", "write"));
    }

    @Test
    void snippetUsesListsForListSettings() throws Exception {
        CopilotAutopilotStep step = new CopilotAutopilotStep("Fix it");
        step.setAllowTools(List.of("write", "shell(npm test)"));
        new SnippetizerTester(j).assertRoundTrip(step, "copilotAutopilot allowTools: ['write', 'shell(npm test)'], prompt: 'Fix it'");
        step.setDenyUrls(List.of("http://169.254.169.254"));
        step.setSandbox(true);
        new SnippetizerTester(j).assertRoundTrip(step, "copilotAutopilot allowTools: ['write', 'shell(npm test)'],"
                + " denyUrls: ['http://169.254.169.254'], prompt: 'Fix it', sandbox: true");
    }

    @Test
    void allowAllToolsIsTrueFalseOrTheDefault() throws Exception {
        CopilotAutopilotStep step = new CopilotAutopilotStep("Fix it");
        SnippetizerTester snippets = new SnippetizerTester(j);
        snippets.assertRoundTrip(step, "copilotAutopilot 'Fix it'");
        step.setAllowAllTools(false);
        snippets.assertRoundTrip(step, "copilotAutopilot allowAllTools: false, prompt: 'Fix it'");

        CopilotAutopilotStep unticked = new StepConfigTester(j).configRoundTrip(new CopilotAutopilotStep("Fix it"));
        assertEquals(null, unticked.getAllowAllTools(), "an unticked box leaves the global default in charge");
        CopilotAutopilotStep ticked = new CopilotAutopilotStep("Fix it");
        ticked.setAllowAllTools(true);
        assertEquals(Boolean.TRUE, new StepConfigTester(j).configRoundTrip(ticked).getAllowAllTools());
    }

    /** A journal's lines, compressed or not. */
    static String journalText(File journal) throws java.io.IOException {
        try (java.io.InputStream in = io.jenkins.plugins.copilotautopilot.core.journal.JournalFiles.open(journal.toPath())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Waits until a process whose command line contains {@code marker} is (or is no longer) running. */
    private static void waitForProcess(String marker, boolean running) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            boolean found = ProcessHandle.allProcesses()
                    .anyMatch(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false));
            if (found == running) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("process with '" + marker + "' " + (running ? "never started" : "still running"));
    }
}
