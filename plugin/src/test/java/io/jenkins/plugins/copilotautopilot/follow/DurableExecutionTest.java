package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import io.jenkins.plugins.copilotautopilot.testing.SessionFolders;
import io.jenkins.plugins.copilotautopilot.testing.Waits;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotBuilder;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep;
import io.jenkins.plugins.copilotautopilot.testing.AgentJvm;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import hudson.slaves.OfflineCause;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.BuildWatcherExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The step runs the CLI as {@code sh} runs a script: detached on the agent, followed from the controller,
 * stopped cleanly, re-attached after an agent reconnect, and through container launchers without a shell ever
 * reading the task.
 */
@WithJenkins
class DurableExecutionTest {
    @RegisterExtension
    private static final BuildWatcherExtension BUILD_WATCHER = new BuildWatcherExtension();

    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
    }

    private static String step(Path cli, String more) {
        return "copilotAutopilot prompt: 'Create hello.txt', credentialsId: 'copilot-token', copilotPath: '" + cli + "'" + more;
    }

    private static void awaitFile(Path file) throws InterruptedException {
        for (int i = 0; i < 300 && !Files.exists(file); i++) {
            Thread.sleep(100);
        }
        assertTrue(Files.exists(file), file + " never appeared");
    }

    /** A Pipeline build whose session hangs in its first turn, and the run id of its CLI's processes. */
    private record Hanging(WorkflowRun build, String runId) {
    }

    private Hanging hangingInTurnOne(String hangSeconds) throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith(hangSeconds);
        Path cli = fake.write();
        WorkflowJob p = TestPipelines.create(j, "node { " + step(cli, "") + " }");
        WorkflowRun b = p.scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", b);
        awaitFile(fake.envFile());
        String runId = fake.runId();
        assertThat(ProcessTable.survivorsOf(runId), not(empty()));
        return new Hanging(b, runId);
    }

    @Test
    void aPipelineAbortEndsOnlyOnceTheCliTreeIsGoneAndTheSessionIsRecorded() throws Exception {
        Hanging started = hangingInTurnOne("991.5");
        WorkflowRun b = started.build();
        String runId = started.runId();

        b.doStop();
        j.waitForCompletion(b);

        j.assertBuildStatus(Result.ABORTED, b);
        // the step ended after the CLI was gone, with the closing lines written and the session saved
        assertThat(ProcessTable.survivorsOf(runId), is(empty()));
        j.assertLogContains("[copilot] ABORTED: Aborted while waiting for the model in turn 1; the Copilot CLI was stopped.", b);
        CopilotAutopilotRunAction action = b.getAction(CopilotAutopilotRunAction.class);
        assertNotNull(action);
        assertEquals("ABORTED", action.getSessions().get(0).getEnding().getOutcome());
        assertThat(Files.readString(b.getRootDir().toPath().resolve("build.xml")), containsString("ABORTED"));
    }

    @Test
    void aPipelineEndedByForceStillStopsItsCliAndDeletesItsFolders() throws Exception {
        Hanging started = hangingInTurnOne("991.7");
        WorkflowRun b = started.build();
        String runId = started.runId();

        // the last of the stop button's escalations: the build ends at once, and its steps are told nothing
        b.doKill();
        j.waitForCompletion(b);

        j.assertBuildStatus(Result.ABORTED, b);
        Waits.waitFor(() -> ProcessTable.survivorsOf(runId).isEmpty(), java.time.Duration.ofSeconds(60));
        Waits.waitFor(() -> SessionFolders.left(j, b).isEmpty(), java.time.Duration.ofSeconds(30));
    }

    @Test
    void aFreestyleAbortEndsAbortedWithTheSessionRecorded() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").hangingWith("992.5");
        Path cli = fake.write();
        FreeStyleProject project = j.createFreeStyleProject();
        CopilotAutopilotBuilder builder = new CopilotAutopilotBuilder(new CopilotAutopilotStep("Create hello.txt"));
        builder.getTask().setCredentialsId(TestCredentials.TOKEN_ID);
        builder.getTask().setCopilotPath(cli.toString());
        project.getBuildersList().add(builder);
        FreeStyleBuild b = project.scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", b);
        awaitFile(fake.envFile());
        String runId = fake.runId();

        b.doStop();
        j.waitForCompletion(b);

        j.assertBuildStatus(Result.ABORTED, b);
        j.assertLogNotContains("ClosedByInterruptException", b);
        j.assertLogContains("[copilot] ABORTED:", b);
        assertThat(ProcessTable.survivorsOf(runId), is(empty()));
        assertEquals("ABORTED", b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getEnding().getOutcome());
        // saved: the record is there after the build is loaded again from disk
        j.jenkins.reload();
        FreeStyleBuild reloaded = j.jenkins.getItemByFullName(project.getFullName(), FreeStyleProject.class).getBuildByNumber(b.getNumber());
        assertEquals("ABORTED", reloaded.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getEnding().getOutcome());
    }

    @Test
    void theBuildSurvivesAReloadWithItsBadgeAndSessionPage() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").write();
        WorkflowJob p = TestPipelines.create(j, "node { " + step(cli, "") + " }");
        WorkflowRun b = j.buildAndAssertSuccess(p);

        j.jenkins.reload();

        WorkflowRun reloaded = j.jenkins.getItemByFullName(p.getFullName(), WorkflowJob.class).getBuildByNumber(b.getNumber());
        CopilotAutopilotRunAction action = reloaded.getAction(CopilotAutopilotRunAction.class);
        assertEquals("COMPLETED", action.getWorstOutcome());
        assertTrue(action.getSessions().get(0).getJournalFile().endsWith(".jsonl.gz"), "the journal is kept compressed");
        JenkinsRule.WebClient web = j.createWebClient();
        assertThat(web.getPage(reloaded, CopilotAutopilotRunAction.URL_NAME + "/").asNormalizedText(), containsString("Created hello.txt"));
        assertThat(web.getPage(p).asNormalizedText(), containsString("#" + b.getNumber()));
        // no checkpoint or control folder is left behind
        try (var files = Files.list(reloaded.getRootDir().toPath().resolve(SessionFiles.FOLDER))) {
            assertThat(files.map(f -> f.getFileName().toString()).collect(Collectors.toList()), not(hasItem(containsString("checkpoint"))));
        }
    }

    @Test
    void theFirstStepOnAFreshAgentCreatesTheWorkspaceAndTheWorkingDirectory() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy");
        Path cli = fake.write();
        j.createOnlineSlave(hudson.model.Label.get("fresh"));
        WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j,
                "node('fresh') { " + step(cli, ", workingDirectory: 'sub/dir'") + " }"));
        j.assertLogContains("[copilot] COMPLETED", b);
        assertTrue(Files.readString(tmp.resolve("pwd.txt")).trim().endsWith("/sub/dir"));
    }

    @Test
    void anAgentThatReconnectsIsFollowedAgain() throws Exception {
        AgentJvm.add(j, "flaky", tmp.resolve("agent"));
        Path goOn = tmp.resolve("go-on");
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").pausingAfterTheFirstTurnUntil(goOn).write();
        WorkflowRun b = TestPipelines.create(j, "node('flaky') { " + step(cli, "") + " }").scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Turn 1", b);

        j.jenkins.getComputer("flaky").disconnect(new OfflineCause.UserCause(null, "a short network problem")).get();
        j.waitForMessage("[copilot] Cannot follow the Copilot CLI right now", b);
        Files.createFile(goOn);
        j.jenkins.getComputer("flaky").connect(false).get();
        j.waitForCompletion(b);

        j.assertBuildStatus(Result.SUCCESS, b);
        j.assertLogContains("[copilot] COMPLETED: The agent called task_complete after 2 turns.", b);
        assertEquals(1, countLines(b, "[copilot] Turn 1"), "no line is printed twice");
    }

    @Test
    void whatCameJustBeforeAQuietSpellIsCheckpointedDuringIt() throws Exception {
        // the message comes half a second after a line whose hand-over saved a checkpoint, sooner than the next is
        // due, and then nothing comes until the test has seen the checkpoint, as while a tool runs silently
        Path goOn = tmp.resolve("go-on");
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").sayingAfterTheFirstTurn("Now the tests run quietly")
                .pausingAfterTheFirstTurnUntil(goOn).write();
        WorkflowRun b = TestPipelines.create(j, "node { " + step(cli, "") + " }").scheduleBuild2(0).waitForStart();
        j.waitForMessage("Now the tests run quietly", b);

        // a controller killed now resumes from this checkpoint: it counts the message, which is not printed again
        Waits.waitFor(() -> {
            try {
                return checkpointCounts(b, "Now the tests run quietly");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, Duration.ofSeconds(60), b);
        Files.createFile(goOn);
        j.assertBuildStatusSuccess(j.waitForCompletion(b));
    }

    /** Whether the journal, as far as the session's checkpoint counts it, holds this text. */
    private static boolean checkpointCounts(WorkflowRun b, String text) throws IOException {
        try (var files = Files.list(b.getRootDir().toPath().resolve(SessionFiles.FOLDER))) {
            for (Path checkpoint : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".checkpoint"))::iterator) {
                String name = checkpoint.getFileName().toString();
                Path journal = checkpoint.resolveSibling(name.substring(0, name.length() - ".checkpoint".length()) + ".jsonl");
                long counted = io.jenkins.plugins.copilotautopilot.core.engine.CheckpointFile.read(checkpoint).journalBytes();
                byte[] written = Files.readAllBytes(journal);
                String upToCheckpoint = new String(written, 0, (int) Math.min(counted, written.length), StandardCharsets.UTF_8);
                if (upToCheckpoint.contains(text)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void secretsBoundWithWithCredentialsAreMaskedAndHiddenFromTools() throws Exception {
        TestCredentials.addSecretText(j, "other", "s3cr3t-other-value-4711");
        FakeCopilot fake = FakeCopilot.in(tmp).replaying("cli-happy").sayingFirst("other is $OTHER and x is $X and gh is $GH_TOKEN");
        Path cli = fake.write();
        WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, "node { withEnv(['X=a$b$$c', 'GH_TOKEN=ghp_fromTheEnvironment42']) {"
                + " withCredentials([string(credentialsId: 'other', variable: 'OTHER')]) { " + step(cli, "") + " } } }"));

        j.assertLogNotContains("s3cr3t-other-value-4711", b);
        j.assertLogNotContains("ghp_fromTheEnvironment42", b);
        String journal = journalText(b);
        assertThat(journal, not(containsString("s3cr3t-other-value-4711")));
        assertThat(journal, not(containsString("ghp_fromTheEnvironment42")));
        // a $ in an inherited value arrives as it was: no launcher expanded it
        assertThat(journal, containsString("x is a$b$$c"));
        List<String> args = Files.readAllLines(fake.argsFile());
        String secretVars = args.stream().filter(a -> a.startsWith("--secret-env-vars=")).findFirst().orElseThrow();
        assertThat(List.of(secretVars.substring("--secret-env-vars=".length()).split(",")),
                org.hamcrest.Matchers.hasItems("COPILOT_GITHUB_TOKEN", "OTHER", "GH_TOKEN"));
    }

    private static String journalText(WorkflowRun b) throws IOException {
        CopilotAutopilotRunAction action = b.getAction(CopilotAutopilotRunAction.class);
        Path file = b.getRootDir().toPath().resolve(SessionFiles.FOLDER).resolve(action.getSessions().get(0).getJournalFile());
        try (var in = io.jenkins.plugins.copilotautopilot.core.journal.JournalFiles.open(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static long countLines(WorkflowRun b, String line) throws IOException {
        return b.getLog(Integer.MAX_VALUE).stream().filter(l -> l.contains(line)).count();
    }
}
