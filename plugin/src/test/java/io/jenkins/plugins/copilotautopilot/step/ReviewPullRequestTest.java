package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.testing.CapturedChecks;
import io.jenkins.plugins.copilotautopilot.testing.ReadmeBlocks;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.tools.CopilotCliInstallation;

import hudson.model.Result;
import hudson.tools.ToolProperty;
import io.jenkins.plugins.analysis.core.model.ResultAction;
import io.jenkins.plugins.checks.api.ChecksAnnotation;
import io.jenkins.plugins.checks.api.ChecksDetails;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import jenkins.branch.BranchSource;
import jenkins.scm.impl.mock.MockSCMController;
import jenkins.scm.impl.mock.MockSCMDiscoverChangeRequests;
import jenkins.scm.impl.mock.MockSCMSource;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.jenkinsci.plugins.workflow.multibranch.WorkflowMultiBranchProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The README's "review a pull request", as written there, as the Jenkinsfile of a multibranch project whose change
 * request adds a bug, with the README's setup (a Secret text credential {@code copilot-token}, a CLI installation and
 * the model provider as the global defaults), warnings-ng, and a checks publisher of the test's own. The real CLI; the
 * scripted model reads the changed file with the CLI's {@code view} tool and answers with two findings, one of high
 * severity: annotations of the check, warnings-ng issues, and the stage failed through the returned map.
 */
@WithJenkins
@Timeout(300)
class ReviewPullRequestTest {
    private static final String FINDINGS = "{\"findings\": [{\"path\": \"src/app.js\", \"line\": 2, \"severity\": \"high\","
            + " \"message\": \"The URL's fragment is written into the page as HTML: a cross-site scripting hole.\", \"rule\": \"xss\"},"
            + " {\"path\": \"src/app.js\", \"line\": 1, \"severity\": \"low\", \"message\": \"No test covers render().\","
            + " \"category\": \"tests\"}]}";

    /** Reads the changed file, then answers with the findings. */
    private static ScriptedModelServer.Script review() {
        return request -> request.used("task_complete") ? Reply.text("Done.")
                : request.used("view") ? Reply.taskComplete(FINDINGS)
                : Reply.tool("view", Map.of("path", ReadmeQuickStartTest.workingDirectory(request) + "/src/app.js"))
                        .withText("Reading the change.");
    }

    @Test
    void theReviewPublishesItsFindingsAndFailsOnOneOfHighSeverity(JenkinsRule j) throws Exception {
        TestCredentials.addToken(j);
        j.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class)
                .setInstallations(new CopilotCliInstallation("copilot-1.0.102", TestCli.executable().path(), List.<ToolProperty<?>>of()));
        Capturing.published.clear();
        try (ScriptedModelServer model = ScriptedModelServer.start(review()); MockSCMController scm = MockSCMController.create()) {
            ReadmeQuickStartTest.useAsTheDefaults(model);
            scm.createRepository("app");
            scm.addFile("app", "master", "the Jenkinsfile", "Jenkinsfile",
                    ReadmeBlocks.block("review-a-pull-request").getBytes(StandardCharsets.UTF_8));
            scm.addFile("app", "master", "the app", "src/app.js", "function render() {\n}\n".getBytes(StandardCharsets.UTF_8));
            Integer change = scm.openChangeRequest("app", "master");
            scm.addFile("app", "change-request/" + change, "render the fragment", "src/app.js",
                    "function render() {\n  document.body.innerHTML = location.hash;\n}\n".getBytes(StandardCharsets.UTF_8));

            WorkflowMultiBranchProject project = j.createProject(WorkflowMultiBranchProject.class, "app");
            project.getSourcesList().add(new BranchSource(new MockSCMSource(scm, "app", new MockSCMDiscoverChangeRequests())));
            project.scheduleBuild2(0).getFuture().get();
            j.waitUntilNoActivity();
            WorkflowJob pr = project.getItem("CR-" + change);
            WorkflowRun b = pr.getLastBuild();

            j.assertBuildStatus(Result.FAILURE, b);
            j.assertLogContains("[copilot]   < view ok", b);
            j.assertLogContains("[copilot] Answer 1: follows the schema (", b);
            j.assertLogContains("[copilot] Findings: 2 written to ", b);
            j.assertLogContains("Copilot review: 1 finding(s) of high severity, first src/app.js:2", b);
            assertThat(model.requests().get(0).path("messages").toString(), containsString("Review the change of pull request "
                    + change + " against master"));

            ResultAction issues = b.getActions(ResultAction.class).stream().filter(a -> a.getId().equals("copilot")).findFirst().orElseThrow();
            assertEquals(2, issues.getResult().getTotalSize());
            assertEquals("src/app.js", issues.getResult().getIssues().get(0).getFileName());
            assertEquals(2, issues.getResult().getIssues().get(0).getLineStart());

            ChecksDetails ended = Capturing.published.stream().filter(d -> d.getName().equals(Optional.of("Copilot Autopilot")))
                    .reduce((first, second) -> second).orElseThrow();
            List<ChecksAnnotation> annotations = ended.getOutput().orElseThrow().getChecksAnnotations();
            assertEquals(2, annotations.size());
            assertEquals(Optional.of("src/app.js"), annotations.get(0).getPath());
            assertEquals(Optional.of(2), annotations.get(0).getStartLine());
            assertEquals(ChecksAnnotation.ChecksAnnotationLevel.FAILURE, annotations.get(0).getAnnotationLevel());
            assertEquals(ChecksAnnotation.ChecksAnnotationLevel.NOTICE, annotations.get(1).getAnnotationLevel());
        }
    }

    /** The checks as checks-api hands them to a publisher, caught. */
    @TestExtension
    public static final class Capturing extends CapturedChecks {
    }
}
