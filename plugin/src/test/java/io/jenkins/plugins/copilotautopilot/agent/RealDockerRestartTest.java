package io.jenkins.plugins.copilotautopilot.agent;

import io.jenkins.plugins.copilotautopilot.testing.AgentJvm;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.BuildWatcherExtension;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A controller restart while the agent's tool runs in a real container ({@code docker.image(…).inside {}}, the agent
 * running as an ordinary user): the CLI and its tool work on in the container, which outlives the agent's JVM, and
 * once the agent is back the build follows the session again and completes. Needs what {@link RealDockerTest} needs.
 */
@Timeout(600)
class RealDockerRestartTest {
    @RegisterExtension
    private static final BuildWatcherExtension BUILD_WATCHER = new BuildWatcherExtension();

    @RegisterExtension
    private final JenkinsSessionExtension sessions = new JenkinsSessionExtension();

    @BeforeAll
    static void theEngineAndTheImageAreThere() throws Exception {
        RealDockerTest.theEngineAndTheImagesAreThere();
    }

    @Test
    void aRestartWhileTheToolRunsInTheContainerIsFollowedAgainAndTheBuildCompletes() throws Throwable {
        Path agentRoot = Files.createTempDirectory(Path.of("/tmp"), "docker-agent-");
        Files.setPosixFilePermissions(agentRoot, PosixFilePermissions.fromString("rwx------"));
        Files.setOwner(agentRoot, agentRoot.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(RealDockerTest.USER));
        Path ws = agentRoot.resolve("workspace").resolve("p0");
        String tool = "touch started; while [ ! -f go ]; do sleep 0.2; done; echo went > went.txt";
        String[] container = new String[1];
        try {
            restartMidTool(agentRoot, ws, tool, container);
        } finally {
            RealDockerTest.deleteTree(agentRoot); // the agent's JVM ended with the last Jenkins session
        }
    }

    private void restartMidTool(Path agentRoot, Path ws, String tool, String[] container) throws Throwable {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenComplete(tool, "Went."))) {
            sessions.then(j -> {
                AgentJvm.add(j, "docker-agent", agentRoot, RealDockerTest.USER);
                WorkflowJob p = TestPipelines.create(j, "node('docker-agent') {\n  docker.image('" + RealDockerTest.IMAGE + "').inside('"
                        + RealDockerTest.insideArgs() + "') {\n    def r = copilotAutopilot prompt: 'Wait for go.', copilotPath: '"
                        + TestCli.executable().path() + "', providerBaseUrl: '" + model.baseUrl()
                        + "', model: 'fake-model', offline: true, allowAllTools: true\n    echo \"outcome=${r.outcome}\"\n  }\n}");
                WorkflowRun b = p.scheduleBuild2(0).waitForStart();
                container[0] = RealDockerTest.awaitProcessInAContainer("while [ ! -f go ]", b);
                j.waitForMessage("> bash: touch started", b);
            });
            // the controller is down and the agent's JVM with it; the container and the session in it are not
            assertThat("the tool runs on in the container while Jenkins is down",
                    RealDockerTest.run("docker", "top", container[0], "-eo", "pid,args").output(), containsString("while [ ! -f go ]"));
            sessions.then(j -> {
                j.jenkins.getComputer("docker-agent").connect(false);
                j.waitOnline((hudson.model.Slave) j.jenkins.getNode("docker-agent"));
                WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
                j.waitForMessage("[copilot] Jenkins restarted: following the Copilot CLI again", b);
                Files.writeString(ws.resolve("go"), "");
                j.assertBuildStatusSuccess(j.waitForCompletion(b));
                j.assertLogContains("outcome=COMPLETED", b);
                j.assertLogContains("[copilot] COMPLETED: The agent called task_complete after 2 turns.", b);
                assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains("> bash: touch started")).count(),
                        "the tool call is in the log once");
                assertEquals("went", Files.readString(ws.resolve("went.txt")).strip(), "the tool finished in the workspace");
                assertThat("the container is gone with the block", RealDockerTest.run("docker", "ps", "-q", "--no-trunc").output(),
                        not(containsString(container[0])));
                assertEquals("", RealDockerTest.hostProcesses("touch started"), "nothing of the session left on the host");
                try (var files = Files.walk(ws.resolveSibling("p0@tmp"))) {
                    assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("copilot-autopilot-")), "no session folder left");
                }
                assertThat(JenkinsRule.getLog(b), not(containsString("Could not delete")));
            });
        }
    }
}
