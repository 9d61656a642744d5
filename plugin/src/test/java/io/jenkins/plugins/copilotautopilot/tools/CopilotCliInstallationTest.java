package io.jenkins.plugins.copilotautopilot.tools;

import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotBuilder;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotConfiguration;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Label;
import hudson.model.Result;
import hudson.tools.InstallSourceProperty;
import io.jenkins.plugins.copilotautopilot.core.command.Platform;
import io.jenkins.plugins.copilotautopilot.core.testing.ArchiveWriter;
import io.jenkins.plugins.copilotautopilot.core.testing.FileServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fresh agent with nothing preinstalled: the Copilot CLI installation downloads the CLI (a release archive
 * served on 127.0.0.1 holding the fake CLI) and the step runs with nothing but the global configuration.
 */
@WithJenkins
class CopilotCliInstallationTest {
    private static final String NAME = "copilot-1.0.102";

    private JenkinsRule j;
    private FileServer server;
    private String archivePath;
    private byte[] archive;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
        Path fake = FakeCopilot.in(tmp.resolve("fake")).replaying("cli-happy").write();
        archive = new ArchiveWriter().file("copilot", 0755, fake).tarGz();
        archivePath = "/releases/v1.0.102/copilot-" + Platform.current().id() + ".tar.gz";
        server = FileServer.start().serve(archivePath, archive);
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private CopilotCliInstaller installer(String sha256) {
        CopilotCliInstaller installer = new CopilotCliInstaller(null);
        installer.setVersion("1.0.102");
        installer.setUrlTemplate(server.baseUrl() + "/releases/v{version}/copilot-{platform}.{ext}");
        installer.setSha256(sha256);
        return installer;
    }

    private void configureTool(CopilotCliInstaller installer) throws Exception {
        j.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class).setInstallations(
                new CopilotCliInstallation(NAME, null, List.of(new InstallSourceProperty(List.of(installer)))));
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private WorkflowJob pipeline(String script) throws Exception {
        return TestPipelines.create(j, script);
    }

    @Test
    void aFreshAgentRunsTheStepWithOnlyTheGlobalConfiguration() throws Exception {
        configureTool(installer(sha256(archive)));
        CopilotAutopilotConfiguration config = CopilotAutopilotConfiguration.get();
        config.getDefaults().setInstallation(NAME);
        config.getDefaults().setCredentialsId("copilot-token");
        j.createOnlineSlave(Label.get("fresh"));
        WorkflowJob p = pipeline("node('fresh') { copilotAutopilot prompt: 'Create hello.txt' }");

        WorkflowRun first = j.buildAndAssertSuccess(p);

        j.assertLogContains("[copilot] From the global configuration: credentialsId, installation", first);
        j.assertLogContains("[copilot] GitHub token: credential 'copilot-token' (global default)", first);
        j.assertLogContains("[copilot] Installing Copilot CLI 1.0.102 for " + Platform.current().id() + " from "
                + server.baseUrl() + archivePath, first);
        j.assertLogContains("SHA-256 " + sha256(archive), first);
        j.assertLogContains("[copilot] COMPLETED", first);
        j.assertLogNotContains(TestCredentials.TOKEN, first);
        assertThat(Files.readString(tmp.resolve("fake/args.txt")), containsString("--autopilot"));

        WorkflowRun second = j.buildAndAssertSuccess(p);
        j.assertLogContains("Copilot CLI 1.0.102 is already installed", second);
        for (WorkflowRun b : List.of(first, second)) { // the agent's install lines come before the session's header
            String log = JenkinsRule.getLog(b);
            int installLine = Math.max(log.indexOf("[copilot] Installed Copilot CLI"), log.indexOf("is already installed"));
            assertTrue(installLine >= 0 && installLine < log.indexOf("[copilot] Copilot CLI ("), log);
        }
        assertEquals(1, server.hits(archivePath), "downloaded once per agent");
    }

