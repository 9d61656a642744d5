package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.agent.FolderDeletionsAccess;
import io.jenkins.plugins.copilotautopilot.testing.AgentJvm;
import io.jenkins.plugins.copilotautopilot.testing.DecoratedBlock;
import hudson.slaves.DumbSlave;
import hudson.slaves.JNLPLauncher;
import hudson.slaves.RetentionStrategy;
import org.jvnet.hudson.test.JenkinsRule;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.SessionFolders;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import com.cloudbees.plugins.credentials.SystemCredentialsProvider;
import hudson.Launcher;
import hudson.LauncherDecorator;
import hudson.Proc;
import hudson.model.Node;
import hudson.model.Result;
import io.jenkins.plugins.copilotautopilot.core.engine.Checkpoint;
import io.jenkins.plugins.copilotautopilot.core.engine.CheckpointFile;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Stream;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.BuildWatcherExtension;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;
import org.kohsuke.stapler.DataBoundConstructor;

import static io.jenkins.plugins.copilotautopilot.testing.Waits.waitFor;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A controller restart in the middle of a session: the CLI works on and the build continues and completes; a restart
 * while the CLI is being started leaves nothing running and no secret behind; a session whose credential is gone when
 * the controller comes back is stopped, with one line saying why.
 */
public class DurableExecutionRestartTest {
    @RegisterExtension
    private static final BuildWatcherExtension BUILD_WATCHER = new BuildWatcherExtension();

    @RegisterExtension
    private final JenkinsSessionExtension sessions = new JenkinsSessionExtension();

    @TempDir
    Path tmp;

    /** Whether a checkpoint of the build's session says its first lines were followed. */
    private static boolean checkpointed(WorkflowRun b) {
        return checkpointed(b, c -> c.outputOffset() > 0);
    }

