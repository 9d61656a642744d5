package io.jenkins.plugins.copilotautopilot.checks;

import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotConfiguration;
import io.jenkins.plugins.copilotautopilot.testing.CapturedChecks;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.Result;
import io.jenkins.plugins.checks.api.ChecksConclusion;
import io.jenkins.plugins.checks.api.ChecksDetails;
import io.jenkins.plugins.checks.api.ChecksStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sessions as checks, through checks-api, caught by a publisher of the test's own (as checks-api's tests catch them). */
@WithJenkins
class ChecksTest {
    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
        Capturing.published.clear();
    }

    private WorkflowRun run(Result expected, String capture, String more) throws Exception {
        Path cli = FakeCopilot.in(tmp.resolve(capture)).replaying(capture).write();
        return j.assertBuildStatus(expected, TestPipelines.create(j, "node { copilotAutopilot prompt: 'Create hello.txt',"
                + " credentialsId: 'copilot-token', copilotPath: '" + cli + "'" + more + " }").scheduleBuild2(0));
    }

    @Test
    void aCompletedSessionIsInProgressThenASuccessWithItsSummaryAndNumbers() throws Exception {
        WorkflowRun b = run(Result.SUCCESS, "cli-happy", "");

        List<ChecksDetails> checks = Capturing.published;
        assertEquals(2, checks.size());
        ChecksDetails started = checks.get(0);
        assertEquals(Optional.of("Copilot Autopilot"), started.getName());
        assertEquals(ChecksStatus.IN_PROGRESS, started.getStatus());
        assertTrue(started.getStartedAt().isPresent());
        ChecksDetails ended = checks.get(1);
        assertEquals(ChecksStatus.COMPLETED, ended.getStatus());
        assertEquals(ChecksConclusion.SUCCESS, ended.getConclusion());
        assertEquals(Optional.of("COMPLETED: The agent called task_complete after 2 turns."), ended.getOutput().orElseThrow().getTitle());
        assertThat(ended.getOutput().orElseThrow().getSummary().orElseThrow(), containsString("Created hello.txt containing 'hello-from-fake-model'."));
        assertThat(ended.getOutput().orElseThrow().getText().orElseThrow(), containsString("2 turns, 2 tool calls (0 failed, 0 denied)"));
        assertThat(ended.getDetailsURL().orElseThrow(), containsString(b.getUrl() + "copilot-autopilot/"));
    }

    @Test
    void anIncompleteSessionFailsTheCheckAsItFailsTheBuildOrIsNeutralWhenUnstable() throws Exception {
        run(Result.FAILURE, "cli-never-max2", "");
        assertEquals(ChecksConclusion.FAILURE, Capturing.published.get(1).getConclusion());

        Capturing.published.clear();
        run(Result.UNSTABLE, "cli-never-max2", ", resultWhenIncomplete: 'UNSTABLE'");
        assertEquals(ChecksConclusion.NEUTRAL, Capturing.published.get(1).getConclusion());
    }

    @Test
    void aFailedSessionIsAFailedCheck() throws Exception {
        run(Result.FAILURE, "cli-error400", "");
        assertEquals(List.of(ChecksStatus.IN_PROGRESS, ChecksStatus.COMPLETED),
                Capturing.published.stream().map(ChecksDetails::getStatus).toList());
        ChecksDetails ended = Capturing.published.get(1);
        assertEquals(ChecksConclusion.FAILURE, ended.getConclusion());
        assertThat(ended.getOutput().orElseThrow().getTitle().orElseThrow(), containsString("FAILED: The session failed with a model error"));
    }

    @Test
    void aStepMayNameItsCheckOrPublishNone() throws Exception {
        run(Result.SUCCESS, "cli-happy", ", checksName: 'Copilot: fix the tests'");
        assertEquals(List.of(Optional.of("Copilot: fix the tests"), Optional.of("Copilot: fix the tests")),
                Capturing.published.stream().map(ChecksDetails::getName).toList());

        Capturing.published.clear();
        run(Result.SUCCESS, "cli-happy", ", skipPublishingChecks: true");
        assertTrue(Capturing.published.isEmpty());

        CopilotAutopilotConfiguration.get().getDefaults().setSkipPublishingChecks(true);
        run(Result.SUCCESS, "cli-happy", "");
        assertTrue(Capturing.published.isEmpty(), "an administrator's skip applies to steps that do not say");
        run(Result.SUCCESS, "cli-happy", ", skipPublishingChecks: false");
        assertEquals(2, Capturing.published.size());
    }

    @Test
    void wordsKeptOutOfTheConsoleStayOutOfTheCheck() throws Exception {
        run(Result.SUCCESS, "cli-happy", ", agentTextInConsole: false");
        assertThat(Capturing.published.get(1).getOutput().orElseThrow().getSummary().orElseThrow(),
                not(containsString("hello-from-fake-model")));
    }

    /** Catches what is published, for every build. */
    @TestExtension
    public static final class Capturing extends CapturedChecks {
    }
}
