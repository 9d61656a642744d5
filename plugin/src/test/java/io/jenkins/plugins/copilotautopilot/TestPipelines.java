package io.jenkins.plugins.copilotautopilot;

import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jvnet.hudson.test.JenkinsRule;

/** Pipeline jobs for the tests. */
public final class TestPipelines {
    private TestPipelines() {
    }

    /** A new job running {@code script} in the Groovy sandbox, as an ordinary user's Pipeline would. */
    public static WorkflowJob create(JenkinsRule j, String script) throws Exception {
        WorkflowJob p = j.createProject(WorkflowJob.class, "p" + j.jenkins.getItems().size());
        p.setDefinition(new CpsFlowDefinition(script, true));
        return p;
    }
}
