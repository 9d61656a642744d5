package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.agent.AgentSessionAccess;
import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.session.ResumeState;
import io.jenkins.plugins.copilotautopilot.testing.AgentJvm;
import io.jenkins.plugins.copilotautopilot.trace.BuildTraces;

import hudson.Launcher;
import hudson.model.FreeStyleBuild;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.util.StreamTaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.Checkpoint;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static io.jenkins.plugins.copilotautopilot.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An ended session is recorded on its build before its agent is asked anything (its folders deleted, its kept state,
 * its spans): a controller that goes down while those calls wait on an agent that does not answer finds the record
 * when it is back, and ends the step as recorded instead of ending the session a second time (the soak: a session
 * that ended just before a clean restart, its recorder waiting on its agent, was ended again as lost).
 */
@WithJenkins
class RecordFirstTest {
    private JenkinsRule j;
    private long remoteTimeout;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) {
        this.j = rule;
        remoteTimeout = AgentSession.REMOTE_TIMEOUT_SECONDS;
    }

    @AfterEach
    void tearDown() {
        AgentSession.REMOTE_TIMEOUT_SECONDS = remoteTimeout;
    }

    @Test
    void theRecordIsOnTheBuildWhileTheCallsToTheAgentStillWait() throws Exception {
        AgentSession.REMOTE_TIMEOUT_SECONDS = 300; // the agent's calls wait far longer than the record may take
        AgentJvm agent = AgentJvm.add(j, "silent", tmp.resolve("agent"));
        Path launch = Files.createDirectories(tmp.resolve("agent/workspace/p@tmp/copilot-autopilot-1"));
        Path control = Files.createDirectories(tmp.resolve("agent/workspace/p@tmp/copilot-autopilot-1@tmp/durable-1"));
        FreeStyleBuild run = j.buildAndAssertSuccess(j.createFreeStyleProject("p"));
        RecordingBuild build = new RecordingBuild(run);
        SessionDriver driver = new SessionDriver("record-first", build);
        driver.unfollowed(null, AgentSessionAccess.at("silent", launch.toString(), control.toString(), driver));
        agent.freeze();
        try {
            driver.end(new SessionResult(new Ending(Outcome.COMPLETED, "done", null, null, null, null, 0, null, null)));

            waitFor(() -> run.getAction(CopilotAutopilotRunAction.class) != null, Duration.ofSeconds(60));
            CopilotAutopilotRunAction action = run.getAction(CopilotAutopilotRunAction.class);
            assertNotNull(action, "the session is recorded while its agent does not answer");
            assertEquals("COMPLETED", action.getSessions().get(0).getEnding().getOutcome());
            assertEquals("record-first", action.getSessions().get(0).getInvocationId());
            assertTrue(Files.isDirectory(control), "the folders, whose deletion waits on the agent");
            assertFalse(build.ended.await(0, TimeUnit.SECONDS), "the step ends once the agent's calls are done");
        } finally {
            agent.thaw();
        }
        assertTrue(build.ended.await(120, TimeUnit.SECONDS), "the step ends once the agent answers");
        waitFor(() -> !Files.exists(control), Duration.ofSeconds(60));
        assertFalse(Files.exists(control), "the folders deleted once the agent answered");
    }

    /** The build of a session that ended: a real run to record on, told of the end. */
    private static final class RecordingBuild implements SessionDriver.Build {
        final CountDownLatch ended = new CountDownLatch(1);
        private final Run<?, ?> run;
        private final TaskListener listener = new StreamTaskListener(new ByteArrayOutputStream(), StandardCharsets.UTF_8);

        RecordingBuild(Run<?, ?> run) {
            this.run = run;
        }

        @Override
        public Run<?, ?> run() {
            return run;
        }

        @Override
        public Launcher launcher() throws IOException {
            throw new IOException("no launcher here");
        }

        @Override
        public TaskListener listener() {
            return listener;
        }

        @Override
        public void checkpoint(Checkpoint checkpoint) {
        }

        @Override
        public boolean resumesAfterRestart() {
            return true;
        }

        @Override
        public ResumeState state() {
            return null;
        }

        @Override
        public void ended(SessionResult result, boolean changesFileWritten) {
            ended.countDown();
        }

        @Override
        public BuildTraces.Step traceStep() throws IOException {
            throw new IOException("no step here");
        }
    }
}
