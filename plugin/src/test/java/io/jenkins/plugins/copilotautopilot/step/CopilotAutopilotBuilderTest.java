package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The Freestyle build step, with the same fake CLI as the Pipeline step's tests. */
@WithJenkins
class CopilotAutopilotBuilderTest {
    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
    }

    private FreeStyleProject project(CopilotAutopilotBuilder builder) throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        p.getBuildersList().add(builder);
        return p;
    }

    private CopilotAutopilotBuilder builder(Path cli) {
        CopilotAutopilotBuilder builder = new CopilotAutopilotBuilder(new CopilotAutopilotStep("Create hello.txt"));
        builder.getTask().setCredentialsId("copilot-token");
        builder.getTask().setCopilotPath(cli.toString());
        return builder;
    }

    @Test
    void completedTaskSucceeds() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").sayingFirst("token $COPILOT_GITHUB_TOKEN").write();
        FreeStyleBuild b = j.buildAndAssertSuccess(project(builder(cli)));

        j.assertLogContains("[copilot] Turn 2", b);
        j.assertLogContains("[copilot] Summary: Created hello.txt containing 'hello-from-fake-model'.", b);
        j.assertLogNotContains(TestCredentials.TOKEN, b);
        assertEquals("COMPLETED", b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0).getEnding().getOutcome());
    }

    @Test
    void incompleteTaskFailsOrIsUnstable() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-never-max2").write();
        FreeStyleBuild failed = j.assertBuildStatus(Result.FAILURE, project(builder(cli)).scheduleBuild2(0));
        j.assertLogContains("Copilot autopilot INCOMPLETE", failed);

        CopilotAutopilotBuilder unstable = builder(cli);
        unstable.getTask().setResultWhenIncomplete("UNSTABLE");
        FreeStyleBuild b = j.assertBuildStatus(Result.UNSTABLE, project(unstable).scheduleBuild2(0));
        j.assertLogContains("WARNING: Copilot autopilot INCOMPLETE: The agent stopped without calling task_complete", b);
    }

    @Test
    void aBlockedAgentTakesTheIncompleteResultUnlessTheBlockedOneIsSet() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").blockedBy("\"Needs a maintainer's decision.\"").write();
        CopilotAutopilotBuilder likeIncomplete = builder(cli);
        likeIncomplete.getTask().setResultWhenIncomplete("UNSTABLE");
        FreeStyleBuild unstable = j.assertBuildStatus(Result.UNSTABLE, project(likeIncomplete).scheduleBuild2(0));
        j.assertLogContains("[copilot]   Task blocked: Needs a maintainer's decision.", unstable);
        j.assertLogContains("[copilot] Blocked by: Needs a maintainer's decision.", unstable);

        CopilotAutopilotBuilder ownChoice = builder(cli);
        ownChoice.getTask().setResultWhenIncomplete("UNSTABLE");
        ownChoice.getTask().setResultWhenBlocked("FAILURE");
        FreeStyleBuild failed = j.assertBuildStatus(Result.FAILURE, project(ownChoice).scheduleBuild2(0));
        j.assertLogContains("Copilot autopilot BLOCKED", failed);
        assertEquals("Copilot BLOCKED: Needs a maintainer's decision.",
                failed.getAction(CopilotAutopilotRunAction.class).getBadgeTooltip());
    }

    @Test
    void twoStepsInOneBuildKeepTwoJournals() throws Exception {
        Path cli = FakeCopilot.in(tmp).replaying("cli-happy").write();
        FreeStyleProject p = project(builder(cli));
        p.getBuildersList().add(builder(cli));
        FreeStyleBuild b = j.buildAndAssertSuccess(p);

        List<SessionRecord> sessions = b.getAction(CopilotAutopilotRunAction.class).getSessions();
        assertEquals(2, sessions.size());
        assertEquals("build-step-1.jsonl.gz", sessions.get(0).getJournalFile());
        assertEquals("build-step-2.jsonl.gz", sessions.get(1).getJournalFile());
    }

    @Test
    void configRoundTrip() throws Exception {
        CopilotAutopilotBuilder builder = new CopilotAutopilotBuilder(new CopilotAutopilotStep("Update the dependencies"));
        builder.getTask().setModel("gpt-5");
        builder.getTask().setCredentialsId("copilot-token");
        builder.getTask().setAllowTools(List.of("shell(npm install)", "write"));
        builder.getTask().setDenyTools(List.of("shell(git push)"));
        builder.getTask().setMaxAutopilotContinues(2);
        builder.getTask().setTimeout(20);
        builder.getTask().setResultWhenIncomplete("UNSTABLE");
        builder.getTask().setWorkingDirectory("frontend");

        CopilotAutopilotBuilder after = j.configRoundtrip(builder);

        j.assertEqualDataBoundBeans(builder, after);
        assertThat(after.getTask().getAllowTools(), contains("shell(npm install)", "write"));
    }
}