    private static boolean checkpointed(WorkflowRun b, java.util.function.Predicate<Checkpoint> saved) {
        try (Stream<Path> files = Files.list(b.getRootDir().toPath().resolve(SessionFiles.FOLDER))) {
            return files.filter(f -> f.toString().endsWith(".checkpoint")).anyMatch(f -> {
                try {
                    return saved.test(CheckpointFile.read(f));
                } catch (IOException e) {
                    return false;
                }
            });
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void theBuildContinuesAfterARestartWithoutRepeatingOrLosingLogLines() throws Throwable {
        Path goOn = tmp.resolve("go-on");
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").pausingAfterTheFirstTurnUntil(goOn).write();
        sessions.then(j -> {
            TestCredentials.addToken(j);
            WorkflowJob p = TestPipelines.create(j, "node { def r = copilotAutopilot prompt: 'Create hello.txt', "
                    + "credentialsId: 'copilot-token', copilotPath: '" + cli + "'\n echo \"outcome=${r.outcome}\" }");
            WorkflowRun b = p.scheduleBuild2(0).waitForStart();
            j.waitForMessage("[copilot] Turn 1", b);
            waitFor(() -> checkpointed(b), Duration.ofSeconds(10));
        });
        sessions.then(j -> {
            WorkflowJob p = j.jenkins.getItemByFullName("p0", WorkflowJob.class);
            WorkflowRun b = p.getBuildByNumber(1);
            j.waitForMessage("[copilot] Jenkins restarted: following the Copilot CLI again", b);
            Files.createFile(goOn); // the second turn comes only now, after the restart
            j.waitForCompletion(b);
            j.assertBuildStatus(Result.SUCCESS, b);
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

    /** Set by the test below: the file that lets its CLI go on, made once the Pipelines' logs are closed. */
    private static volatile Path goOnAtShutdown;
    /** Durable-task's watch gave up on a session (its WARNING, in this JVM: the session runs on the built-in node). */
    private static final java.util.concurrent.atomic.AtomicBoolean WATCH_GAVE_UP = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * As the controller shuts down, after Jenkins closed the Pipelines' logs and before it disconnects the agents: lets
     * the test's CLI do its second turn and end, and waits until durable-task's watch has either handed that over (the
     * session's folders are then deleted) or given up.
     */
    @hudson.init.Terminator(requires = org.jenkinsci.plugins.workflow.flow.FlowExecutionList.EXECUTIONS_SUSPENDED)
    public static void goOnOnceTheLogsAreClosed() throws Exception {
        Path goOn = goOnAtShutdown;
        goOnAtShutdown = null;
        if (goOn == null) {
            return;
        }
        SessionDriver driver = Following.running().iterator().next();
        Path control = Path.of(driver.session().location().controlFolder());
        Files.createFile(goOn);
        waitFor(() -> Files.exists(control.resolve(io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder.EXIT_CODE))
                || !Files.exists(control), Duration.ofSeconds(60));
        waitFor(() -> !Files.exists(control) || WATCH_GAVE_UP.get(), Duration.ofSeconds(60));
    }

    @Test
    void whatComesAsTheControllerShutsDownIsShownAfterTheRestart() throws Throwable {
        Path goOn = tmp.resolve("go-on");
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").pausingAfterTheFirstTurnUntil(goOn).write();
        java.util.logging.Logger watcherLog = java.util.logging.Logger.getLogger("org.jenkinsci.plugins.durabletask.FileMonitoringTask");
        java.util.logging.Handler gaveUp = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (String.valueOf(r.getMessage()).contains("giving up on watching")) {
                    WATCH_GAVE_UP.set(true);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        watcherLog.addHandler(gaveUp);
        try {
            sessions.then(j -> {
                TestCredentials.addToken(j);
                WorkflowJob p = TestPipelines.create(j, "node { copilotAutopilot prompt: 'Create hello.txt', "
                        + "credentialsId: 'copilot-token', copilotPath: '" + cli + "' }");
                WorkflowRun b = p.scheduleBuild2(0).waitForStart();
                j.waitForMessage("[copilot] Turn 1", b);
                waitFor(() -> checkpointed(b), Duration.ofSeconds(10));
                goOnAtShutdown = goOn;
            });
            sessions.then(j -> {
                WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
                j.waitForCompletion(b);
                j.assertBuildStatus(Result.SUCCESS, b);
                j.assertLogContains("[copilot] COMPLETED: The agent called task_complete after 2 turns.", b);
                assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains("[copilot] Turn 1")).count());
                assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains("[copilot] Turn 2")).count(),
                        "the second turn, which came as the controller shut down, shown once after the restart");
                SessionFolders.assertNoSessionFolderLeft(j, b);
            });
        } finally {
            watcherLog.removeHandler(gaveUp);
            goOnAtShutdown = null;
        }
    }

    /** Starts a build of a session that hangs after its first turn on a new agent {@code name}; its run id. */
    private String startOnAgent(JenkinsRule j, String name, FakeCopilot fake) throws Exception {
        TestCredentials.addToken(j);
        AgentJvm.add(j, name, tmp.resolve("agent"));
        WorkflowRun b = TestPipelines.create(j, "node('" + name + "') { copilotAutopilot prompt: 'Create hello.txt', "
                + "credentialsId: 'copilot-token', copilotPath: '" + fake.write() + "' }").scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", b);
        waitFor(() -> checkpointed(b), Duration.ofSeconds(10));
        return fake.runId();
    }


    /** The agent's machine is gone: an inbound agent nobody starts, from now on and after a restart. */
    private void goneForGood(JenkinsRule j, String name) throws Exception {
        DumbSlave away = new DumbSlave(name, tmp.resolve("agent").toString(), new JNLPLauncher());
        away.setLabelString(name);
        away.setRetentionStrategy(RetentionStrategy.NOOP);
        j.jenkins.addNode(away);
    }

    /** The same agent answers again; then the session's CLI stops, and its folders are gone. */
    private void backAndCleanedUp(JenkinsRule j, String name, String runId) throws Exception {
        j.jenkins.removeNode(j.jenkins.getNode(name));
        AgentJvm.add(j, name, tmp.resolve("agent"));
        waitFor(() -> ProcessTable.survivorsOf(runId).isEmpty(), Duration.ofSeconds(60));
        try (Stream<Path> left = Files.list(tmp.resolve("agent/workspace/p0@tmp"))) {
            assertThat(left.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("copilot-autopilot-")).toList(), is(empty()));
        }
    }

    private static void killSurvivors(String runId) {
        if (runId != null) {
            ProcessTable.survivorsOf(runId).forEach(p -> ProcessHandle.of(Long.parseLong(p.substring(0, p.indexOf(' '))))
                    .ifPresent(ProcessHandle::destroyForcibly));
        }
    }

    /** What a test does after the restart, its agent away: given the build and its CLI's run id. */
    @FunctionalInterface
    private interface AfterRestart {
        void run(JenkinsRule j, WorkflowRun b, String runId) throws Throwable;
    }

    /**
     * A session with its first turn's usage noted, on an agent that goes away for good as the controller restarts;
     * {@code then} runs after the restart, and whatever of the CLI survives the test is killed.
     */
    private void agentGoneAcrossARestart(AfterRestart then) throws Throwable {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").usingTokens(1200, 80).hangingWith("997.5");
        String[] runId = new String[1];
        long retry = FolderDeletionsAccess.retrySeconds(1);
        try {
            sessions.then(j -> {
                runId[0] = startOnAgent(j, "gone", fake);
                WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
                j.waitForMessage("[copilot]   tokens: 1,200 in, 80 out", b);
                waitFor(() -> checkpointed(b, c -> c.usageOffset() > 0), Duration.ofSeconds(10));
                goneForGood(j, "gone");
            });
            sessions.then(j -> then.run(j, j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1), runId[0]));
        } finally {
            FolderDeletionsAccess.retrySeconds(retry);
            killSurvivors(runId[0]);
        }
    }

    @Test
    void aSessionWhoseAgentDoesNotComeBackIsRecordedAndItsCliStoppedOnceTheAgentAnswers() throws Throwable {
        agentGoneAcrossARestart((j, b, runId) -> {
            // nobody starts the agent again: the node block gives up on it (after 15 s in tests, five minutes else)
            j.waitForCompletion(b);
            j.assertBuildStatus(Result.ABORTED, b); // the node step's verdict
            j.assertLogContains("before the session on gone was followed again", b);
            CopilotAutopilotRunAction action = b.getAction(CopilotAutopilotRunAction.class);
            assertNotNull(action, "the session is recorded on the build");
            SessionRecord record = action.getSessions().get(0);
            assertEquals("ABORTED", record.getEnding().getOutcome());
            // what the session did before the restart, as its journal tells it, not an empty session
            assertEquals(1, record.getActivity().getTurns());
            assertEquals(1200L, record.getUsage().getInputTokens());
            assertEquals(80L, record.getUsage().getOutputTokens());
            assertThat("the CLI runs on while its agent is away", ProcessTable.survivorsOf(runId).isEmpty(), is(false));
            backAndCleanedUp(j, "gone", runId);
        });
    }

    @Test
    void aBuildForciblyEndedBeforeItsSessionWasFollowedAgainStillStopsItsCliOnceTheAgentAnswers() throws Throwable {
        agentGoneAcrossARestart((j, b, runId) -> {
            // the stop button of a build not yet running again is workflow-job's hard kill: the build ends at once,
            // and its steps, resumed or not, are never told
            b.doKill();
            j.waitForCompletion(b);
            j.assertBuildStatus(Result.ABORTED, b);
            assertThat("the CLI runs on while its agent is away", ProcessTable.survivorsOf(runId).isEmpty(), is(false));
            backAndCleanedUp(j, "gone", runId);
        });
    }

    /** Waits for {@code letGo} whatever interrupts it (the controller's shutdown): as if the controller died here. */
    private static void holdUntil(java.util.concurrent.CountDownLatch letGo) {
        boolean interrupted = false;
        while (letGo.getCount() > 0) {
            try {
                letGo.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A build of a quick session whose Pipeline echoes the step's value. */
    private static WorkflowRun echoingItsValue(JenkinsRule j, Path cli) throws Exception {
        TestCredentials.addToken(j);
        return TestPipelines.create(j, "node { def r = copilotAutopilot prompt: 'Create hello.txt', "
                + "credentialsId: 'copilot-token', copilotPath: '" + cli + "'\n echo \"value: outcome=${r.outcome} turns=${r.turns}\" }")
                .scheduleBuild2(0).waitForStart();
    }

    /** After the restart: the build ends SUCCESS with the session's value, saying {@code how}, its closing block once. */
    private static WorkflowRun endedOnceWith(JenkinsRule j, String how) throws Exception {
        WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
        j.waitForCompletion(b);
        j.assertBuildStatus(Result.SUCCESS, b);
        j.assertLogContains(how, b);
        j.assertLogContains("value: outcome=COMPLETED turns=2", b);
        assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.startsWith("[copilot] COMPLETED: ")).count(), "one closing line");
        j.assertLogNotContains("Lost", b);
        return b;
    }

    /**
     * The controller goes down after the session ended and its follower made its result (its closing lines printed, its
     * journal closed with it), before the session was recorded: after the restart it is recorded as its journal closed,
     * and not ended again (no second closing block, no "lost" ending though the agent deleted its folders meanwhile).
     */
    @Test
    void aSessionThatEndedJustBeforeTheControllerWentDownUnrecordedIsRecordedAsItsJournalClosed() throws Throwable {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").write();
        java.util.concurrent.CountDownLatch reached = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch letGo = new java.util.concurrent.CountDownLatch(1);
        Thread[] holding = new Thread[1];
        SessionDriver.beforeRecording = () -> {
            holding[0] = Thread.currentThread();
            reached.countDown();
            holdUntil(letGo);
            throw new IllegalStateException("the controller died before the session was recorded");
        };
        try {
            sessions.then(j -> {
                WorkflowRun b = echoingItsValue(j, cli);
                assertThat("the session ended", reached.await(2, java.util.concurrent.TimeUnit.MINUTES), is(true));
                j.assertLogContains("[copilot] COMPLETED: ", b);
                CopilotAutopilotRunAction live = b.getAction(CopilotAutopilotRunAction.class);
                assertThat("not recorded", live == null || live.getSessions().isEmpty(), is(true));
            });
        } finally {
            SessionDriver.beforeRecording = () -> { };
            letGo.countDown();
        }
        waitFor(() -> java.util.Arrays.stream(holding[0].getStackTrace()).noneMatch(f -> f.getClassName().startsWith("io.jenkins.plugins.copilotautopilot")),
                Duration.ofSeconds(30));
        sessions.then(j -> {
            WorkflowRun b = endedOnceWith(j, "[copilot] The session had ended COMPLETED before Jenkins went down");
            SessionRecord record = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0);
            assertEquals("COMPLETED", record.getEnding().getOutcome());
            assertEquals(2, record.getActivity().getTurns());
            SessionFolders.assertNoSessionFolderLeft(j, b);
        });
    }

    /** Counted once the session of the test below is recorded and its end held; the hold ends when the test says. */
    private static final java.util.concurrent.CountDownLatch RECORDED = new java.util.concurrent.CountDownLatch(1);
    private static final java.util.concurrent.CountDownLatch LET_GO = new java.util.concurrent.CountDownLatch(1);
    private static volatile Thread held;

    /**
     * Holds the test's session's end where it publishes its completed check: after the session was recorded on the
     * build, before the step ends. Interrupts (the controller's shutdown) do not end the hold: the step's end is never
     * known to the Pipeline, as when the controller dies in that window.
     */
    @TestExtension("aSessionRecordedJustBeforeTheControllerWentDownIsNotEndedAgain")
    public static final class HoldingTheRecordedEnd extends io.jenkins.plugins.checks.api.ChecksPublisherFactory {
        @Override
        protected java.util.Optional<io.jenkins.plugins.checks.api.ChecksPublisher> createPublisher(hudson.model.Run<?, ?> run,
                                                                                                 hudson.model.TaskListener listener) {
            return java.util.Optional.of(new io.jenkins.plugins.checks.api.ChecksPublisher() {
                @Override
                public void publish(io.jenkins.plugins.checks.api.ChecksDetails details) {
                    if (details.getStatus() != io.jenkins.plugins.checks.api.ChecksStatus.COMPLETED || RECORDED.getCount() == 0) {
                        return;
                    }
                    held = Thread.currentThread();
                    RECORDED.countDown();
                    holdUntil(LET_GO);
                }
            });
        }

        @Override
        protected java.util.Optional<io.jenkins.plugins.checks.api.ChecksPublisher> createPublisher(hudson.model.Job<?, ?> job,
                                                                                                 hudson.model.TaskListener listener) {
            return java.util.Optional.empty();
        }
    }

    /**
     * The controller goes down after the session was recorded and before Pipeline saved the step's end: after the
     * restart the step ends as recorded (its value from the recorded journal), and the session is not ended again (a
     * second record, a "lost" ending, a second closing block).
     */
    @Test
    void aSessionRecordedJustBeforeTheControllerWentDownIsNotEndedAgain() throws Throwable {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").write();
        sessions.then(j -> {
            WorkflowRun b = echoingItsValue(j, cli);
            assertThat("the session ended", RECORDED.await(2, java.util.concurrent.TimeUnit.MINUTES), is(true));
            assertEquals(1, b.getAction(CopilotAutopilotRunAction.class).getSessions().size(), "recorded");
            assertThat("the step has not ended", b.isBuilding(), is(true));
        });
        // the step's end, held until the controller is gone, comes to nothing: nobody follows the build any more
        LET_GO.countDown();
        waitFor(() -> java.util.Arrays.stream(held.getStackTrace()).noneMatch(f -> f.getClassName().startsWith("io.jenkins.plugins.copilotautopilot")),
                Duration.ofSeconds(30));
        sessions.then(j -> {
            WorkflowRun b = endedOnceWith(j, "[copilot] The session had ended COMPLETED and was recorded before Jenkins restarted; the step ends as recorded.");
            assertEquals(1, b.getAction(CopilotAutopilotRunAction.class).getSessions().size(), "recorded once");
            assertEquals("COMPLETED", b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getEnding().getOutcome());
        });
    }

    @Test
    void aTimeoutThatExpiredWhileTheControllerWasDownStopsTheSessionAndRecordsIt() throws Throwable {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("995.5");
        Path cli = fake.write();
        String[] runId = new String[1];
        long[] expires = new long[1];
        try {
            sessions.then(j -> {
                TestCredentials.addToken(j);
                expires[0] = System.currentTimeMillis() + 20_000;
                WorkflowRun b = TestPipelines.create(j, "node { timeout(time: 20, unit: 'SECONDS') { copilotAutopilot prompt: 'Create hello.txt', "
                        + "credentialsId: 'copilot-token', copilotPath: '" + cli + "' } }").scheduleBuild2(0).waitForStart();
                j.waitForMessage("[copilot] Turn 1", b);
                waitFor(() -> checkpointed(b), Duration.ofSeconds(10));
                runId[0] = fake.runId();
            });
            // the controller is down when the timeout expires
            waitFor(() -> System.currentTimeMillis() > expires[0] + 1_000, Duration.ofSeconds(60));
            sessions.then(j -> {
                WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
                j.waitForCompletion(b);
                j.assertBuildStatus(Result.ABORTED, b);
                CopilotAutopilotRunAction action = b.getAction(CopilotAutopilotRunAction.class);
                assertNotNull(action, "the session is recorded on the build");
                assertEquals("ABORTED", action.getSessions().get(0).getEnding().getOutcome());
                assertEquals(1, b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.startsWith("[copilot] ABORTED: ")).count());
                waitFor(() -> ProcessTable.survivorsOf(runId[0]).isEmpty(), Duration.ofSeconds(60));
                SessionFolders.assertNoSessionFolderLeft(j, b);
            });
        } finally {
            killSurvivors(runId[0]);
        }
    }

