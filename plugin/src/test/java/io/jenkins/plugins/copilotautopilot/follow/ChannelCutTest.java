package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.testing.CuttableRelay;
import io.jenkins.plugins.copilotautopilot.testing.InboundAgentProcess;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.Result;
import hudson.model.Run;
import hudson.slaves.DumbSlave;
import hudson.slaves.EnvironmentVariablesNodeProperty;
import hudson.slaves.JNLPLauncher;
import hudson.slaves.RetentionStrategy;
import hudson.slaves.SlaveComputer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static io.jenkins.plugins.copilotautopilot.testing.Waits.waitFor;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An inbound agent whose connection is cut while its JVM lives on (a network that drops it; the agent connects again by
 * itself in the same JVM, where durable-task's watches of the connection before may still run): a Pipeline session cut
 * again and again, while its tool prints and as it ends, ends once, with each of its lines once. (A Freestyle build ends
 * with its agent's connection, in Jenkins itself: its last call, the process kill, fails.) The real CLI and a scripted
 * model.
 */
@WithJenkins
@Timeout(600)
class ChannelCutTest {
    private static final String PRINT = "for i in $(seq 1 24); do echo line-$i; sleep 1; done";
    private JenkinsRule j;
    private InboundAgentProcess agent;
    private DumbSlave node;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        Path jar = tmp.resolve("agent.jar");
        try (InputStream in = j.jenkins.getJnlpJars("agent.jar").getURL().openStream()) {
            Files.copy(in, jar);
        }
        Path root = Files.createDirectories(tmp.resolve("agent"));
        node = new DumbSlave("cut", root.toString(), new JNLPLauncher());
        node.setLabelString("cut");
        node.setNumExecutors(2);
        node.setRetentionStrategy(RetentionStrategy.Always.INSTANCE);
        EnvironmentVariablesNodeProperty env = new EnvironmentVariablesNodeProperty();
        env.getEnvVars().put("COPILOT_CLI", TestCli.executable().path());
        node.getNodeProperties().add(env);
        j.jenkins.addNode(node);
        agent = new InboundAgentProcess("cut", root, jar, CuttableRelay.to(j.getURL().getPort()), j.contextPath + "/");
        agent.secret(((SlaveComputer) node.toComputer()).getJnlpMac());
        agent.start();
        j.waitOnline(node);
    }

    @AfterEach
    void tearDown() throws Exception {
        agent.close();
    }

    private static ScriptedModelServer.Script printThenComplete() {
        return request -> !request.used("bash") ? Reply.bash(PRINT, 60).withText("I'll print.")
                : !request.used("task_complete") ? Reply.taskComplete("Printed.") : Reply.text("Done.");
    }

    /**
     * Once the session runs its tool, cuts the agent's connection every {@code seconds} until the build ends, each cut
     * once the agent is back (a cut while the step launches fails the launch: {@code AgentFailureTest}).
     */
    private int cutUntilTheEnd(Run<?, ?> b, int seconds) throws Exception {
        j.waitForMessage("[copilot]   > bash: ", b);
        int cuts = 0;
        while (b.isBuilding()) {
            long until = System.currentTimeMillis() + seconds * 1000L;
            while (b.isBuilding() && System.currentTimeMillis() < until) {
                Thread.sleep(100);
            }
            if (b.isBuilding() && node.toComputer().isOnline() && agent.cut() > 0) {
                cuts++;
                waitFor(() -> !b.isBuilding() || node.toComputer().isOnline(), Duration.ofSeconds(120), b);
            }
        }
        return cuts;
    }

    private static void assertEachLineOnce(Run<?, ?> b) throws Exception {
        List<String> log = b.getLog(Integer.MAX_VALUE);
        assertThat("no event shown raw", log.stream().filter(l -> l.startsWith("[copilot] cli: {")).toList(), empty());
        for (String line : new String[] {"[copilot] Turn 1", "[copilot] Turn 2", "[copilot]   > bash: ", "[copilot]   < bash ok",
            "[copilot] COMPLETED: "}) {
            assertEquals(1, log.stream().filter(l -> l.startsWith(line)).count(), line);
        }
    }

    @Test
    void aPipelineSessionCutAgainAndAgainEndsOnceWithEachLineOnce() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(printThenComplete())) {
            for (int round = 1; round <= 3; round++) {
                WorkflowRun b = TestPipelines.create(j, "node('cut') { copilotAutopilot prompt: 'Print.', providerBaseUrl: '" + model.baseUrl()
                        + "', model: 'fake-model', offline: true, allowAllTools: true }").scheduleBuild2(0).waitForStart();
                int cuts = cutUntilTheEnd(b, 4 + round * 3);
                j.assertBuildStatus(Result.SUCCESS, j.waitForCompletion(b));
                System.out.println("round " + round + ": " + cuts + " cuts");
                assertEachLineOnce(b);
            }
        }
    }
}
