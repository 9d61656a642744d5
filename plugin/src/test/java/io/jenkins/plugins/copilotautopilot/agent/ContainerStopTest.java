package io.jenkins.plugins.copilotautopilot.agent;

import io.jenkins.plugins.copilotautopilot.testing.ContainerLaunchers;
import io.jenkins.plugins.copilotautopilot.testing.DecoratedBlock;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.LiveApprovals;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.Result;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.BuildWatcherExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;
import org.kohsuke.stapler.DataBoundConstructor;

import static io.jenkins.plugins.copilotautopilot.testing.SessionFolders.assertNoSessionFolderLeft;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Stopping a session inside a container, where only the container launcher's own kill and the launch script's
 * watchdog can reach the CLI: kubernetes-plugin's kill (SIGTERM by cookie through {@code /proc}), docker-workflow's
 * ({@code ps e}), and docker-workflow's in an Alpine image, whose kill fails. An abort, a {@code timeout {}} and a
 * budget each leave no process of the session by the time the session's closing line is written.
 */
@WithJenkins
class ContainerStopTest {
    @RegisterExtension
    private static final BuildWatcherExtension BUILD_WATCHER = new BuildWatcherExtension();

    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
    }

    @ParameterizedTest(name = "{1} in {0}")
    @CsvSource({"kubernetes, ABORT", "kubernetes, TIMEOUT", "kubernetes, BUDGET", "docker, ABORT", "docker, TIMEOUT",
        "docker, BUDGET", "alpine, ABORT", "alpine, TIMEOUT", "alpine, BUDGET"})
    void aStopLeavesNoProcessOfTheSession(String kind, Stop stop) throws Exception {
        WorkflowRun b = stopped(kind, stop);
        if (kind.equals("alpine")) {
            j.assertLogContains("failed to run ps", b); // the container's kill failed: the watchdog stopped the CLI
        }
    }

    @Test
    void throughAContainerLauncherThatQuotesLikeKubernetesNoShellEverReadsTheTask() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy");
        Path cli = fake.write();
        Path pwned = tmp.resolve("pwned");
        String prompt = "Fix `touch " + pwned + "` and $(touch " + pwned + ") \"quoted\" 'single' $HOME $$ \\\\ back";
        WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, "node { inContainer('kubernetes') { copilotAutopilot prompt: '''"
                + prompt + "''', credentialsId: 'copilot-token', copilotPath: '" + cli + "' } }"));

        j.assertLogContains("[copilot] COMPLETED", b);
        assertThat(Files.readString(fake.stdinFile(), StandardCharsets.UTF_8), is(prompt.replace("\\\\", "\\")));
        assertThat("nothing in the task was run", Files.exists(pwned), is(false));
        // the decorated launcher started it: the node's cookie did not reach the CLI
        assertThat(Files.readAllLines(fake.envFile()).stream().filter(l -> l.startsWith("JENKINS_NODE_COOKIE=")).toList(), is(empty()));
        // which CLI ran is said by the launch script, since the controller could not look inside the container
        j.assertLogContains("[copilot] Copilot CLI (" + cli + ")", b);
        assertNoSessionFolderLeft(j, b);
    }

    @Test
    void inAContainerLauncherThatQuotesLikeKubernetesAnApprovedCallRuns() throws Exception {
        Path done = tmp.resolve("approved.txt");
        try (io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer model = io.jenkins.plugins.copilotautopilot.core.testing
                .ScriptedModelServer.start(io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts.bashThenComplete(
                        "touch " + done, "Touched it."))) {
            WorkflowRun b = TestPipelines.create(j, "node { inContainer('kubernetes') { copilotAutopilot prompt: 'Touch it.', copilotPath: '"
                    + io.jenkins.plugins.copilotautopilot.core.testing.TestCli.executable().path() + "', providerBaseUrl: '" + model.baseUrl()
                    + "', model: 'fake-model', offline: true, approveTools: ['shell(touch)'] } }").scheduleBuild2(0).waitForStart();
            io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval call = LiveApprovals.waiting(b);
            assertThat("nothing ran before the decision", Files.exists(done), is(false));
            assertThat(LiveApprovals.live(b).approvals().decide(call.id(), true, "builder", System.currentTimeMillis()), is(true));

            j.assertBuildStatusSuccess(j.waitForCompletion(b));
            j.assertLogContains("[copilot] Approved by builder at ", b);
            assertThat(Files.exists(done), is(true));
            assertNoSessionFolderLeft(j, b);
        }
    }

    @Test
    void aLaunchThatFailsLeavesNoSecretBehindAndSaysWhyInOneLine() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").write();
        WorkflowRun b = j.buildAndAssertStatus(Result.FAILURE, TestPipelines.create(j, "node { inContainer('broken') { "
                + "copilotAutopilot prompt: 'Create hello.txt', credentialsId: 'copilot-token', copilotPath: '" + cli + "' } }"));

        j.assertLogContains("container copilot is not running", b);
        j.assertLogNotContains("\tat ", b); // no stack trace
        assertNoSessionFolderLeft(j, b);
        Path workspaceTmp = Path.of(j.jenkins.getWorkspaceFor(b.getParent()).getRemote() + "@tmp");
        if (Files.isDirectory(workspaceTmp)) {
            try (var files = Files.walk(workspaceTmp)) {
                assertThat(files.filter(Files::isRegularFile).filter(f -> {
                    try {
                        return Files.readString(f, StandardCharsets.ISO_8859_1).contains(TestCredentials.TOKEN);
                    } catch (java.io.IOException e) {
                        return false;
                    }
                }).toList(), is(empty()));
            }
        }
    }

    @Test
    void aWindowsAgentIsRefusedBeforeTheCliIsLookedUpOrInstalled() throws Exception {
        WorkflowRun b = j.buildAndAssertStatus(Result.FAILURE, TestPipelines.create(j, "node { inContainer('windows') { "
                + "copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', installation: 'not-configured' } }"));

        j.assertLogContains("this agent runs Windows", b);
        j.assertLogNotContains("not-configured", b); // the installation was never looked up
    }

    enum Stop { ABORT, TIMEOUT, BUDGET }

    private WorkflowRun stopped(String kind, Stop stop) throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("994.5");
        if (stop == Stop.BUDGET) {
            fake.usingTokens(1000, 20);
        }
        Path cli = fake.write();
        String session = "copilotAutopilot prompt: 'Create hello.txt', credentialsId: 'copilot-token', copilotPath: '" + cli + "'"
                + (stop == Stop.BUDGET ? ", maxTokens: 10" : "");
        String body = "inContainer('" + kind + "') { " + session + " }";
        if (stop == Stop.TIMEOUT) {
            body = "timeout(time: 4, unit: 'SECONDS') { " + body + " }";
        }
        int killsBefore = ContainerLaunchers.KILLS.get();
        WorkflowRun b = TestPipelines.create(j, "node { " + body + " }").scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", b);
        awaitFile(fake.envFile());
        List<String> cliEnvironment = Files.readAllLines(fake.envFile(), StandardCharsets.UTF_8);
        String runId = cliEnvironment.stream().filter(l -> l.startsWith(CliCommand.RUN_MARKER_VARIABLE + "="))
                .map(l -> l.substring(l.indexOf('=') + 1)).findFirst().orElseThrow();
        // as in a pod: durable-task's cookie reaches the CLI, the node's process killer's does not
        assertThat(cliEnvironment, hasItem(startsWith("JENKINS_SERVER_COOKIE=durable-")));
        assertThat(cliEnvironment.stream().filter(l -> l.startsWith("JENKINS_NODE_COOKIE=")).toList(), is(empty()));
        assertThat(ProcessTable.survivorsOf(runId), not(empty()));

        if (stop == Stop.ABORT) {
            b.doStop();
        }
        String closing = switch (stop) {
            case ABORT, TIMEOUT -> "[copilot] ABORTED:";
            case BUDGET -> "[copilot] OVER_BUDGET:";
        };
        j.waitForMessage(closing, b);
        // the closing line is written once the CLI has ended: nothing of the session runs any more, build or not
        assertThat(ProcessTable.survivorsOf(runId), is(empty()));
        j.waitForCompletion(b);
        j.assertBuildStatus(stop == Stop.BUDGET ? Result.FAILURE : Result.ABORTED, b);
        assertThat(ProcessTable.survivorsOf(runId), is(empty()));
        assertThat("the container's kill was asked for", ContainerLaunchers.KILLS.get(), greaterThan(killsBefore));
        assertNoSessionFolderLeft(j, b);
        return b;
    }

    private static void awaitFile(Path file) throws InterruptedException {
        for (int i = 0; i < 300 && !Files.exists(file); i++) {
            Thread.sleep(100);
        }
    }

    /** {@code inContainer('kubernetes' | 'docker' | 'alpine') { … }}: its body runs with that container launcher. */
    public static final class InContainerStep extends Step {
        private final String kind;

        @DataBoundConstructor
        public InContainerStep(String kind) {
            this.kind = kind;
        }

        public String getKind() {
            return kind;
        }

        @Override
        public StepExecution start(StepContext context) {
            return new DecoratedBlock(context, ContainerLaunchers.of(kind));
        }

        @TestExtension
        public static final class DescriptorImpl extends DecoratedBlock.Descriptor {
            @Override
            public String getFunctionName() {
                return "inContainer";
            }
        }
    }
}