    @Test
    void foldersStillToDeleteWhenTheControllerRestartsAreDeletedOnceTheAgentAnswers() throws Throwable {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("996.5");
        String[] runId = new String[1];
        long retry = FolderDeletionsAccess.retrySeconds(1);
        try {
            sessions.then(j -> {
                runId[0] = startOnAgent(j, "away", fake);
                // the agent's JVM dies and nobody starts it again (the CLI, detached, runs on); the build is stopped:
                // its session ends, and its folders are to be deleted once the agent answers
                AgentJvm agent = (AgentJvm) ((DumbSlave) j.jenkins.getNode("away")).getLauncher();
                goneForGood(j, "away");
                agent.killJvm();
                WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
                b.doStop();
                j.waitForCompletion(b);
                j.assertLogContains("Could not delete the session's folder", b);
                assertThat("the CLI runs on while its agent is away", ProcessTable.survivorsOf(runId[0]).isEmpty(), is(false));
            });
            sessions.then(j -> backAndCleanedUp(j, "away", runId[0])); // after the restart
        } finally {
            FolderDeletionsAccess.retrySeconds(retry);
            killSurvivors(runId[0]);
        }
    }

    @Test
    void aRestartWhileTheCliIsBeingStartedLeavesNothingRunningAndNoSecretBehind() throws Throwable {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").write();
        sessions.then(j -> {
            TestCredentials.addToken(j);
            WorkflowJob p = TestPipelines.create(j, "node { slowToLaunch('" + tmp.resolve("launch-waiting") + "') { copilotAutopilot prompt: 'Create hello.txt', "
                    + "credentialsId: 'copilot-token', copilotPath: '" + cli + "' } }");
            WorkflowRun b = p.scheduleBuild2(0).waitForStart();
            waitFor(() -> SlowLauncher.waiting(tmp), Duration.ofSeconds(30)); // the launch files are written
        });
        sessions.then(j -> {
            WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
            j.waitForCompletion(b);
            j.assertBuildStatus(Result.FAILURE, b);
            j.assertLogContains("Jenkins restarted before the Copilot CLI was started", b);
            assertThat("the CLI never ran", Files.exists(tmp.resolve("env.txt")), is(false));
            SessionFolders.assertNoSessionFolderLeft(j, b);
            assertNoFileHolds(Path.of(j.jenkins.getWorkspaceFor(b.getParent()).getRemote() + "@tmp"), TestCredentials.TOKEN);
        });
    }

