package io.jenkins.plugins.copilotautopilot.checks;

import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.Result;
import java.nio.file.Path;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** With checks-api but no publisher for it (no GitHub or GitLab plugin): checks-api says so once a session, not twice. */
@WithJenkins
class ChecksWithoutPublisherTest {
    @TempDir
    Path tmp;

    @Test
    void theMissingPublisherIsSaidOnce(JenkinsRule j) throws Exception {
        TestCredentials.addToken(j);
        Path cli = FakeCopilot.in(tmp.resolve("cli-happy")).replaying("cli-happy").write();
        WorkflowRun b = j.assertBuildStatus(Result.SUCCESS, TestPipelines.create(j, "node { copilotAutopilot prompt: 'Create hello.txt',"
                + " credentialsId: 'copilot-token', copilotPath: '" + cli + "' }").scheduleBuild2(0));
        String log = JenkinsRule.getLog(b);
        String line = "No suitable checks publisher found.";
        assertEquals(1, log.split(java.util.regex.Pattern.quote(line), -1).length - 1, log);
    }
}
