package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import com.cloudbees.plugins.credentials.Credentials;
import com.cloudbees.plugins.credentials.CredentialsProvider;
import com.cloudbees.plugins.credentials.domains.DomainRequirement;
import hudson.model.ItemGroup;
import hudson.model.Result;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.BuildWatcherExtension;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;
import org.springframework.security.core.Authentication;

import static io.jenkins.plugins.copilotautopilot.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A step resumed after a restart, still catching up on its session when the controller is stopped again, is
 * interrupted by Jenkins' shutdown (its terminators stop the threads before Jenkins says it is terminating): it is
 * resumed again at the next start, and does not fail with the interrupt (the soak: no record, its CLI and folders left).
 */
class ResumeAtShutdownTest {
    @RegisterExtension
    private static final BuildWatcherExtension BUILD_WATCHER = new BuildWatcherExtension();

    @RegisterExtension
    private final JenkinsSessionExtension sessions = new JenkinsSessionExtension();

    @TempDir
    Path tmp;

    /** Set while the test wants the resumption held: the first credential lookup of a starter thread waits there. */
    private static volatile boolean holdResumption;
    private static final CountDownLatch HELD = new CountDownLatch(1);

    /**
     * Holds the step's resumption where it looks its credential up again, until it is interrupted (the shutdown), and
     * lets the interrupt through as the resumption's own calls to an agent would.
     */
    @TestExtension("aResumptionInterruptedByTheShutdownIsResumedAgainAtTheNextStart")
    public static final class HoldingTheResumption extends CredentialsProvider {
        @Override
        public <C extends Credentials> List<C> getCredentialsInItem(Class<C> type, hudson.model.Item item, Authentication authentication,
                                                                    List<DomainRequirement> domainRequirements) {
            hold();
            return List.of();
        }

        @Override
        public <C extends Credentials> List<C> getCredentialsInItemGroup(Class<C> type, ItemGroup itemGroup, Authentication authentication,
                                                                         List<DomainRequirement> domainRequirements) {
            hold();
            return List.of();
        }

        private static void hold() {
            if (holdResumption && Thread.currentThread().getName().startsWith("Copilot Autopilot starter")) {
                holdResumption = false;
                HELD.countDown();
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    throw ResumeAtShutdownTest.<RuntimeException>sneaky(e);
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    @Test
    void aResumptionInterruptedByTheShutdownIsResumedAgainAtTheNextStart() throws Throwable {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("995.5");
        Path cli = fake.write();
        String[] runId = new String[1];
        try {
            sessions.then(j -> {
                TestCredentials.addToken(j);
                WorkflowRun b = TestPipelines.create(j, "node { copilotAutopilot prompt: 'Create hello.txt', "
                        + "credentialsId: 'copilot-token', copilotPath: '" + cli + "' }").scheduleBuild2(0).waitForStart();
                j.waitForMessage("[copilot] Turn 1", b);
                runId[0] = fake.runId();
                holdResumption = true;
            });
            sessions.then(j -> {
                assertTrue(HELD.await(2, TimeUnit.MINUTES), "the step's resumption is held");
                // the controller stops now, with the resumption held: its thread is interrupted
            });
            sessions.then(j -> {
                WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
                j.waitForMessage("[copilot] Jenkins restarted: following the Copilot CLI again", b);
                assertTrue(b.isBuilding(), "the build goes on");
                j.assertLogNotContains("InterruptedException", b);
                assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains("[copilot] Turn 1")).count(), "Turn 1 once");
                b.doStop();
                j.waitForCompletion(b);
                j.assertBuildStatus(Result.ABORTED, b);
                assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.startsWith("[copilot] ABORTED: ")).count(), "one closing line");
                waitFor(() -> ProcessTable.survivorsOf(runId[0]).isEmpty(), Duration.ofSeconds(60));
                assertEquals(List.of(), ProcessTable.survivorsOf(runId[0]), "the CLI stopped");
            });
        } finally {
            holdResumption = false;
            if (runId[0] != null) {
                ProcessTable.survivorsOf(runId[0]).forEach(p -> ProcessHandle.of(Long.parseLong(p.substring(0, p.indexOf(' '))))
                        .ifPresent(ProcessHandle::destroyForcibly));
            }
        }
    }

}
