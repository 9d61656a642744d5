package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import com.cloudbees.plugins.credentials.Credentials;
import com.cloudbees.plugins.credentials.CredentialsProvider;
import com.cloudbees.plugins.credentials.domains.DomainRequirement;
import hudson.model.Item;
import hudson.model.ItemGroup;
import hudson.model.Result;
import hudson.remoting.RequestAbortedException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.BuildWatcherExtension;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;
import org.springframework.security.core.Authentication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A step resumed after a restart whose agent's channel closes as it answers: remoting says so with an unchecked
 * {@link RequestAbortedException} rather than an {@code IOException}. The step takes it as the agent being away and
 * follows the session again once it answers, instead of failing without a record (the soak: a build failed with
 * {@code ClosedChannelException}, its session neither ended nor recorded, its folder left).
 */
class ResumeCutOffTest {
    @RegisterExtension
    private static final BuildWatcherExtension BUILD_WATCHER = new BuildWatcherExtension();

    @RegisterExtension
    private final JenkinsSessionExtension sessions = new JenkinsSessionExtension();

    @TempDir
    Path tmp;

    /** Set while the test wants the resumption's first look at its agent cut off. */
    private static volatile boolean cutOff;

    /**
     * Cuts the step's resumption off where it looks its credential up again, the first thing it does before it calls
     * the agent, as a channel closing under that call would.
     */
    @TestExtension("aResumptionACallsChannelEndCutOffIsTriedAgainAndTheSessionFollowedToItsEnd")
    public static final class CuttingTheResumptionOff extends CredentialsProvider {
        @Override
        public <C extends Credentials> List<C> getCredentialsInItem(Class<C> type, Item item, Authentication authentication,
                                                                    List<DomainRequirement> domainRequirements) {
            cut();
            return List.of();
        }

        @Override
        public <C extends Credentials> List<C> getCredentialsInItemGroup(Class<C> type, ItemGroup itemGroup, Authentication authentication,
                                                                         List<DomainRequirement> domainRequirements) {
            cut();
            return List.of();
        }

        private static void cut() {
            if (cutOff && Thread.currentThread().getName().startsWith("Copilot Autopilot starter")) {
                cutOff = false;
                throw new RequestAbortedException(new ClosedChannelException());
            }
        }
    }

    @Test
    void aResumptionACallsChannelEndCutOffIsTriedAgainAndTheSessionFollowedToItsEnd() throws Throwable {
        Path goOn = tmp.resolve("go-on");
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").pausingAfterTheFirstTurnUntil(goOn).write();
        try {
            sessions.then(j -> {
                TestCredentials.addToken(j);
                WorkflowRun b = TestPipelines.create(j, "node { copilotAutopilot prompt: 'Create hello.txt', "
                        + "credentialsId: 'copilot-token', copilotPath: '" + cli + "' }").scheduleBuild2(0).waitForStart();
                j.waitForMessage("[copilot] Turn 1", b);
                cutOff = true;
            });
            sessions.then(j -> {
                WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
                j.waitForMessage("[copilot] Cannot follow the Copilot CLI right now", b);
                j.waitForMessage("[copilot] Jenkins restarted: following the Copilot CLI again", b);
                Files.createFile(goOn);
                j.waitForCompletion(b);
                j.assertBuildStatus(Result.SUCCESS, b);
                j.assertLogContains("[copilot] COMPLETED: The agent called task_complete after 2 turns.", b);
                j.assertLogNotContains("RequestAbortedException", b);
                assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains("[copilot] Turn 1")).count(), "Turn 1 once");
                assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains("[copilot] Turn 2")).count(), "Turn 2 once");
                CopilotAutopilotRunAction action = b.getAction(CopilotAutopilotRunAction.class);
                assertNotNull(action, "the session is recorded");
                assertEquals("COMPLETED", action.getSessions().get(0).getEnding().getOutcome());
            });
        } finally {
            cutOff = false;
        }
    }
}
