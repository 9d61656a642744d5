package io.jenkins.plugins.copilotautopilot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import hudson.model.Result;
import java.nio.file.Path;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.junit.jupiter.BuildWatcherExtension;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;

/** A controller restart in the middle of a session: the CLI works on, and the build continues and completes. */
class DurableExecutionRestartTest {
    @RegisterExtension
    private static final BuildWatcherExtension BUILD_WATCHER = new BuildWatcherExtension();

    @RegisterExtension
    private final JenkinsSessionExtension sessions = new JenkinsSessionExtension();

    @TempDir
    Path tmp;

    @Test
    void theBuildContinuesAfterARestartWithoutRepeatingOrLosingLogLines() throws Throwable {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").pausingAfterTheFirstTurn("10").write();
        sessions.then(j -> {
            TestCredentials.addToken(j);
            WorkflowJob p = TestPipelines.create(j, "node { def r = copilotAutopilot prompt: 'Create hello.txt', "
                    + "credentialsId: 'copilot-token', copilotPath: '" + cli + "'\n echo \"outcome=${r.outcome}\" }");
            WorkflowRun b = p.scheduleBuild2(0).waitForStart();
            j.waitForMessage("[copilot] Turn 1", b);
            Thread.sleep(500); // the first lines are followed and checkpointed
        });
        sessions.then(j -> {
            WorkflowJob p = j.jenkins.getItemByFullName("p0", WorkflowJob.class);
            WorkflowRun b = p.getBuildByNumber(1);
            j.waitForCompletion(b);
            j.assertBuildStatus(Result.SUCCESS, b);
            j.assertLogContains("[copilot] Jenkins restarted: following the Copilot CLI again", b);
            j.assertLogContains("[copilot] COMPLETED: The agent called task_complete after 2 turns.", b);
            j.assertLogContains("outcome=COMPLETED", b);
            assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains("[copilot] Turn 1")).count());
            assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains("[copilot] Turn 2")).count());
            assertNotNull(b.getAction(CopilotAutopilotRunAction.class));
        });
        sessions.then(j -> {
            WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
            assertEquals("COMPLETED", b.getAction(CopilotAutopilotRunAction.class).getWorstOutcome());
        });
    }
}
