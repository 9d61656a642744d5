package io.jenkins.plugins.copilotautopilot.session;

import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.usage.QuotaConfiguration;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.junit.jupiter.BuildWatcherExtension;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A controller restart while sessions wait for their token's slots: the running session is counted again from its
 * step, the waiters are queued again in their order and start one after the other; none starts before its turn.
 */
class SessionsPerCredentialRestartTest {
    @RegisterExtension
    private static final BuildWatcherExtension BUILD_WATCHER = new BuildWatcherExtension();

    @RegisterExtension
    private final JenkinsSessionExtension sessions = new JenkinsSessionExtension();

    @TempDir
    Path tmp;

    @Test
    void aRestartKeepsTheHolderAndTheWaitersInTheirOrder() throws Throwable {
        Path runs = tmp.resolve("runs");
        Path cli = FakeCopilot.in(tmp.resolve("cli")).replaying("cli-happy").countingRunsIn(runs).pausingEachRunAfterTheFirstTurnUntilLetGo(runs).write();
        sessions.then(j -> {
            j.jenkins.setNumExecutors(4);
            TestCredentials.addToken(j);
            QuotaConfiguration.get().setSessionsPerCredential(1);
            for (String name : List.of("holder", "second", "third")) {
                WorkflowJob p = j.createProject(WorkflowJob.class, name);
                p.setDefinition(new CpsFlowDefinition(SessionsPerCredentialTest.step(cli), true));
                WorkflowRun b = p.scheduleBuild2(0).waitForStart();
                String me = "#1 of " + name;
                SessionsPerCredentialTest.waitFor(() -> CredentialSlots.get().holders().contains(me)
                        || CredentialSlots.get().waiters().contains(me), Duration.ofSeconds(60), me + " claims its slot");
            }
            j.waitForMessage("[copilot] Turn 1", j.jenkins.getItemByFullName("holder", WorkflowJob.class).getBuildByNumber(1));
            assertEquals(List.of("#1 of second", "#1 of third"), CredentialSlots.get().waiters());
        });
        sessions.then(j -> {
            WorkflowRun holder = j.jenkins.getItemByFullName("holder", WorkflowJob.class).getBuildByNumber(1);
            WorkflowRun second = j.jenkins.getItemByFullName("second", WorkflowJob.class).getBuildByNumber(1);
            WorkflowRun third = j.jenkins.getItemByFullName("third", WorkflowJob.class).getBuildByNumber(1);
            j.waitForMessage("[copilot] Jenkins restarted: still waiting for a session slot of credential 'copilot-token', in its turn.", second);
            j.waitForMessage("[copilot] Jenkins restarted: still waiting for a session slot of credential 'copilot-token', in its turn.", third);
            // each session goes on only when let go, after the restart: the next one starts only once it has ended
            Files.createFile(runs.resolve("go.1"));
            j.assertBuildStatusSuccess(j.waitForCompletion(holder));
            j.assertLogContains("[copilot] Jenkins restarted: following the Copilot CLI again", holder);
            j.waitForMessage("[copilot] Turn 1", second);
            assertEquals(List.of("#1 of third"), CredentialSlots.get().waiters(), "the third waits while the second runs");
            Files.createFile(runs.resolve("go.2"));
            j.assertBuildStatusSuccess(j.waitForCompletion(second));
            Files.createFile(runs.resolve("go.3"));
            j.assertBuildStatusSuccess(j.waitForCompletion(third));
            j.assertLogContains("[copilot] Session slot of credential 'copilot-token' free after", second);
            j.assertLogContains("[copilot] COMPLETED", third);
            assertEquals(List.of("holder", "second", "third"), SessionsPerCredentialTest.lines(runs.resolve("starts.txt")));
            assertEquals(List.of("1", "1", "1"), SessionsPerCredentialTest.lines(runs.resolve("counts.txt")), "one at a time, across the restart");
            assertTrue(CredentialSlots.get().holders().isEmpty());
        });
    }
}
