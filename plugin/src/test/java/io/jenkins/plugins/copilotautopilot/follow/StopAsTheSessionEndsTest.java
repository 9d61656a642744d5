package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotBuilder;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;
import io.jenkins.plugins.copilotautopilot.testing.Waits;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Job;
import hudson.model.Result;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.tasks.Shell;
import io.jenkins.plugins.checks.api.ChecksDetails;
import io.jenkins.plugins.checks.api.ChecksPublisher;
import io.jenkins.plugins.checks.api.ChecksPublisherFactory;
import io.jenkins.plugins.checks.api.ChecksStatus;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stop that comes while the session is ending (it completed, and is being recorded) still stops the build: the step
 * ends as stopped and nothing after it runs, Pipeline and Freestyle. The session's end is held at its check's
 * publication, so that the stop lands in that window every time.
 */
@WithJenkins
@Timeout(300)
class StopAsTheSessionEndsTest {
    static volatile CountDownLatch ending;
    static volatile CountDownLatch goOn;

    /** Holds the session's end where it publishes the completed check, until the test has stopped the build. */
    @TestExtension
    public static final class HoldingTheEnd extends ChecksPublisherFactory {
        @Override
        protected Optional<ChecksPublisher> createPublisher(Run<?, ?> run, TaskListener listener) {
            return Optional.of(new ChecksPublisher() {
                @Override
                public void publish(ChecksDetails details) {
                    if (details.getStatus() == ChecksStatus.COMPLETED) {
                        ending.countDown();
                        try {
                            goOn.await(2, TimeUnit.MINUTES);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            });
        }

        @Override
        protected Optional<ChecksPublisher> createPublisher(Job<?, ?> job, TaskListener listener) {
            return Optional.empty();
        }
    }

    @BeforeEach
    void latches() {
        ending = new CountDownLatch(1);
        goOn = new CountDownLatch(1);
    }

    @org.junit.jupiter.api.RepeatedTest(3)
    void aPipelineStoppedWhileItsSessionEndsStopsThere(JenkinsRule j) throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            WorkflowRun b = TestPipelines.create(j, "node { copilotAutopilot prompt: 'Write hi.txt.', copilotPath: '" + TestCli.executable().path()
                    + "', providerBaseUrl: '" + model.baseUrl() + "', model: 'fake-model', offline: true, allowAllTools: true\n"
                    + "  echo 'AFTER THE STEP' }").scheduleBuild2(0).waitForStart();
            assertTrue(ending.await(2, TimeUnit.MINUTES), "the session ended");
            b.doStop();
            // the stop reaches the step asynchronously (the build's executor, then the Pipeline's thread): wait until it has
            Waits.waitFor(() -> stepStatus(b).contains("asked to stop"), java.time.Duration.ofSeconds(60), b);
            goOn.countDown();

            j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(b));
            j.assertLogContains("[copilot] The build was stopped while the session was ending (COMPLETED): the step ends as stopped.", b);
            j.assertLogNotContains("AFTER THE STEP", b);
        }
    }

    /** What the running step says of itself (as a thread dump shows it). */
    private static String stepStatus(WorkflowRun b) {
        try {
            return b.getExecution().getCurrentExecutions(true).get(10, TimeUnit.SECONDS).stream()
                    .map(org.jenkinsci.plugins.workflow.steps.StepExecution::getStatus).filter(java.util.Objects::nonNull)
                    .collect(java.util.stream.Collectors.joining(" | "));
        } catch (Exception e) {
            return e.toString();
        }
    }

    @org.junit.jupiter.api.RepeatedTest(3) // the stop races the result: a stop that comes with it is one too
    void aFreestyleBuildStoppedWhileItsSessionEndsStopsThere(JenkinsRule j) throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            CopilotAutopilotStep task = TestPipelines.scriptedTask("Write hi.txt.", model);
            FreeStyleProject p = j.createFreeStyleProject();
            p.getBuildersList().add(new CopilotAutopilotBuilder(task));
            p.getBuildersList().add(new Shell("echo AFTER-THE-STEP"));
            FreeStyleBuild b = p.scheduleBuild2(0).waitForStart();
            assertTrue(ending.await(2, TimeUnit.MINUTES), "the session ended");
            b.getExecutor().interrupt();
            goOn.countDown();

            j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(b));
            j.assertLogContains("[copilot] The build was stopped while the session was ending (COMPLETED): the step ends as stopped.", b);
            j.assertLogNotContains("AFTER-THE-STEP", b);
        }
    }
}
