package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.XmlFile;
import hudson.model.Saveable;
import hudson.model.listeners.SaveableListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.htmlunit.html.HtmlForm;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** Counts the saves of the global defaults. */
    @TestExtension("theSystemPageSavesTheDefaultsOncePerSubmit")
    public static final class Saves extends SaveableListener {
        static final AtomicInteger COUNT = new AtomicInteger();

        @Override
        public void onChange(Saveable o, XmlFile file) {
            if (o instanceof CopilotAutopilotConfiguration) {
                COUNT.incrementAndGet();
            }
        }
    }

    @Test
    void theSystemPageSavesTheDefaultsOncePerSubmit() throws Exception {
        CopilotAutopilotStep defaults = new CopilotAutopilotStep(null);
        defaults.setModel("gpt-5");
        defaults.setTimeout(30);
        defaults.setAllowTools(List.of("shell(mvn:*)", "write"));
        defaults.setMaxTokens(5_000_000L);
        CopilotAutopilotConfiguration.get().setDefaults(defaults); // a script or Configuration as Code: saved at once
        assertEquals(1, Saves.COUNT.get());

        j.submit(j.createWebClient().goTo("configure").getFormByName("config"));

        assertEquals(2, Saves.COUNT.get(), "one more save for the whole form, not one per setting");
        assertEquals("gpt-5", CopilotAutopilotConfiguration.get().getDefaults().getModel());
        assertEquals(Long.valueOf(5_000_000), new CopilotAutopilotConfiguration().getDefaults().getMaxTokens(), "saved to disk");
    }

    @Test
    void theSystemPageKeepsEverySetting() throws Exception {
        CopilotAutopilotConfiguration config = CopilotAutopilotConfiguration.get();
        config.getDefaults().setCredentialsId("copilot-token");
        config.getDefaults().setModel("gpt-5");
        config.getDefaults().setMaxAutopilotContinues(3);
        config.getDefaults().setAllowTools(List.of("shell(mvn:*)", "write"));
        config.getDefaults().setDenyTools(List.of("shell(git push)"));
        config.getDefaults().setTimeout(30);
        config.getDefaults().setInactivityTimeout(5);
        config.getDefaults().setResultWhenIncomplete("UNSTABLE");
        config.getDefaults().setResultWhenBlocked("SUCCESS");
        config.getDefaults().setRecordChanges(false);
        config.getDefaults().setProviderBaseUrl("http://127.0.0.1:11434/v1");
        config.getDefaults().setProviderType("openai");
        config.getDefaults().setProviderCredentialsId("provider-key");
        config.getDefaults().setOffline(true);
        config.getDefaults().setAllowUrls(List.of("https://registry.example.com"));
        config.getDefaults().setDenyUrls(List.of("http://169.254.169.254", "evil.example"));
        config.getDefaults().setSandbox(true);
        config.setKeptSessionDays(7);

        HtmlForm form = j.createWebClient().goTo("configure").getFormByName("config");
        j.submit(form);

        CopilotAutopilotConfiguration after = CopilotAutopilotConfiguration.get();
        assertEquals("copilot-token", after.getDefaults().getCredentialsId());
        assertEquals("gpt-5", after.getDefaults().getModel());
        assertEquals(Integer.valueOf(3), after.getDefaults().getMaxAutopilotContinues());
        assertNull(after.getDefaults().getAllowAllTools(), "not set: off");
        assertThat(after.getDefaults().getAllowTools(), contains("shell(mvn:*)", "write"));
        assertThat(after.getDefaults().getDenyTools(), contains("shell(git push)"));
        assertEquals(Integer.valueOf(30), after.getDefaults().getTimeout());
        assertEquals(Integer.valueOf(5), after.getDefaults().getInactivityTimeout());
        assertEquals("UNSTABLE", after.getDefaults().getResultWhenIncomplete());
        assertEquals("SUCCESS", after.getDefaults().getResultWhenBlocked());
        assertEquals(Boolean.FALSE, after.getDefaults().getRecordChanges(), "a page save keeps an administrator's no");
        assertEquals("http://127.0.0.1:11434/v1", after.getDefaults().getProviderBaseUrl());
        assertEquals("openai", after.getDefaults().getProviderType());
        assertEquals("provider-key", after.getDefaults().getProviderCredentialsId());
        assertTrue(after.getDefaults().isOffline());
        assertThat(after.getDefaults().getAllowUrls(), contains("https://registry.example.com"));
        assertThat(after.getDefaults().getDenyUrls(), contains("http://169.254.169.254", "evil.example"));
        assertEquals(Boolean.TRUE, after.getDefaults().getSandbox());
        assertEquals(Integer.valueOf(7), after.getKeptSessionDays());
        assertNull(after.getKeptSessionsPerJob(), "not set: the default");
        assertNull(after.getUntrustedChangeRequests(), "not set: restricted, and nothing saved for it");
        assertThat(Files.readString(j.jenkins.getRootDir().toPath().resolve(CopilotAutopilotConfiguration.class.getName() + ".xml")),
                not(containsString("untrustedChangeRequests")));
        assertThat(Files.readString(j.jenkins.getRootDir().toPath().resolve(CopilotAutopilotConfiguration.class.getName() + ".xml")),
                not(containsString(ADMIN_PROVIDER_KEY)));
    }

    @Test
    void allowAllToolsFollowsTheDefaultUnlessTheStepSaysOtherwise() throws Exception {
        Path cli = FakeCopilot.in(tmp).write();
        String step = "copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', copilotPath: '" + cli + "'";

        run(step);
        assertFalse(cliArguments().contains("--allow-all-tools"), "off unless an administrator turns it on");

        CopilotAutopilotConfiguration.get().getDefaults().setAllowAllTools(true);
        WorkflowRun b = run(step);
        assertTrue(cliArguments().contains("--allow-all-tools"));
        j.assertLogContains("[copilot] From the global configuration: allowAllTools", b);

        run(step + ", allowAllTools: false");
        assertFalse(cliArguments().contains("--allow-all-tools"), "the step's explicit false wins");
    }

    @Test
    void recordingTheChangesFollowsTheDefaultUnlessTheStepSaysOtherwise() throws Exception {
        Path cli = FakeCopilot.in(tmp).writingFile("hello.txt", "hello\n").write();
        String gitWorkTree = "sh 'git init -q . && git -c user.email=t@example.invalid -c user.name=t commit -q --allow-empty -m start'\n";
        String step = "def r = copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', copilotPath: '" + cli + "'";

        CopilotAutopilotConfiguration.get().getDefaults().setRecordChanges(false);
        WorkflowRun off = j.buildAndAssertSuccess(TestPipelines.create(j, "node {\n" + gitWorkTree + step + "\necho \"files=${r.changedFiles.size()}\" }"));
        j.assertLogContains("[copilot] From the global configuration: recordChanges", off);
        j.assertLogContains("files=0", off);
        j.assertLogNotContains("Changed:", off);

        WorkflowRun on = j.buildAndAssertSuccess(TestPipelines.create(j, "node {\n" + gitWorkTree + step
                + ", recordChanges: true\necho \"files=${r.changedFiles.size()}\" }"));
        j.assertLogContains("files=1", on);
    }

    @Test
    void theLimitsOnOneToolCallAndOnTheStartReachTheSessionFromTheStepOrTheDefaults() throws Exception {
        Path cli = FakeCopilot.in(tmp).write();
        String step = "copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', copilotPath: '" + cli + "'";

        WorkflowRun own = run(step + ", toolTimeout: 5, startupTimeout: 2");
        j.assertLogContains("| limits: 1h wall clock, 10m without events, 5m per tool call, 2m to start", own);

        CopilotAutopilotConfiguration.get().getDefaults().setToolTimeout(15);
        WorkflowRun fromDefaults = run(step);
        j.assertLogContains("[copilot] From the global configuration: toolTimeout", fromDefaults);
        j.assertLogContains("| limits: 1h wall clock, 10m without events, 15m per tool call", fromDefaults);
        j.assertLogNotContains("to start", fromDefaults);
    }

    @Test
    void sessionsRunOnlyOnTheNodesTheAdministratorAllows() throws Exception {
        FakeCopilot fake = FakeCopilot.in(tmp);
        Path cli = fake.write();
        String step = "copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', copilotPath: '" + cli + "'";
        CopilotAutopilotConfiguration.get().setAllowedLabels("copilot && linux");
        hudson.slaves.DumbSlave allowed = j.createOnlineSlave();
        allowed.setLabelString("copilot linux");

        WorkflowRun refused = j.assertBuildStatus(hudson.model.Result.FAILURE,
                TestPipelines.create(j, "node('built-in') { " + step + " }").scheduleBuild2(0));
        j.assertLogContains("Copilot sessions may not run on the built-in node: the administrator allows them only on nodes"
                + " matching 'copilot && linux'", refused);
        j.assertLogNotContains("\tat ", refused);
        assertFalse(Files.exists(fake.argsFile()), "nothing was started");

        j.buildAndAssertSuccess(TestPipelines.create(j, "node('copilot') { " + step + " }"));
        assertEquals(hudson.util.FormValidation.Kind.ERROR, CopilotAutopilotConfiguration.get().doCheckAllowedLabels("copilot &&").kind);
        assertEquals(hudson.util.FormValidation.Kind.OK, CopilotAutopilotConfiguration.get().doCheckAllowedLabels("copilot && linux").kind);
    }

    @Test
    void allowAllPathsReachesTheCliUnlessTheAdministratorSaysNo() throws Exception {
        Path cli = FakeCopilot.in(tmp).write();
        String step = "copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', copilotPath: '" + cli + "'";

        run(step + ", allowAllPaths: true");
        assertTrue(cliArguments().contains("--allow-all-paths"));
        run(step);
        assertFalse(cliArguments().contains("--allow-all-paths"), "off unless someone turns it on");

        CopilotAutopilotConfiguration.get().getDefaults().setAllowAllPaths(false);
        WorkflowRun refused = j.assertBuildStatus(hudson.model.Result.FAILURE,
                TestPipelines.create(j, "node { " + step + ", allowAllPaths: true }").scheduleBuild2(0));
        j.assertLogContains("allowAllPaths is turned off by the administrator", refused);
    }

    @Test
    void deniedToolsAddUpAndTheStepsOwnValuesWin() throws Exception {
        CopilotAutopilotConfiguration config = CopilotAutopilotConfiguration.get();
        config.getDefaults().setModel("gpt-admin");
        config.getDefaults().setDenyTools(List.of("shell(git push)"));
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
        config.getDefaults().setProviderBaseUrl("http://127.0.0.1:9/v1");
        config.getDefaults().setProviderCredentialsId("provider-key");
        config.getDefaults().setModel("admin-model");
        Path cli = FakeCopilot.in(tmp).sayingFirst("key=[$COPILOT_PROVIDER_API_KEY] url=[$COPILOT_PROVIDER_BASE_URL]").write();

        WorkflowRun own = run("copilotAutopilot prompt: 'x', providerBaseUrl: 'http://127.0.0.1:8/v1', copilotPath: '" + cli + "'");
        j.assertLogContains("key=[] url=[http://127.0.0.1:8/v1]", own);

        WorkflowRun inherited = run("copilotAutopilot prompt: 'x', copilotPath: '" + cli + "'");
        j.assertLogContains("url=[http://127.0.0.1:9/v1]", inherited);
        j.assertLogNotContains(ADMIN_PROVIDER_KEY, inherited);
        j.assertLogContains("From the global configuration: model, provider", inherited);
    }
}
