package io.jenkins.plugins.copilotautopilot;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.htmlunit.html.HtmlForm;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/** The global defaults: the System page form, and how a step's own values combine with them. */
@WithJenkins
class CopilotAutopilotConfigurationTest {
    private static final String ADMIN_PROVIDER_KEY = "admin-provider-key-0123456789";

    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
        TestCredentials.addSecretText(j, "provider-key", ADMIN_PROVIDER_KEY);
    }

    private WorkflowRun run(String step) throws Exception {
        return j.buildAndAssertSuccess(TestPipelines.create(j, "node { " + step + " }"));
    }

    private List<String> cliArguments() throws Exception {
        return Files.readAllLines(tmp.resolve("args.txt"));
    }

    @Test
    void theSystemPageKeepsEverySetting() throws Exception {
        CopilotAutopilotConfiguration config = CopilotAutopilotConfiguration.get();
        config.setCredentialsId("copilot-token");
        config.setModel("gpt-5");
        config.setMaxAutopilotContinues(3);
        config.setAllowTools(List.of("shell(mvn:*)", "write"));
        config.setDenyTools(List.of("shell(git push)"));
        config.setTimeout(30);
        config.setInactivityTimeout(5);
        config.setResultWhenIncomplete("UNSTABLE");
        config.setProviderBaseUrl("http://127.0.0.1:11434/v1");
        config.setProviderType("openai");
        config.setProviderCredentialsId("provider-key");
        config.setOffline(true);

        HtmlForm form = j.createWebClient().goTo("configure").getFormByName("config");
        j.submit(form);

        CopilotAutopilotConfiguration after = CopilotAutopilotConfiguration.get();
        assertEquals("copilot-token", after.getCredentialsId());
        assertEquals("gpt-5", after.getModel());
        assertEquals(Integer.valueOf(3), after.getMaxAutopilotContinues());
        assertFalse(after.isAllowAllTools());
        assertThat(after.getAllowTools(), contains("shell(mvn:*)", "write"));
        assertThat(after.getDenyTools(), contains("shell(git push)"));
        assertEquals(Integer.valueOf(30), after.getTimeout());
        assertEquals(Integer.valueOf(5), after.getInactivityTimeout());
        assertEquals("UNSTABLE", after.getResultWhenIncomplete());
        assertEquals("http://127.0.0.1:11434/v1", after.getProviderBaseUrl());
        assertEquals("openai", after.getProviderType());
        assertEquals("provider-key", after.getProviderCredentialsId());
        assertTrue(after.isOffline());
        assertThat(Files.readString(j.jenkins.getRootDir().toPath().resolve(CopilotAutopilotConfiguration.class.getName() + ".xml")),
                not(containsString(ADMIN_PROVIDER_KEY)));
    }

    @Test
    void allowAllToolsFollowsTheDefaultUnlessTheStepSaysOtherwise() throws Exception {
        Path cli = FakeCopilot.in(tmp).write();
        String step = "copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', copilotPath: '" + cli + "'";

        run(step);
        assertFalse(cliArguments().contains("--allow-all-tools"), "off unless an administrator turns it on");

        CopilotAutopilotConfiguration.get().setAllowAllTools(true);
        WorkflowRun b = run(step);
        assertTrue(cliArguments().contains("--allow-all-tools"));
        j.assertLogContains("[copilot] From the global configuration: allowAllTools", b);

        run(step + ", allowAllTools: false");
        assertFalse(cliArguments().contains("--allow-all-tools"), "the step's explicit false wins");
    }

    @Test
    void deniedToolsAddUpAndTheStepsOwnValuesWin() throws Exception {
        CopilotAutopilotConfiguration config = CopilotAutopilotConfiguration.get();
        config.setModel("gpt-admin");
        config.setDenyTools(List.of("shell(git push)"));
        Path cli = FakeCopilot.in(tmp).write();

        run("copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', model: 'gpt-step', denyTools: ['write'],"
                + " copilotPath: '" + cli + "'");

        List<String> args = cliArguments();
        assertTrue(args.contains("--model=gpt-step"), args.toString());
        assertTrue(args.contains("--deny-tool=write"), args.toString());
        assertTrue(args.contains("--deny-tool=shell(git push)"), args.toString());
    }

    @Test
    void aStepWithItsOwnProviderNeverReceivesTheDefaultProvidersKey() throws Exception {
        CopilotAutopilotConfiguration config = CopilotAutopilotConfiguration.get();
        config.setProviderBaseUrl("http://127.0.0.1:9/v1");
        config.setProviderCredentialsId("provider-key");
        config.setModel("admin-model");
        Path cli = FakeCopilot.in(tmp).sayingFirst("key=[$COPILOT_PROVIDER_API_KEY] url=[$COPILOT_PROVIDER_BASE_URL]").write();

        WorkflowRun own = run("copilotAutopilot prompt: 'x', providerBaseUrl: 'http://127.0.0.1:8/v1', copilotPath: '" + cli + "'");
        j.assertLogContains("key=[] url=[http://127.0.0.1:8/v1]", own);

        WorkflowRun inherited = run("copilotAutopilot prompt: 'x', copilotPath: '" + cli + "'");
        j.assertLogContains("url=[http://127.0.0.1:9/v1]", inherited);
        j.assertLogNotContains(ADMIN_PROVIDER_KEY, inherited);
        j.assertLogContains("From the global configuration: model, provider", inherited);
    }
}