    @Test
    void aSessionWhoseCredentialIsGoneAfterARestartIsStoppedWithOneLine() throws Throwable {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("998.5");
        Path cli = fake.write();
        String[] runId = new String[1];
        sessions.then(j -> {
            TestCredentials.addToken(j);
            WorkflowRun b = TestPipelines.create(j, "node { copilotAutopilot prompt: 'Create hello.txt', "
                    + "credentialsId: 'copilot-token', copilotPath: '" + cli + "' }").scheduleBuild2(0).waitForStart();
            j.waitForMessage("[copilot] Turn 1", b);
            runId[0] = fake.runId();
            SystemCredentialsProvider credentials = SystemCredentialsProvider.getInstance();
            credentials.getCredentials().clear();
            credentials.save();
        });
        sessions.then(j -> {
            WorkflowRun b = j.jenkins.getItemByFullName("p0", WorkflowJob.class).getBuildByNumber(1);
            j.waitForCompletion(b);
            j.assertBuildStatus(Result.FAILURE, b);
            j.assertLogContains("copilotAutopilot: credentialsId: no Secret text credential with ID 'copilot-token'", b);
            waitFor(() -> ProcessTable.survivorsOf(runId[0]).isEmpty(), Duration.ofSeconds(15));
            SessionFolders.assertNoSessionFolderLeft(j, b);
        });
    }

