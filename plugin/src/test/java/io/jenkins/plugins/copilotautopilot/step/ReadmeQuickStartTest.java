package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.testing.ReadmeBlocks;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.tools.CopilotCliInstallation;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.scm.ChangeLogParser;
import hudson.scm.SCM;
import hudson.scm.SCMDescriptor;
import hudson.scm.SCMRevisionState;
import hudson.tools.ToolProperty;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jenkinsci.plugins.workflow.cps.CpsScmFlowDefinition;
import org.jenkinsci.plugins.workflow.cps.CpsScript;
import org.jenkinsci.plugins.workflow.cps.GlobalVariable;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's Pipeline quick start, as written there, in a Pipeline from SCM whose repository holds a small npm
 * project with a failing test, with the setup the README asks for (a Secret text credential {@code copilot-token},
 * a Copilot CLI installation as the global default). The Copilot CLI is the real one; the model is the scripted one
 * on 127.0.0.1, set as the global model provider: it runs {@code npm test}, fixes the code with the CLI's
 * {@code edit} tool, runs the test again and calls {@code task_complete}.
 */
@WithJenkins
@Timeout(300)
class ReadmeQuickStartTest {
    private static final String MATH = "exports.add = (a, b) => a - b;\n";
    private static final String TEST = "const assert = require('node:assert');\nconst { add } = require('../src/math.js');\n"
            + "assert.strictEqual(add(2, 3), 5, 'add(2, 3)');\nconsole.log('ok: add(2, 3) = 5');\n";
    private static final Pattern WORKING_DIRECTORY = Pattern.compile("Current working directory: ([^\\\\\\n]+)");

    @TempDir
    Path tmp;

    /** The model's side: run the test, fix the code, run the test again, done. */
    private static ScriptedModelServer.Script fixTheFailingTest() {
        return request -> switch (request.turn()) {
            case 1 -> Reply.bash("npm test", 60).withText("Let me run the tests first.");
            case 2 -> Reply.tool("edit", Map.of("path", workingDirectory(request) + "/src/math.js",
                    "old_str", "a - b", "new_str", "a + b")).withText("add() subtracts; fixing it.");
            case 3 -> Reply.bash("npm test", 60).withText("Running the tests again.");
            default -> Reply.taskComplete("Fixed add() in src/math.js: it subtracted. npm test passes.");
        };
    }

    static String workingDirectory(ScriptedModelServer.AgentRequest request) {
        Matcher m = WORKING_DIRECTORY.matcher(request.body().toString());
        if (!m.find()) {
            throw new IllegalStateException("no working directory in the request");
        }
        return m.group(1).strip();
    }

    @Test
    void theQuickStartFixesTheFailingTest(JenkinsRule j) throws Exception {
        TestCredentials.addToken(j);
        CopilotCliInstallation.DescriptorImpl tools = j.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class);
        tools.setInstallations(new CopilotCliInstallation("copilot-1.0.102", TestCli.executable().path(), List.<ToolProperty<?>>of()));

