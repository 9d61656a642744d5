package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.Result;
import io.jenkins.plugins.copilotautopilot.core.journal.JournalFiles;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

/**
 * {@code toolSecrets}: a {@code withCredentials} variable is hidden from the agent's tools unless the step hands it to
 * them, and is masked either way. The real CLI; the scripted model's tool checks the variable's value itself.
 */
@WithJenkins
@Timeout(240)
class ToolSecretsTest {
    private static final String NPM_TOKEN = "npm_s3cr3tRegistryToken_4242";

    private static String pipeline(ScriptedModelServer model, String more) throws Exception {
        return "node { withCredentials([string(credentialsId: 'npm', variable: 'NPM_TOKEN')]) {\n"
                + "  copilotAutopilot prompt: 'Publish.', copilotPath: '" + TestCli.executable().path() + "', providerBaseUrl: '"
                + model.baseUrl() + "', model: 'fake-model', offline: true, allowAllTools: true" + more + "\n} }";
    }

    @Test
    void aSecretHandedToToolsReachesThemAndStaysMaskedAHiddenOneDoesNot(JenkinsRule j) throws Exception {
        TestCredentials.addSecretText(j, "npm", NPM_TOKEN);
        // one server for three sessions: each conversation runs the check once, then completes
        ScriptedModelServer.Script useTheToken = ScriptedModelServer.Scripts.bashThenComplete("if [ \"$NPM_TOKEN\" = '"
                + NPM_TOKEN + "' ]; then echo \"the tool got $NPM_TOKEN\"; else echo 'the tool got nothing'; fi", "Checked the token.");
        try (ScriptedModelServer model = ScriptedModelServer.start(useTheToken)) {
            WorkflowRun hidden = j.buildAndAssertSuccess(TestPipelines.create(j, pipeline(model, "")));
            j.assertLogContains("[copilot] Secret variables: NPM_TOKEN hidden from tools", hidden);
            assertThat(journal(hidden), containsString("the tool got nothing"));

            WorkflowRun handed = j.buildAndAssertSuccess(TestPipelines.create(j, pipeline(model, ", toolSecrets: ['NPM_TOKEN']")));
            j.assertLogContains("[copilot] Secret variables: none hidden from tools; NPM_TOKEN handed to tools (masked here)", handed);
            String journal = journal(handed);
            assertThat(journal, containsString("the tool got ****"));
            assertThat(journal, not(containsString(NPM_TOKEN)));
            j.assertLogNotContains(NPM_TOKEN, handed);

            WorkflowRun own = j.assertBuildStatus(Result.FAILURE, TestPipelines.create(j,
                    pipeline(model, ", toolSecrets: ['COPILOT_PROVIDER_API_KEY']")).scheduleBuild2(0));
            j.assertLogContains("toolSecrets: COPILOT_PROVIDER_API_KEY holds the Copilot CLI's own credential and is never handed to tools.", own);
        }
    }

    private static String journal(WorkflowRun b) throws Exception {
        SessionRecord session = b.getAction(CopilotAutopilotRunAction.class).getSessions().get(0);
        File file = new File(new File(b.getRootDir(), SessionFiles.FOLDER), session.getJournalFile());
        try (InputStream in = JournalFiles.open(file.toPath())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