    private static void assertNoFileHolds(Path dir, String secret) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(Files::isRegularFile).filter(f -> {
                try {
                    return new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(secret);
                } catch (IOException e) {
                    return false;
                }
            }).toList(), is(empty()));
        }
    }

    /**
     * A launcher that takes for ever to start anything (a container that is slow to come up), and says when it is
     * waiting in a file beside the test's CLI.
     */
    static final class SlowLauncher extends LauncherDecorator implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String flag;

        SlowLauncher(String flag) {
            this.flag = flag;
        }

        static boolean waiting(Path dir) {
            return Files.exists(dir.resolve("launch-waiting"));
        }

        @Override
        public Launcher decorate(Launcher launcher, Node node) {
            return new Launcher.DecoratedLauncher(launcher) {
                @Override
                public Proc launch(Launcher.ProcStarter starter) throws IOException {
                    Files.writeString(Path.of(flag), "");
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new IOException("the container never came up");
                }
            };
        }
    }

    /** {@code slowToLaunch('flag file') { … }}: its body runs with {@link SlowLauncher}. */
    public static final class SlowToLaunchStep extends Step {
        private final String flag;

        @DataBoundConstructor
        public SlowToLaunchStep(String flag) {
            this.flag = flag;
        }

        public String getFlag() {
            return flag;
        }

        @Override
        public StepExecution start(StepContext context) {
            return new DecoratedBlock(context, new SlowLauncher(flag));
        }

        @TestExtension("aRestartWhileTheCliIsBeingStartedLeavesNothingRunningAndNoSecretBehind")
        public static final class DescriptorImpl extends DecoratedBlock.Descriptor {
            @Override
            public String getFunctionName() {
                return "slowToLaunch";
            }
        }
    }
}
