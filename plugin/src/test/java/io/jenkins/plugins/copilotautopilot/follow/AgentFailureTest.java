package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.agent.FolderDeletionsAccess;
import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.step.StopDeadlineAccess;
import io.jenkins.plugins.copilotautopilot.testing.AgentJvm;
import io.jenkins.plugins.copilotautopilot.testing.DecoratedBlock;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.SessionFolders;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.Launcher;
import hudson.LauncherDecorator;
import hudson.Proc;
import hudson.model.Node;
import hudson.model.Result;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.stream.Stream;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.BuildWatcherExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;
import org.kohsuke.stapler.DataBoundConstructor;

import static io.jenkins.plugins.copilotautopilot.testing.Waits.waitFor;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * What happens to a session when its agent fails: a JVM that dies alone (its sessions run on and are followed again),
 * a JVM that dies with every process it started (the session ends FAILED once the agent is back), a channel that
 * stops answering (other sessions are not held up, and an abort still ends the step), a wiped control folder.
 */
@WithJenkins
class AgentFailureTest {
    @RegisterExtension
    private static final BuildWatcherExtension BUILD_WATCHER = new BuildWatcherExtension();

    private JenkinsRule j;
    private long remoteTimeout;
    private long lostAfter;
    private long check;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
        remoteTimeout = AgentSession.REMOTE_TIMEOUT_SECONDS;
        lostAfter = AgentSession.LOST_AFTER_MILLIS;
        check = AgentSession.CHECK_MILLIS;
    }

    @AfterEach
    void restore() {
        AgentSession.REMOTE_TIMEOUT_SECONDS = remoteTimeout;
        AgentSession.LOST_AFTER_MILLIS = lostAfter;
        AgentSession.CHECK_MILLIS = check;
    }

    private static String step(Path cli) {
        return "copilotAutopilot prompt: 'Create hello.txt', credentialsId: 'copilot-token', copilotPath: '" + cli + "'";
    }


    private static long count(WorkflowRun b, String text) throws IOException {
        return b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains(text)).count();
    }

    @Test
    void anAgentJvmKilledAloneMidToolIsFollowedAgainWithNoLineLostOrRepeated() throws Exception {
        AgentJvm agent = AgentJvm.add(j, "crashing", tmp.resolve("agent"));
        Path goOn = tmp.resolve("go-on");
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").pausingAfterTheFirstTurnUntil(goOn);
        WorkflowRun b = TestPipelines.create(j, "node('crashing') { " + step(fake.write()) + " }").scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", b);
        String runId = fake.runId();

        agent.killJvm();
        assertThat("the CLI runs on without its agent", ProcessTable.survivorsOf(runId), not(empty()));
        j.waitForMessage("it keeps running on the agent, waiting to reconnect.", b);
        Files.createFile(goOn); // the rest of the session is written while no agent JVM reads it
        assertThat("the live page says so too", j.createWebClient().goTo(b.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/")
                .getBody().getTextContent(), containsString("Cannot follow the Copilot CLI right now"));
        j.jenkins.getComputer("crashing").connect(false).get();
        j.waitForCompletion(b);

        j.assertBuildStatus(Result.SUCCESS, b);
        String log = JenkinsRule.getLog(b);
        assertThat("the console says when the agent is back", log.indexOf("[copilot] crashing answers again: following the Copilot CLI again."),
                greaterThan(log.indexOf("waiting to reconnect.")));
        j.assertLogContains("[copilot] COMPLETED: The agent called task_complete after 2 turns.", b);
        for (String line : new String[] {"[copilot] Turn 1", "[copilot] Turn 2", "> bash:", "< bash ok", "[copilot] COMPLETED"}) {
            assertEquals(1, count(b, line), line);
        }
        assertThat(ProcessTable.survivorsOf(runId), is(empty()));
        SessionFolders.assertNoSessionFolderLeft(j, b);
    }

    /**
     * A stop the CLI does not confirm (here the agent's channel stops answering as the stop goes out) ends the step at
     * the step's own deadline, with its closing line and the session recorded; once the agent answers, the CLI is
     * stopped. That deadline comes before the minute {@code timeout} grants its body, after which Pipeline ends the step
     * without a word (see the test below).
     */
    @Test
    void aStopNotConfirmedWithinTheStepsDeadlineEndsTheStepWithItsClosingLineAndRecord() throws Exception {
        long deadline = StopDeadlineAccess.seconds(2);
        AgentSession.REMOTE_TIMEOUT_SECONDS = 30; // the stop's call is still waiting for the agent when the deadline comes
        try {
            AgentJvm agent = AgentJvm.add(j, "frozen", tmp.resolve("agent"));
            FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("993.5");
            WorkflowRun b = TestPipelines.create(j, "node('frozen') { " + step(fake.write()) + " }").scheduleBuild2(0).waitForStart();
            j.waitForMessage("[copilot] Turn 1", b);
            String runId = fake.runId();
            agent.freeze();
            try {
                b.doStop();
                j.waitForMessage("[copilot] The Copilot CLI did not stop within 2 seconds; the step ends anyway.", b);
                j.waitForCompletion(b);
                j.assertBuildStatus(Result.ABORTED, b);
                assertEquals(1, count(b, "[copilot] ABORTED: "), "one closing line");
                CopilotAutopilotRunAction action = b.getAction(CopilotAutopilotRunAction.class);
                assertNotNull(action, "the session is recorded on the build");
                assertEquals("ABORTED", action.getSessions().get(0).getEnding().getOutcome());
            } finally {
                agent.thaw();
            }
            // once the agent answers again, the stop reaches the CLI
            waitFor(() -> ProcessTable.survivorsOf(runId).isEmpty(), Duration.ofSeconds(90));
        } finally {
            StopDeadlineAccess.seconds(deadline);
        }
    }

    /** Outside Jenkins' unit tests, {@code timeout} grants its body a minute to end once stopped. */
    @Test
    void theStepsStopDeadlineIsShorterThanTheMinuteTimeoutGrantsItsBody() {
        assertThat("the deadline leaves time to record the session", StopDeadlineAccess.seconds(), lessThan(50L));
    }

    @Test
    void aLaunchWhoseAnswerIsLostLeavesNoCliRunningOnceTheAgentAnswersAgain() throws Exception {
        long retry = FolderDeletionsAccess.retrySeconds(1);
        try {
            AgentJvm agent = AgentJvm.add(j, "lost-answer", tmp.resolve("agent"));
            LostAnswerLauncher.dying = agent;
            FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("994.5");
            WorkflowRun b = TestPipelines.create(j, "node('lost-answer') { losingTheLaunchAnswer { " + step(fake.write()) + " } }")
                    .scheduleBuild2(0).waitForStart();
            String runId = fake.runId(); // the CLI did start
            j.waitForCompletion(b);
            j.assertBuildStatus(Result.FAILURE, b);
            j.assertLogContains("[copilot] The agent did not answer while the launch was cleaned up", b);
            assertThat("the CLI runs on without its agent", ProcessTable.survivorsOf(runId), not(empty()));

            j.jenkins.getComputer("lost-answer").connect(false).get();
            // its folders are deleted once the agent answers, and the watchdog stops the CLI when they are gone
            waitFor(() -> ProcessTable.survivorsOf(runId).isEmpty(), Duration.ofSeconds(60));
            Path tmpOfWorkspace = tmp.resolve("agent").resolve("workspace").resolve(b.getParent().getName() + "@tmp");
            assertThat(Files.isDirectory(tmpOfWorkspace), is(true));
            waitFor(() -> {
                try (Stream<Path> left = Files.list(tmpOfWorkspace)) {
                    return left.noneMatch(f -> f.getFileName().toString().startsWith("copilot-autopilot-"));
                } catch (IOException e) {
                    return false;
                }
            }, Duration.ofSeconds(30));
        } finally {
            FolderDeletionsAccess.retrySeconds(retry);
            LostAnswerLauncher.dying = null;
        }
    }

    /**
     * A launcher whose launch starts the process, then loses the agent's answer: the agent's JVM dies (what it started
     * runs on) and the launch fails, as when a channel breaks while the agent answers it.
     */
    static final class LostAnswerLauncher extends LauncherDecorator implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        static volatile AgentJvm dying;

        @Override
        public Launcher decorate(Launcher launcher, Node node) {
            return new Launcher.DecoratedLauncher(launcher) {
                @Override
                public Proc launch(Launcher.ProcStarter starter) throws IOException {
                    super.launch(starter);
                    try {
                        dying.killJvm();
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    throw new IOException("the agent's answer to the launch was lost");
                }
            };
        }
    }

    /** {@code losingTheLaunchAnswer { … }}: its body runs with {@link LostAnswerLauncher}. */
    public static final class LosingTheLaunchAnswerStep extends Step {
        @DataBoundConstructor
        public LosingTheLaunchAnswerStep() {
        }

        @Override
        public StepExecution start(StepContext context) {
            return new DecoratedBlock(context, new LostAnswerLauncher());
        }

        @TestExtension("aLaunchWhoseAnswerIsLostLeavesNoCliRunningOnceTheAgentAnswersAgain")
        public static final class DescriptorImpl extends DecoratedBlock.Descriptor {
            @Override
            public String getFunctionName() {
                return "losingTheLaunchAnswer";
            }
        }
    }

    /** durable-task's control folder of the session the fake CLI runs in (its COPILOT_HOME's parent). */
    private static Path controlFolderOf(FakeCopilot fake) throws Exception {
        return Path.of(fake.environment("COPILOT_HOME")).getParent();
    }

    /** The JVM killed mid-session, {@code damage} done to durable-task's place in the log meanwhile, the agent back. */
    private WorkflowRun killedAndBackWith(String name, java.util.function.Consumer<Path> damage) throws Exception {
        AgentJvm agent = AgentJvm.add(j, name, tmp.resolve("agent"));
        Path goOn = tmp.resolve("go-on");
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").pausingAfterTheFirstTurnUntil(goOn);
        WorkflowRun b = TestPipelines.create(j, "node('" + name + "') { " + step(fake.write()) + " }").scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", b);
        Path lastLocation = controlFolderOf(fake).resolve("last-location.txt"); // durable-task's place in the log, which its watch kept

        agent.killJvm();
        j.waitForMessage("it keeps running on the agent, waiting to reconnect.", b);
        damage.accept(lastLocation);
        Files.createFile(goOn);
        j.jenkins.getComputer(name).connect(false).get();
        j.waitForCompletion(b);
        assertCompletedOnce(b);
        return b;
    }

    /** The paused two-turn session ended as it should: SUCCESS, each of its lines once, no folder left. */
    private void assertCompletedOnce(WorkflowRun b) throws Exception {
        j.assertBuildStatus(Result.SUCCESS, b);
        j.assertLogContains("[copilot] COMPLETED: The agent called task_complete after 2 turns.", b);
        for (String line : new String[] {"[copilot] Turn 1", "[copilot] Turn 2", "> bash:", "< bash ok", "[copilot] COMPLETED"}) {
            assertEquals(1, count(b, line), line);
        }
        SessionFolders.assertNoSessionFolderLeft(j, b);
    }

    @Test
    void aWatchPlaceLeftEmptyByAKilledAgentDoesNotStopTheFollower() throws Exception {
        // an agent JVM that dies (or restarts itself on a lost connection) while durable-task rewrites its watch's place
        // in the log leaves the file empty: a watch of durable-task started after that gives up at once, unable to read
        // a number; the follower reads the log from where the controller has it, and goes on
        try (org.jvnet.hudson.test.LogRecorder watchLog = new org.jvnet.hudson.test.LogRecorder()
                .record("io.jenkins.plugins.copilotautopilot.agent.AgentWatch", java.util.logging.Level.INFO).capture(20)) {
            killedAndBackWith("emptied", file -> {
                try {
                    Files.write(file, new byte[0]);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertThat("the watch, not reading instead", watchLog.getMessages(), empty());
        }
    }

    @Test
    void aFollowerThatCannotRunIsReplacedByReadingTheSession() throws Exception {
        // every timer thread of the agent JVM held by other work: the follower looks no more, so once the log is ahead
        // of what was handed over at two checks, and a follower started again did not help either, the session is read
        // instead, as sh falls back to reading when its watch does not report; with an approvals folder, as
        // approveTools leaves one: the checks hand its requests over, which is no sign of a follower
        AgentSession.CHECK_MILLIS = 2_000;
        try (org.jvnet.hudson.test.LogRecorder watchLog = new org.jvnet.hudson.test.LogRecorder()
                .record("io.jenkins.plugins.copilotautopilot.agent.AgentWatch", java.util.logging.Level.INFO).capture(20)) {
            AgentJvm.add(j, "busy", tmp.resolve("agent"));
            Path goOn = tmp.resolve("go-on");
            Path release = tmp.resolve("release");
            FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").pausingAfterTheFirstTurnUntil(goOn);
            WorkflowRun b = TestPipelines.create(j, "node('busy') { " + step(fake.write()) + " }").scheduleBuild2(0).waitForStart();
            j.waitForMessage("[copilot] Turn 1", b);
            Files.createDirectories(controlFolderOf(fake).resolve(io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder.APPROVALS));
            try {
                j.jenkins.getComputer("busy").getChannel().call(new HoldTheTimer(release.toString()));
                Files.createFile(goOn);
                j.waitForCompletion(b);
            } finally {
                Files.createFile(release);
            }

            assertCompletedOnce(b);
            assertThat(watchLog.getMessages().toString(), containsString("hands nothing over; reading the session instead"));
        }
    }

    /** On the agent: holds every thread of jenkins.util.Timer until {@code release} exists (or five minutes passed). */
    private static final class HoldTheTimer extends jenkins.security.MasterToSlaveCallable<Void, Exception> {
        private static final long serialVersionUID = 1L;
        /** jenkins.util.Timer's pool size. */
        private static final int THREADS = 10;
        private final String release;

        HoldTheTimer(String release) {
            this.release = release;
        }

        @Override
        public Void call() throws Exception {
            java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(THREADS);
            for (int i = 0; i < THREADS; i++) {
                jenkins.util.Timer.get().submit(() -> {
                    held.countDown();
                    long until = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(5);
                    while (!Files.exists(Path.of(release)) && System.nanoTime() < until) {
                        Thread.sleep(20);
                    }
                    return null;
                });
            }
            if (!held.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("only " + (THREADS - held.getCount()) + " of the agent's timer threads could be held");
            }
            return null;
        }
    }

    /** A session hanging in its first turn on an agent of its own ("stopped"), which the test may kill. */
    private record Hanging(AgentJvm agent, WorkflowRun build, String runId) {
    }

    /** Starts {@code fake} on a new agent, a lost CLI told within seconds rather than a minute. */
    private Hanging hangingOnAgent(FakeCopilot fake) throws Exception {
        AgentSession.LOST_AFTER_MILLIS = 3_000;
        AgentSession.CHECK_MILLIS = 2_000;
        AgentJvm agent = AgentJvm.add(j, "stopped", tmp.resolve("agent"));
        WorkflowRun b = TestPipelines.create(j, "node('stopped') { " + step(fake.write()) + " }").scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", b);
        return new Hanging(agent, b, fake.runId());
    }

    @Test
    void anAgentKilledWithItsProcessesEndsTheSessionFailedSoonAfterItIsBack() throws Exception {
        Hanging started = hangingOnAgent(FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("995.5"));
        AgentJvm agent = started.agent();
        WorkflowRun b = started.build();
        String runId = started.runId();

        agent.killWithItsProcesses();
        waitFor(() -> ProcessTable.survivorsOf(runId).isEmpty(), Duration.ofSeconds(10));
        long back = System.nanoTime();
        j.jenkins.getComputer("stopped").connect(false).get();
        j.waitForCompletion(b);

        assertThat(Duration.ofNanos(System.nanoTime() - back), lessThan(Duration.ofSeconds(60)));
        j.assertBuildStatus(Result.FAILURE, b);
        j.assertLogContains("the Copilot CLI was lost with stopped", b);
        SessionFolders.assertNoSessionFolderLeft(j, b);
    }

    @Test
    void aToolInAGroupOfItsOwnThatOutlivesItsAgentsKillIsEndedWithTheSessionsFolders() throws Exception {
        Hanging started = hangingOnAgent(FakeCopilot.in(tmp).replaying("cli-happy").hangingApartWith("995.7"));
        AgentJvm agent = started.agent();
        WorkflowRun b = started.build();
        String runId = started.runId();
        waitFor(() -> ProcessTable.survivorsOf(runId).stream().anyMatch(p -> p.contains("sleep 995.7")), Duration.ofSeconds(10));

        agent.killWithItsProcesses();
        // the CLI and its watchdog are gone with the agent; the tool, in a group of its own, is not
        waitFor(() -> ProcessTable.survivorsOf(runId).stream().allMatch(p -> p.contains("sleep 995.7")), Duration.ofSeconds(10));
        assertThat(ProcessTable.survivorsOf(runId), not(empty()));
        j.jenkins.getComputer("stopped").connect(false).get();
        j.waitForCompletion(b);

        j.assertBuildStatus(Result.FAILURE, b);
        waitFor(() -> ProcessTable.survivorsOf(runId).isEmpty(), Duration.ofSeconds(30));
        SessionFolders.assertNoSessionFolderLeft(j, b);
    }

    @Test
    void aChannelThatNeverAnswersHoldsUpOnlyItsOwnSessionAndAnAbortStillEndsIt() throws Exception {
        AgentSession.REMOTE_TIMEOUT_SECONDS = 5;
        AgentJvm agent = AgentJvm.add(j, "frozen", tmp.resolve("agent"));
        FakeCopilot hung = FakeCopilot.in(tmp.resolve("hung")).replaying("cli-happy").hangingWith("996.5");
        WorkflowRun frozen = TestPipelines.create(j, "node('frozen') { " + step(hung.write()) + " }").scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", frozen);
        String frozenRunId = hung.runId();
        agent.freeze();
        try {
            // another session keeps its log flowing: a message every quarter second for ten seconds
            Path chatty = ticking(tmp.resolve("chatty"), 40);
            long started = System.nanoTime();
            WorkflowRun flowing = j.buildAndAssertSuccess(TestPipelines.create(j, "node { " + step(chatty) + " }"));
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertEquals(40, count(flowing, "[copilot]   tick "), "every line arrived");
            assertThat("the other session was not held up", took, lessThan(Duration.ofSeconds(25)));

            long aborted = System.nanoTime();
            frozen.doStop();
            j.waitForCompletion(frozen);
            Duration abortTook = Duration.ofNanos(System.nanoTime() - aborted);
            j.assertBuildStatus(Result.ABORTED, frozen);
            j.assertLogContains("it may still be running", frozen);
            assertThat("the abort ended the step without the agent", abortTook, lessThan(Duration.ofSeconds(40)));
        } finally {
            agent.thaw();
        }
        // once the agent answers again, the stop it was asked for reaches the CLI
        waitFor(() -> ProcessTable.survivorsOf(frozenRunId).isEmpty(), Duration.ofSeconds(60));
    }

    /** A CLI that prints {@code count} assistant messages a quarter second apart, then ends a session. */
    private static Path ticking(Path dir, int count) throws IOException {
        Files.createDirectories(dir);
        Path cli = dir.resolve("copilot");
        String happy = io.jenkins.plugins.copilotautopilot.core.testing.Captures.stdoutText("cli-happy");
        Files.writeString(dir.resolve("happy.jsonl"), happy, StandardCharsets.UTF_8);
        Files.writeString(cli, "#!/bin/sh\ncat > /dev/null\ni=1\nwhile [ $i -le " + count + " ]; do\n"
                + "  printf '{\"type\":\"assistant.message\",\"data\":{\"content\":\"tick %s\"}}\\n' $i\n  sleep 0.25\n  i=$((i + 1))\ndone\n"
                + "cat '" + dir.resolve("happy.jsonl") + "'\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rwxr-xr-x"));
        return cli;
    }

    @Test
    void aControlFolderWipedMidSessionStopsTheCliAndFailsTheStep() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("997.5");
        WorkflowRun b = TestPipelines.create(j, "node { " + step(fake.write()) + " }").scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", b);
        String runId = fake.runId();

        Path workspaceTmp = Path.of(j.jenkins.getWorkspaceFor(b.getParent()).getRemote() + "@tmp");
        try (Stream<Path> files = Files.walk(workspaceTmp)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        j.waitForCompletion(b);

        j.assertBuildStatus(Result.FAILURE, b);
        assertThat(b.getLog(), containsString("is gone (was the workspace deleted?)"));
        waitFor(() -> ProcessTable.survivorsOf(runId).isEmpty(), Duration.ofSeconds(10));
    }
}
