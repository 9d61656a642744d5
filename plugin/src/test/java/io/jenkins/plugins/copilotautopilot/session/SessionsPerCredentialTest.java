package io.jenkins.plugins.copilotautopilot.session;

import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotBuilder;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.usage.FolderQuotas;
import io.jenkins.plugins.copilotautopilot.usage.QuotaConfiguration;

import com.cloudbees.hudson.plugins.folder.Folder;
import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sessions at once per GitHub credential: a cap of three holds ten builds to three CLIs at a time, all completing;
 * waiters start in the order they came; an abort takes a waiter out of the queue at once; a folder's cap counts the
 * folder's sessions only; a Freestyle build waits on its executor; the forms keep the caps.
 */
@WithJenkins
@Timeout(300)
class SessionsPerCredentialTest {
    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        j = rule;
        j.jenkins.setNumExecutors(12); // each node block takes one while its session waits or runs
        TestCredentials.addToken(j);
    }

    static void waitFor(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            Thread.sleep(50);
        }
    }

    static boolean logContains(hudson.model.Run<?, ?> b, String text) {
        try {
            return JenkinsRule.getLog(b).contains(text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static List<String> lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    }

    static String step(Path cli) {
        return "node { copilotAutopilot prompt: 'Create hello.txt', credentialsId: 'copilot-token', copilotPath: '" + cli + "' }";
    }

    private WorkflowJob job(Folder folder, String name, Path cli) throws Exception {
        WorkflowJob p = folder == null ? j.createProject(WorkflowJob.class, name) : folder.createProject(WorkflowJob.class, name);
        p.setDefinition(new CpsFlowDefinition(step(cli), true));
        return p;
    }

    /** Starts a build and waits until it holds its slot or waits for one. */
    private WorkflowRun startAndClaim(WorkflowJob p) throws Exception {
        WorkflowRun b = p.scheduleBuild2(0).waitForStart();
        String name = "#" + b.getNumber() + " of " + p.getFullName();
        waitFor(() -> CredentialSlots.get().holders().contains(name) || CredentialSlots.get().waiters().contains(name),
                Duration.ofSeconds(60), name + " claims its slot");
        return b;
    }

    @Test
    void tenBuildsWithACapOfThreeNeverRunMoreThanThreeSessionsAndAllComplete() throws Exception {
        QuotaConfiguration.get().setSessionsPerCredential(3);
        Path runs = tmp.resolve("runs");
        Path go = tmp.resolve("go");
        Path cli = FakeCopilot.in(tmp.resolve("cli")).replaying("cli-happy").pausingAfterTheFirstTurnUntil(go).countingRunsIn(runs).write();
        List<WorkflowRun> builds = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            builds.add(startAndClaim(job(null, "app" + i, cli)));
        }
        Files.createFile(go); // the three that hold a slot go on once all ten have claimed theirs
        for (WorkflowRun b : builds) {
            j.assertBuildStatusSuccess(j.waitForCompletion(b));
            j.assertLogContains("[copilot] COMPLETED", b);
        }
        List<Integer> counts = lines(runs.resolve("counts.txt")).stream().map(Integer::valueOf).toList();
        assertEquals(10, counts.size(), "ten CLIs ran: " + counts);
        assertEquals(3, counts.stream().mapToInt(Integer::intValue).max().orElseThrow(), "at most three at once, and three did: " + counts);
        WorkflowRun fourth = builds.get(3);
        j.assertLogContains("[copilot] Waiting for a session slot of credential 'copilot-token' (3 of 3 running: #1 of app0, #1 of app1, #1 of app2)", fourth);
        assertTrue(java.util.regex.Pattern.compile("\\[copilot] Session slot of credential 'copilot-token' free after \\d+ s, starting")
                .matcher(JenkinsRule.getLog(fourth)).find(), JenkinsRule.getLog(fourth));
        assertEquals(List.of(), CredentialSlots.get().holders(), "every slot freed");
        assertEquals(List.of(), CredentialSlots.get().waiters());
    }

    @Test
    void waitersStartInTheOrderTheyCame() throws Exception {
        QuotaConfiguration.get().setSessionsPerCredential(1);
        Path runs = tmp.resolve("runs");
        Path go = tmp.resolve("go");
        Path cli = FakeCopilot.in(tmp.resolve("cli")).replaying("cli-happy").pausingAfterTheFirstTurnUntil(go).countingRunsIn(runs).write();
        List<WorkflowRun> builds = new ArrayList<>();
        for (String name : List.of("first", "second", "third", "fourth", "fifth")) {
            builds.add(startAndClaim(job(null, name, cli)));
        }
        assertEquals(List.of("#1 of second", "#1 of third", "#1 of fourth", "#1 of fifth"), CredentialSlots.get().waiters());
        Files.createFile(go);
        for (WorkflowRun b : builds) {
            j.assertBuildStatusSuccess(j.waitForCompletion(b));
        }
        assertEquals(List.of("first", "second", "third", "fourth", "fifth"), lines(runs.resolve("starts.txt")));
        assertEquals(List.of("1", "1", "1", "1", "1"), lines(runs.resolve("counts.txt")));
    }

    @Test
    void aBuildAbortedWhileItWaitsLeavesTheQueueAtOnce() throws Exception {
        QuotaConfiguration.get().setSessionsPerCredential(1);
        Path runs = tmp.resolve("runs");
        Path go = tmp.resolve("go");
        Path cli = FakeCopilot.in(tmp.resolve("cli")).replaying("cli-happy").pausingAfterTheFirstTurnUntil(go).countingRunsIn(runs).write();
        WorkflowRun holder = startAndClaim(job(null, "holder", cli));
        WorkflowRun aborted = startAndClaim(job(null, "aborted", cli));
        WorkflowRun next = startAndClaim(job(null, "next", cli));
        j.waitForMessage("[copilot] Waiting for a session slot of credential 'copilot-token' (1 of 1 running: #1 of holder)", aborted);

        aborted.doStop();
        j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(aborted));
        j.assertLogContains("[copilot] Stopped while waiting for a session slot of credential 'copilot-token': the step left the queue.", aborted);
        assertEquals(List.of("#1 of next"), CredentialSlots.get().waiters(), "out of the queue before the holder ended");
        assertTrue(holder.isBuilding(), "the holder still runs");
        Files.createFile(go);

        j.assertBuildStatusSuccess(j.waitForCompletion(holder));
        j.assertBuildStatusSuccess(j.waitForCompletion(next));
        assertEquals(List.of("holder", "next"), lines(runs.resolve("starts.txt")), "the aborted build's CLI never ran");
        j.assertLogNotContains("[copilot] Turn", aborted);
    }

    @Test
    void aFolderCapCountsTheFoldersSessionsAndTheTighterApplies() throws Exception {
        QuotaConfiguration.get().setSessionsPerCredential(3);
        Folder team = j.jenkins.createProject(Folder.class, "team");
        FolderQuotas cap = new FolderQuotas(List.of());
        cap.setSessionsPerCredential(1);
        team.getProperties().add(cap);
        Path runs = tmp.resolve("runs");
        Path go = tmp.resolve("go");
        Path cli = FakeCopilot.in(tmp.resolve("cli")).replaying("cli-happy").pausingAfterTheFirstTurnUntil(go).countingRunsIn(runs).write();

        WorkflowRun a = startAndClaim(job(team, "a", cli));
        WorkflowRun b = startAndClaim(job(team, "b", cli));
        WorkflowRun outside = startAndClaim(job(null, "outside", cli));
        j.waitForMessage("[copilot] Waiting for a session slot of credential 'copilot-token' (1 of 1 running in folder team: #1 of team/a)", b);
        assertEquals(List.of("#1 of team/b"), CredentialSlots.get().waiters(), "the job outside the folder does not wait");
        assertTrue(CredentialSlots.get().holders().contains("#1 of outside"));
        Files.createFile(go);

        for (WorkflowRun r : List.of(a, b, outside)) {
            j.assertBuildStatusSuccess(j.waitForCompletion(r));
        }
        j.assertLogNotContains("Waiting for a session slot", outside);
        j.assertLogNotContains("Waiting for a session slot", a);
    }

    @Test
    void aFreestyleBuildWaitsOnItsExecutorAndAnAbortEndsTheWait() throws Exception {
        QuotaConfiguration.get().setSessionsPerCredential(1);
        Path runs = tmp.resolve("runs");
        Path go = tmp.resolve("go");
        Path cli = FakeCopilot.in(tmp.resolve("cli")).replaying("cli-happy").pausingAfterTheFirstTurnUntil(go).countingRunsIn(runs).write();
        WorkflowRun holder = startAndClaim(job(null, "holder", cli));

        FreeStyleProject waits = freestyle("waits", cli);
        FreeStyleProject aborted = freestyle("aborted", cli);
        FreeStyleBuild w = waits.scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Waiting for a session slot of credential 'copilot-token' (1 of 1 running: #1 of holder)", w);
        FreeStyleBuild a = aborted.scheduleBuild2(0).waitForStart();
        j.waitForMessage("[copilot] Waiting for a session slot of credential 'copilot-token'", a);
        a.getExecutor().interrupt();
        j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(a));
        j.assertLogContains("[copilot] Stopped while waiting for a session slot of credential 'copilot-token': the step left the queue.", a);
        Files.createFile(go);

        j.assertBuildStatusSuccess(j.waitForCompletion(holder));
        j.assertBuildStatusSuccess(j.waitForCompletion(w));
        j.assertLogContains("[copilot] Session slot of credential 'copilot-token' free after", w);
        assertEquals(List.of("holder", "waits"), lines(runs.resolve("starts.txt")));
        assertEquals(List.of(), CredentialSlots.get().holders());
    }

    private FreeStyleProject freestyle(String name, Path cli) throws Exception {
        CopilotAutopilotStep task = new CopilotAutopilotStep("Create hello.txt");
        task.setCredentialsId("copilot-token");
        task.setCopilotPath(cli.toString());
        FreeStyleProject p = j.createFreeStyleProject(name);
        p.getBuildersList().add(new CopilotAutopilotBuilder(task));
        return p;
    }

    @Test
    void sessionsWithoutAGithubTokenAreNotCapped() throws Exception {
        QuotaConfiguration.get().setSessionsPerCredential(1);
        Path runs = tmp.resolve("runs");
        Path go = tmp.resolve("go");
        Path cli = FakeCopilot.in(tmp.resolve("cli")).replaying("cli-happy").pausingAfterTheFirstTurnUntil(go).countingRunsIn(runs).write();
        String byok = "node { copilotAutopilot prompt: 'Create hello.txt', providerBaseUrl: 'http://127.0.0.1:9', model: 'm', copilotPath: '" + cli + "' }";
        WorkflowJob one = j.createProject(WorkflowJob.class, "one");
        one.setDefinition(new CpsFlowDefinition(byok, true));
        WorkflowJob two = j.createProject(WorkflowJob.class, "two");
        two.setDefinition(new CpsFlowDefinition(byok, true));
        WorkflowRun b1 = one.scheduleBuild2(0).waitForStart();
        WorkflowRun b2 = two.scheduleBuild2(0).waitForStart();
        waitFor(() -> {
            try {
                return lines(runs.resolve("starts.txt")).size() == 2;
            } catch (IOException e) {
                return false;
            }
        }, Duration.ofSeconds(60), "both CLIs run at once, over a cap of one");
        Files.createFile(go);
        j.assertBuildStatusSuccess(j.waitForCompletion(b1));
        j.assertBuildStatusSuccess(j.waitForCompletion(b2));
        j.assertLogNotContains("session slot", b1);
        j.assertLogNotContains("session slot", b2);
    }

    @Test
    void theSystemPageAndTheFolderPageKeepTheCaps() throws Exception {
        QuotaConfiguration.get().setSessionsPerCredential(4);
        j.configRoundtrip();
        assertEquals(Integer.valueOf(4), QuotaConfiguration.get().getSessionsPerCredential());
        assertEquals(Integer.valueOf(4), new QuotaConfiguration().getSessionsPerCredential(), "saved");

        JenkinsRule.WebClient wc = j.createWebClient();
        wc.setThrowExceptionOnFailingStatusCode(false);
        HtmlForm form = wc.goTo("manage/configure").getFormByName("config");
        form.getInputByName("_.sessionsPerCredential").setValue("2.5");
        HtmlPage refused = j.submit(form);
        assertThat(refused.getWebResponse().getStatusCode() >= 400, is(true));
        assertThat(refused.getWebResponse().getContentAsString(),
                containsString("The sessions at once per GitHub credential are a whole number, not 2.5."));
        assertEquals(Integer.valueOf(4), QuotaConfiguration.get().getSessionsPerCredential(), "a refused form changes nothing");
        form = wc.goTo("manage/configure").getFormByName("config");
        form.getInputByName("_.sessionsPerCredential").setValue("");
        j.submit(form);
        assertNull(QuotaConfiguration.get().getSessionsPerCredential(), "blank: no cap");

        Folder team = j.jenkins.createProject(Folder.class, "team");
        FolderQuotas cap = new FolderQuotas(List.of());
        cap.setSessionsPerCredential(2);
        team.getProperties().add(cap);
        j.configRoundtrip(team);
        FolderQuotas kept = team.getProperties().get(FolderQuotas.class);
        assertNotNull(kept, "a folder with a cap and no quota keeps its property");
        assertEquals(Integer.valueOf(2), kept.getSessionsPerCredential());
        assertEquals(List.of(), kept.getQuotas());
        HtmlForm folderForm = j.createWebClient().getPage(team, "configure").getFormByName("config");
        folderForm.getInputByName("_.sessionsPerCredential").setValue("");
        j.submit(folderForm);
        assertNull(team.getProperties().get(FolderQuotas.class), "no cap and no quota: no property");
    }

    @Test
    void aRaisedCapStartsTheWaitersAtOnce() throws Exception {
        QuotaConfiguration.get().setSessionsPerCredential(1);
        Path runs = tmp.resolve("runs");
        Path cli = FakeCopilot.in(tmp.resolve("cli")).replaying("cli-happy").pausingAfterTheFirstTurnUntil(tmp.resolve("never"))
                .countingRunsIn(runs).write();
        List<WorkflowRun> builds = new ArrayList<>();
        for (int i : IntStream.range(0, 3).toArray()) {
            builds.add(startAndClaim(job(null, "app" + i, cli)));
        }
        assertEquals(2, CredentialSlots.get().waiters().size());
        QuotaConfiguration.get().setSessionsPerCredential(3);
        waitFor(() -> CredentialSlots.get().waiters().isEmpty(), Duration.ofSeconds(30), "the waiters start");
        waitFor(() -> {
            try {
                return lines(runs.resolve("starts.txt")).size() == 3;
            } catch (IOException e) {
                return false;
            }
        }, Duration.ofSeconds(60), "three CLIs started while the first still runs");
        assertTrue(builds.get(0).isBuilding(), "the first session still runs");
        for (WorkflowRun b : builds) {
            b.doStop();
        }
        for (WorkflowRun b : builds) {
            j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(b));
        }
        assertEquals(List.of(), CredentialSlots.get().holders());
    }
}
