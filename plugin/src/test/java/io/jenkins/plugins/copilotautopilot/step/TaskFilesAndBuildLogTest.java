package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.FilePath;
import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What goes into a task besides {@code prompt} and what comes out besides the map: {@code promptFile} (the task from a
 * workspace file), {@code includeBuildLog} (the build's console so far) and {@code changesFile} (the agent's changes as a
 * patch file).
 */
@WithJenkins
class TaskFilesAndBuildLogTest {

    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
    }

    private static String step(Path cli, String settings) {
        return "copilotAutopilot credentialsId: 'copilot-token', copilotPath: '" + cli + "', " + settings;
    }

    @Test
    void aWorkspaceFileIsTheTaskByteForByte() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp);
        Path cli = fake.write();
        String task = "Fix the build.\\nThe failing test is in test/math.test.js — make it pass.";
        WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, "node { dir('sub') {\n"
                + "  writeFile file: '.ci/task.md', text: \"" + task + "\"\n"
                + "  " + step(cli, "promptFile: '.ci/task.md'") + "\n"
                + "} }"));

        String expected = "Fix the build.\nThe failing test is in test/math.test.js — make it pass.";
        assertEquals(expected, Files.readString(fake.stdinFile(), StandardCharsets.UTF_8));
        j.assertLogContains("[copilot] The task is the text of .ci/task.md (" + expected.length() + " characters).", b);
    }

    @Test
    void aMissingEmptyOrDoubleTaskFailsWithOneLineBeforeTheCliStarts() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp);
        Path cli = fake.write();
        WorkflowRun missing = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j, "node { "
                + step(cli, "promptFile: 'nowhere.md'") + " }").scheduleBuild2(0));
        j.assertLogContains("promptFile 'nowhere.md' does not exist in ", missing);
        j.assertLogNotContains("\tat ", missing);

        WorkflowRun empty = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j, "node { writeFile file: 'task.md', text: ' \\n'\n"
                + step(cli, "promptFile: 'task.md'") + " }").scheduleBuild2(0));
        j.assertLogContains("promptFile 'task.md' is empty: write the task in it.", empty);

        WorkflowRun both = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j, "node { writeFile file: 'task.md', text: 'x'\n"
                + step(cli, "prompt: 'y', promptFile: 'task.md'") + " }").scheduleBuild2(0));
        j.assertLogContains("Give the task as prompt or as promptFile, not both.", both);
        assertTrue(Files.notExists(fake.argsFile()), "the CLI was never started");
    }

    @Test
    void theBuildsConsoleFollowsTheTaskMaskedAndWithoutThePluginsOwnLines() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp);
        Path cli = fake.write();
        WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, "node {\n"
                + "  echo 'the old token was " + TestCredentials.TOKEN + "'\n"
                + "  sh 'printf \"\\\\033[31mFAIL\\\\033[0m add 2 3 = -1\\\\n\"'\n"
                + "  " + step(cli, "prompt: 'First session.'") + "\n"
                + "  " + step(cli, "prompt: 'Why did this build fail? Fix it.', includeBuildLog: 30") + "\n"
                + "}"));

        String task = Files.readString(fake.stdinFile(), StandardCharsets.UTF_8);
        assertThat(task, startsWithText("Why did this build fail? Fix it.\n\nThe last "));
        assertThat(task, containsString("the old token was ****"));
        assertThat(task, not(containsString(TestCredentials.TOKEN)));
        assertThat(task, containsString("\nFAIL add 2 3 = -1\n"));
        assertThat("the first session's lines are left out", task, not(containsString("[copilot]")));
        assertThat(task, containsString("[Pipeline] copilotAutopilot\n</build_log>\n"));
        j.assertLogContains("[copilot] The task ends with the last ", b);
    }

    private static org.hamcrest.Matcher<String> startsWithText(String prefix) {
        return org.hamcrest.Matchers.startsWith(prefix);
    }

    @Test
    void theChangesFileHoldsTheMaskedPatchAndTheMapNamesIt() throws Exception {
        Path cli = FakeCopilot.in(tmp).writingFile("hello.txt", "hello\n")
                .writingFile("leak.txt", "token " + TestCredentials.TOKEN + "\n").write();
        WorkflowRun b = j.buildAndAssertSuccess(TestPipelines.create(j, "node {\n" + TestPipelines.GIT_WORK_TREE
                + "  def r = " + step(cli, "prompt: 'Create hello.txt', changesFile: 'out/copilot.patch'") + "\n"
                + "  echo \"changesFile=${r.changesFile}\"\n"
                + "  def patch = readFile(r.changesFile)\n"
                + "  echo \"hello added: ${patch.contains('+hello')}, token: ${patch.contains('" + TestCredentials.TOKEN + "')},"
                + " masked: ${patch.contains('token ****')}\"\n"
                + "  sh 'rm hello.txt && git apply --include=hello.txt out/copilot.patch && cat hello.txt'\n"
                + "}"));

        j.assertLogContains("changesFile=out/copilot.patch", b);
        j.assertLogContains("hello added: true, token: false, masked: true", b);
        j.assertLogContains("[copilot] What the agent changed is in out/copilot.patch (", b);
        assertThat("the patch applies: hello.txt is back", JenkinsRule.getLog(b), containsString("+ cat hello.txt\nhello\n"));
    }

    @Test
    void aFreestyleStepTakesItsTaskFromAFileAndWritesAnEmptyChangesFileWhenNothingWasRecorded() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp);
        Path cli = fake.write();
        Files.createDirectories(tmp.resolve("plain"));
        Files.writeString(tmp.resolve("plain/task.md"), "Look around.");
        CopilotAutopilotBuilder builder = new CopilotAutopilotBuilder(new CopilotAutopilotStep(null));
        builder.getTask().setPromptFile("task.md");
        builder.getTask().setCredentialsId("copilot-token");
        builder.getTask().setCopilotPath(cli.toString());
        builder.getTask().setChangesFile("copilot.patch");
        FreeStyleProject p = j.createFreeStyleProject();
        p.getBuildersList().add(builder);
        p.setCustomWorkspace(tmp.resolve("plain").toString()); // outside any git work tree (the test runs in a clone)
        FreeStyleBuild b = j.buildAndAssertSuccess(p);

        FilePath written = b.getWorkspace().child("copilot.patch");
        assertTrue(written.exists(), "the file is written even when there is nothing in it");
        assertEquals("", written.readToString());
        j.assertLogContains("[copilot] What the agent changed is in copilot.patch (0 bytes).", b);
        assertEquals("Look around.", Files.readString(fake.stdinFile(), StandardCharsets.UTF_8));
    }

    @Test
    void changesFileNeedsTheChangesRecorded() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp);
        Path cli = fake.write();
        WorkflowRun b = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j, "node { "
                + step(cli, "prompt: 'x', changesFile: 'c.patch', recordChanges: false") + " }").scheduleBuild2(0));
        j.assertLogContains("changesFile needs the changes recorded: leave recordChanges on, or leave changesFile out.", b);
        assertThat(JenkinsRule.getLog(b), not(containsString("What the agent changed is in")));
    }
}