    @Test
    void aChecksumMismatchFailsTheBuildWithTheReason() throws Exception {
        configureTool(installer("0".repeat(64)));
        WorkflowRun b = j.assertBuildStatus(Result.FAILURE, pipeline(
                "node { copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', installation: '" + NAME + "' }")
                .scheduleBuild2(0));

        j.assertLogContains("has SHA-256 " + sha256(archive) + ", not the expected " + "0".repeat(64), b);
        j.assertLogContains("Nothing was installed", b);
    }

    @Test
    void aFailedInstallIsOneLineWithoutAStackTraceInAFreestyleBuild() throws Exception {
        CopilotCliInstaller missing = installer(null);
        missing.setVersion("9.9.9"); // the server has no such archive: HTTP 404
        configureTool(missing);
        FreeStyleProject project = j.createFreeStyleProject();
        CopilotAutopilotBuilder builder = new CopilotAutopilotBuilder(new CopilotAutopilotStep("Create hello.txt"));
        builder.getTask().setCredentialsId("copilot-token");
        builder.getTask().setInstallation(NAME);
        project.getBuildersList().add(builder);

        FreeStyleBuild b = j.assertBuildStatus(Result.FAILURE, project.scheduleBuild2(0));

        j.assertLogContains("failed: HTTP 404. Check the version and the download URL template.", b);
        String log = JenkinsRule.getLog(b);
        assertThat(log, not(containsString("\tat ")));
        assertThat(log, not(containsString("java.io.IOException")));
        assertThat(log, not(containsString("Also:")));
    }

    @Test
    void anUnknownInstallationNameSaysWhereToAddIt() throws Exception {
        WorkflowRun b = j.assertBuildStatus(Result.FAILURE, pipeline(
                "node { copilotAutopilot prompt: 'x', credentialsId: 'copilot-token', installation: 'nope' }")
                .scheduleBuild2(0));

        j.assertLogContains("there is no Copilot CLI installation named 'nope'", b);
        j.assertLogContains("Manage Jenkins \u00bb Tools", b);
    }

    @Test
    void theToolStepInstallsItAndCopilotCliPointsTheStepAtIt() throws Exception {
        configureTool(installer(null));
        WorkflowRun b = j.buildAndAssertSuccess(pipeline("node {\n"
                + "  def home = tool name: '" + NAME + "', type: 'copilotCli'\n"
                + "  echo \"home=${home}\"\n"
                + "  withEnv([\"COPILOT_CLI=${home}\"]) {\n"
                + "    copilotAutopilot prompt: 'Create hello.txt', credentialsId: 'copilot-token'\n"
                + "  }\n"
                + "}"));

        j.assertLogContains("[copilot] Installing Copilot CLI 1.0.102", b);
        j.assertLogContains("[copilot] COMPLETED", b);
        String log = JenkinsRule.getLog(b);
        String home = log.substring(log.indexOf("home=") + 5, log.indexOf('\n', log.indexOf("home=")));
        assertThat(home.trim(), endsWith(NAME));
    }

    @Test
    void aFreestyleStepUsesTheDefaultsToo() throws Exception {
        configureTool(installer(null));
        CopilotAutopilotConfiguration config = CopilotAutopilotConfiguration.get();
        config.getDefaults().setInstallation(NAME);
        config.getDefaults().setCredentialsId("copilot-token");
        config.getDefaults().setDenyTools(List.of("shell(git push)"));
        FreeStyleProject project = j.createFreeStyleProject();
        project.getBuildersList().add(new CopilotAutopilotBuilder(new CopilotAutopilotStep("Create hello.txt")));

        FreeStyleBuild b = j.buildAndAssertSuccess(project);

        j.assertLogContains("[copilot] From the global configuration: credentialsId, denyTools, installation", b);
        assertThat(Files.readString(tmp.resolve("fake/args.txt")), containsString("--deny-tool=shell(git push)\n"));
    }
}