        try (ScriptedModelServer model = ScriptedModelServer.start(fixTheFailingTest())) {
            useAsTheDefaults(model);

            WorkflowJob job = j.createProject(WorkflowJob.class, "my-app");
            job.setDefinition(new CpsScmFlowDefinition(new FolderScm(repository().toString()), "Jenkinsfile"));
            WorkflowRun b = j.buildAndAssertSuccess(job);

            j.assertLogContains("[copilot]   > bash: npm test", b);
            j.assertLogContains("[copilot]   < bash FAILED", b);
            j.assertLogContains("[copilot]   > edit: ", b);
            j.assertLogContains("[copilot] COMPLETED: The agent called task_complete after 4 turns.", b);
            j.assertLogContains("[copilot] Summary: Fixed add() in src/math.js: it subtracted. npm test passes.", b);
            j.assertLogNotContains(TestCredentials.TOKEN, b);
            assertEquals("exports.add = (a, b) => a + b;\n",
                    j.jenkins.getWorkspaceFor(job).child("src/math.js").readToString(), "the agent fixed the code");
            assertThat(j.jenkins.getWorkspaceFor(job).child("test/math.test.js").readToString(), containsString("add(2, 3), 5"));
            assertEquals("COMPLETED", b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getEnding().getOutcome());
        }
    }

    /**
     * The README's "fix the failed build" Pipeline. It is Declarative, which this test's Jenkins does not have, so its
     * parts are run as Declarative runs them: the stage's steps, then (they fail) the {@code post { failure }} block.
     */
    @Test
    void theFixTheFailedBuildExampleHandsTheAgentTheLogAndKeepsThePatch(JenkinsRule j) throws Exception {
        String declarative = ReadmeBlocks.block("fix-the-failed-build");
        Matcher steps = Pattern.compile("steps \\{ (.*) }\n").matcher(declarative);
        Matcher failure = Pattern.compile("failure \\{\n(.*?)\n        }\n", Pattern.DOTALL).matcher(declarative);
        assertTrue(steps.find() && failure.find(), "the README's block has a stage's steps and a post failure block");
        String scripted = "node {\n  checkout scm\n  try {\n    " + steps.group(1) + "\n  } catch (e) {\n"
                + "    currentBuild.result = 'FAILURE'\n" + failure.group(1) + "\n  }\n}\n";
        TestCredentials.addToken(j);
        j.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class)
                .setInstallations(new CopilotCliInstallation("copilot-1.0.102", TestCli.executable().path(), List.<ToolProperty<?>>of()));
        java.util.concurrent.atomic.AtomicReference<String> firstRequest = new java.util.concurrent.atomic.AtomicReference<>();
        ScriptedModelServer.Script fix = fixTheFailingTest();
        try (ScriptedModelServer model = ScriptedModelServer.start(request -> {
            firstRequest.compareAndSet(null, request.body().toString());
            return fix.reply(request);
        })) {
            useAsTheDefaults(model);

            WorkflowJob job = j.createProject(WorkflowJob.class, "my-app");
            job.setDefinition(new CpsScmFlowDefinition(new FolderScm(repository(scripted).toString()), "Jenkinsfile"));
            WorkflowRun b = j.assertBuildStatus(hudson.model.Result.FAILURE, job.scheduleBuild2(0));

            j.assertLogContains("[copilot] The task ends with the last ", b);
            j.assertLogContains("[copilot] COMPLETED: The agent called task_complete after 4 turns.", b);
            assertThat("the model got the failed test's output", firstRequest.get(), containsString("AssertionError"));
            assertThat(firstRequest.get(), containsString("<build_log>"));
            j.assertLogContains("[copilot] What the agent changed is in copilot.patch (", b);
            String patch = Files.readString(new File(b.getArtifactsDir(), "copilot.patch").toPath());
            assertThat(patch, containsString("+exports.add = (a, b) => a + b;"));
            assertEquals("Copilot: fix the failed build", new org.jenkinsci.plugins.workflow.graphanalysis.DepthFirstScanner()
                    .findFirstMatch(b.getExecution(), new org.jenkinsci.plugins.workflow.graphanalysis.NodeStepTypePredicate("copilotAutopilot"))
                    .getDisplayName());
        }
    }

    @Test
    void theVerifyExampleSendsAnAgentThatCompletedTooSoonBackUntilNpmTestPasses(JenkinsRule j) throws Exception {
        TestCredentials.addToken(j);
        j.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class)
                .setInstallations(new CopilotCliInstallation("copilot-1.0.102", TestCli.executable().path(), List.<ToolProperty<?>>of()));
        // completes at once; told that the check failed, fixes the code with the edit tool and completes again
        ScriptedModelServer.Script tooSoon = request -> {
            String conversation = request.body().path("messages").toString();
            if (!conversation.contains("The acceptance check of this task failed")) {
                return request.used("task_complete") ? Reply.text("Done.") : Reply.taskComplete("Looks fine to me.");
            }
            return request.used("edit") ? Reply.taskComplete("Fixed add() in src/math.js.")
                    : Reply.tool("edit", Map.of("path", workingDirectory(request) + "/src/math.js", "old_str", "a - b", "new_str", "a + b"))
                            .withText("The check says add(2, 3) is wrong; fixing it.");
        };
        try (ScriptedModelServer model = ScriptedModelServer.start(tooSoon)) {
            useAsTheDefaults(model);

            WorkflowJob job = j.createProject(WorkflowJob.class, "my-app");
            job.setDefinition(new CpsScmFlowDefinition(new FolderScm(repository(ReadmeBlocks.block("verify")).toString()), "Jenkinsfile"));
            WorkflowRun b = j.buildAndAssertSuccess(job);

            j.assertLogContains("[copilot] Verify, round 1: FAILED with exit code 1; the agent is asked to fix it", b);
            j.assertLogContains("[copilot] Verify, round 2: passed", b);
            j.assertLogContains("verified: true after 2 rounds", b);
            assertThat(model.requests().toString(), containsString("AssertionError"));
            assertEquals("exports.add = (a, b) => a + b;\n", j.jenkins.getWorkspaceFor(job).child("src/math.js").readToString());
        }
    }

    /** The README's setup: the CLI installation and the scripted model as the global defaults. */
    static void useAsTheDefaults(ScriptedModelServer model) {
        CopilotAutopilotStep defaults = new CopilotAutopilotStep(null);
        defaults.setInstallation("copilot-1.0.102");
        defaults.setProviderBaseUrl(model.baseUrl());
        defaults.setModel("fake-model");
        defaults.setOffline(true);
        CopilotAutopilotConfiguration.get().setDefaults(defaults);
    }

    /** The repository: the README's Jenkinsfile and an npm project whose test fails. */
    private Path repository() throws Exception {
        return repository(ReadmeBlocks.block("pipeline-quick-start"));
    }

    /** The repository: this Jenkinsfile and an npm project whose test fails. */
    private Path repository(String jenkinsfile) throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("my-app"));
        Files.writeString(repo.resolve("Jenkinsfile"), jenkinsfile);
        Files.writeString(repo.resolve("package.json"), "{\n  \"name\": \"my-app\",\n  \"version\": \"1.0.0\",\n  \"private\": true,\n"
                + "  \"scripts\": { \"test\": \"node test/math.test.js\" }\n}\n");
        Files.createDirectories(repo.resolve("src"));
        Files.createDirectories(repo.resolve("test"));
        Files.writeString(repo.resolve("src/math.js"), MATH);
        Files.writeString(repo.resolve("test/math.test.js"), TEST);
        return repo;
    }

    /**
     * {@code scm} in a Pipeline from SCM: the job's SCM, as workflow-multibranch's {@code SCMVar} (which every
     * Pipeline installation has, and this build does not) gives it.
     */
    @TestExtension
    public static final class ScmVariable extends GlobalVariable {
        @NonNull
        @Override
        public String getName() {
            return "scm";
        }

        @NonNull
        @Override
        public Object getValue(@NonNull CpsScript script) throws Exception {
            WorkflowJob job = (WorkflowJob) script.$build().getParent();
            return ((CpsScmFlowDefinition) job.getDefinition()).getScm();
        }
    }

    /** An SCM whose checkout copies a folder into the workspace as a git clone, for Pipelines from SCM in a test. */
    public static final class FolderScm extends SCM {
        private final String folder;

        FolderScm(String folder) {
            this.folder = folder;
        }

        @Override
        public void checkout(@NonNull Run<?, ?> build, @NonNull Launcher launcher, @NonNull FilePath workspace,
                             @NonNull TaskListener listener, File changelogFile, SCMRevisionState baseline)
                throws IOException, InterruptedException {
            new FilePath(new File(folder)).copyRecursiveTo(workspace);
            // a clone, as checkout scm gives: what the agent changed is recorded against it
            int git = launcher.launch().pwd(workspace).stdout(listener).cmds("sh", "-c", "git init -q . && git add -A"
                    + " && git -c user.email=t@example.invalid -c user.name=t commit -q -m checkout").join();
            if (git != 0) {
                throw new IOException("could not make " + workspace + " a git work tree");
            }
        }

        @Override
        public SCMRevisionState calcRevisionsFromBuild(@NonNull Run<?, ?> build, FilePath workspace, Launcher launcher,
                                                       @NonNull TaskListener listener) {
            return SCMRevisionState.NONE;
        }

        @Override
        public ChangeLogParser createChangeLogParser() {
            return null;
        }

        @TestExtension
        public static final class DescriptorImpl extends SCMDescriptor<FolderScm> {
            public DescriptorImpl() {
                super(null);
            }
        }
    }
}
