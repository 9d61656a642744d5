package io.jenkins.plugins.copilotautopilot.testing;

import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jvnet.hudson.test.JenkinsRule;

/** Pipeline jobs for the tests. */
public final class TestPipelines {
    /** A Pipeline line that makes the workspace a Git work tree with one commit ({@code old.txt}). */
    public static final String GIT_WORK_TREE = "sh '''git init -q . && git config user.email t@example.invalid"
            + " && git config user.name t && echo old > old.txt && git add -A && git commit -q -m start'''\n";

    private TestPipelines() {
    }

    /** A Freestyle task for the real CLI and the scripted {@code model}, every tool allowed. */
    public static io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep scriptedTask(String prompt,
            io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer model) {
        io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep task = new io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep(prompt);
        task.setCopilotPath(io.jenkins.plugins.copilotautopilot.core.testing.TestCli.executable().path());
        task.setProviderBaseUrl(model.baseUrl());
        task.setModel("fake-model");
        task.setOffline(true);
        task.setAllowAllTools(true);
        return task;
    }

    /** A new job running {@code script} in the Groovy sandbox, as an ordinary user's Pipeline would. */
    public static WorkflowJob create(JenkinsRule j, String script) throws Exception {
        WorkflowJob p = j.createProject(WorkflowJob.class, "p" + j.jenkins.getItems().size());
        p.setDefinition(new CpsFlowDefinition(script, true));
        return p;
    }
}
