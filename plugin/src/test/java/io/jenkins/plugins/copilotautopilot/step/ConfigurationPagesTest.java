package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;
import io.jenkins.plugins.copilotautopilot.tools.CopilotCliInstallation;
import io.jenkins.plugins.copilotautopilot.tools.CopilotCliInstaller;

import hudson.model.FreeStyleProject;
import hudson.tools.InstallSourceProperty;
import java.util.List;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlOption;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.html.HtmlSelect;
import org.htmlunit.html.HtmlTextArea;
import org.jenkinsci.plugins.workflow.cps.SnippetizerTester;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Every configuration page the plugin adds to renders in full (a broken view takes the whole page down), has its
 * Save button, and saves what it shows: Manage Jenkins » System and » Tools, the Freestyle step's form and the
 * Snippet Generator. An unchanged form never pins a value that has a global default.
 */
@WithJenkins
class ConfigurationPagesTest {
    private static final String TOOL = "copilot-1.0.102";

    private JenkinsRule j;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
        CopilotCliInstaller installer = new CopilotCliInstaller(null);
        installer.setVersion("1.0.102");
        installer.setSha256("4f2c9a3be0f1d6c7a8b9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1");
        j.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class).setInstallations(
                new CopilotCliInstallation(TOOL, null, List.of(new InstallSourceProperty(List.of(installer)))));
    }

    private static List<String> optionTexts(HtmlSelect select) {
        return select.getOptions().stream().map(HtmlOption::getText).toList();
    }

    /** The select of this field whose options include this text (other plugins may use the same field name). */
    private static HtmlSelect select(HtmlForm form, String field, String option) {
        return form.getSelectsByName("_." + field).stream().filter(s -> optionTexts(s).contains(option)).findFirst()
                .orElseThrow(() -> new AssertionError("no select _." + field + " offering '" + option + "'"));
    }

    private static void assertSaveButton(HtmlForm form) {
        DomElement save = form.getButtonByName("Submit");
        assertEquals("Save", save.getTextContent().strip());
    }

    @Test
    void theSystemPageRendersOurSectionAndSavesIt() throws Exception {
        CopilotAutopilotConfiguration config = CopilotAutopilotConfiguration.get();
        config.getDefaults().setInstallation(TOOL);
        config.getDefaults().setCredentialsId("copilot-token");
        config.getDefaults().setTimeout(30);
        config.getDefaults().setResultWhenIncomplete("UNSTABLE");

        JenkinsRule.WebClient wc = j.createWebClient();
        HtmlPage page = wc.goTo("configure");
        wc.waitForBackgroundJavaScript(5_000);
        assertThat(page.asNormalizedText(), containsString("Copilot Autopilot defaults"));
        HtmlForm form = page.getFormByName("config");
        assertSaveButton(form);
        HtmlSelect installation = select(form, "installation", "None: COPILOT_CLI or the PATH on the agent");
        assertThat(optionTexts(installation), hasItem(TOOL));
        assertThat(String.join("|", optionTexts(installation)), not(containsString("global")));
        assertEquals(TOOL, installation.getSelectedOptions().get(0).getValueAttribute());
        HtmlSelect result = select(form, "resultWhenIncomplete", "Not set: FAILURE");
        assertEquals("UNSTABLE", result.getSelectedOptions().get(0).getValueAttribute());

        j.submit(form, "Submit");

        CopilotAutopilotConfiguration after = CopilotAutopilotConfiguration.get();
        assertEquals(TOOL, after.getDefaults().getInstallation());
        assertEquals("copilot-token", after.getDefaults().getCredentialsId());
        assertEquals(Integer.valueOf(30), after.getDefaults().getTimeout());
        assertEquals("UNSTABLE", after.getDefaults().getResultWhenIncomplete());
    }

    @Test
    void anUnchangedSystemPageSetsNoDefaults() throws Exception {
        j.configRoundtrip();

        CopilotAutopilotConfiguration after = CopilotAutopilotConfiguration.get();
        assertNull(after.getDefaults().getInstallation());
        assertNull(after.getDefaults().getResultWhenIncomplete(), "not FAILURE: a value nobody chose");
        assertNull(after.getDefaults().getTimeout());
        assertNull(after.getDefaults().getInactivityTimeout());
        assertNull(after.getDefaults().getMaxAutopilotContinues());
        assertNull(after.getDefaults().getProviderType());
        assertNull(after.getDefaults().getProviderWireApi());
    }

    @Test
    void emptyListsOnTheSystemPageStayEmpty() throws Exception {
        CopilotAutopilotStep defaults = CopilotAutopilotConfiguration.get().getDefaults();
        defaults.setAllowTools(List.of());
        defaults.setDenyTools(List.of());
        defaults.setApproveTools(List.of());
        defaults.setApprovers(List.of());
        defaults.setAllowUrls(List.of());
        defaults.setDenyUrls(List.of("example.invalid"));

        j.configRoundtrip(); // a form that showed "[]" for an empty list saved it as the entry "[]", which no step accepts

        CopilotAutopilotStep after = CopilotAutopilotConfiguration.get().getDefaults();
        for (List<String> list : List.of(entries(after.getAllowTools()), entries(after.getDenyTools()),
                entries(after.getApproveTools()), entries(after.getApprovers()), entries(after.getAllowUrls()))) {
            assertEquals(List.of(), list);
        }
        assertEquals(List.of("example.invalid"), after.getDenyUrls());
    }

    private static List<String> entries(List<String> list) {
        return list == null ? List.of() : list;
    }

    @Test
    void theToolsPageShowsTheInstallationAndSavesIt() throws Exception {
        HtmlPage page = j.createWebClient().goTo("manage/configureTools/");
        assertThat(page.asXml(), containsString(TOOL));
        assertThat(page.asNormalizedText(), containsString("Copilot CLI installations"));
        HtmlForm form = page.getFormByName("config");
        assertSaveButton(form);

        j.submit(form, "Submit");

        CopilotCliInstallation[] tools = j.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class).getInstallations();
        assertEquals(1, tools.length);
        assertEquals(TOOL, tools[0].getName());
        CopilotCliInstaller installer = tools[0].getProperties().get(InstallSourceProperty.class).installers.get(CopilotCliInstaller.class);
        assertEquals("1.0.102", installer.getVersion());
        assertEquals("4f2c9a3be0f1d6c7a8b9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1", installer.getSha256());
        assertNull(installer.getUrlTemplate());
    }

    @Test
    void anUnchangedFreestyleStepKeepsEveryGlobalDefault() throws Exception {
        CopilotAutopilotConfiguration.get().getDefaults().setResultWhenIncomplete("UNSTABLE");
        FreeStyleProject p = j.createFreeStyleProject();
        p.getBuildersList().add(new CopilotAutopilotBuilder(new CopilotAutopilotStep("Fix the build")));

        JenkinsRule.WebClient wc = j.createWebClient();
        HtmlPage page = wc.getPage(p, "configure");
        wc.waitForBackgroundJavaScript(5_000);
        HtmlForm form = page.getFormByName("config");
        assertSaveButton(form);
        HtmlSelect result = select(form, "resultWhenIncomplete", "Default: the global setting, else FAILURE");
        assertEquals("", result.getSelectedOptions().get(0).getValueAttribute());
        select(form, "allowAllTools", "Default: the global setting, else no");
        select(form, "installation", "Default: the global setting, else COPILOT_CLI or the PATH on the agent");
        j.submit(form, "Submit");

        CopilotAutopilotBuilder after = p.getBuildersList().get(CopilotAutopilotBuilder.class);
        assertEquals("Fix the build", after.getTask().getPrompt());
        assertNull(after.getTask().getResultWhenIncomplete(), "the administrator's UNSTABLE stays in charge");
        assertNull(after.getTask().getAllowAllTools());
        assertNull(after.getTask().getInstallation());
        assertNull(after.getTask().getProviderType());
        assertNull(after.getTask().getProviderWireApi());
        assertNull(after.getTask().getMaxAutopilotContinues());
        assertNull(after.getTask().getTimeout());
        assertNull(after.getTask().getInactivityTimeout());
        assertNull(after.getTask().getCredentialsId());
    }

    @Test
    void explicitValuesSurviveTheFreestyleForm() throws Exception {
        CopilotAutopilotBuilder builder = new CopilotAutopilotBuilder(new CopilotAutopilotStep("Fix the build"));
        builder.getTask().setAllowAllTools(false);
        builder.getTask().setResultWhenIncomplete("SUCCESS");
        builder.getTask().setInstallation(TOOL);
        builder.getTask().setProviderBaseUrl("http://127.0.0.1:11434/v1");
        builder.getTask().setProviderType("anthropic");
        builder.getTask().setTimeout(0);

        CopilotAutopilotBuilder after = j.configRoundtrip(builder);

        j.assertEqualDataBoundBeans(builder, after);
        assertEquals(Boolean.FALSE, after.getTask().getAllowAllTools(), "an explicit 'no' is kept, not turned into the default");
        assertEquals(Integer.valueOf(0), after.getTask().getTimeout());
    }

    @Test
    void theSnippetGeneratorRendersTheStepAndGeneratesOnlyWhatWasSet() throws Exception {
        CopilotAutopilotConfiguration.get().getDefaults().setResultWhenIncomplete("UNSTABLE");
        WorkflowJob job = TestPipelines.create(j, "echo 'x'");
        JenkinsRule.WebClient wc = j.createWebClient();
        HtmlPage page = wc.getPage(job, "pipeline-syntax");
        assertEquals(200, page.getWebResponse().getStatusCode());

        HtmlSelect steps = (HtmlSelect) page.querySelector("form[name='config'] select.dropdownList");
        HtmlOption ours = steps.getOptions().stream().filter(o -> o.getText().startsWith("copilotAutopilot:")).findFirst()
                .orElseThrow(() -> new AssertionError("copilotAutopilot is in the Snippet Generator"));
        steps.setSelectedAttribute(ours, true);
        wc.waitForBackgroundJavaScript(10_000);
        HtmlTextArea prompt = (HtmlTextArea) page.querySelector("textarea[name='_.prompt']");
        assertNotNull(prompt, "the step's form rendered");
        prompt.setText("x");
        wc.waitForBackgroundJavaScript(5_000);
        String json = page.executeJavaScript("buildFormTree(document.forms.config);"
                + " JSON.stringify(JSON.parse(document.forms.config.elements.json.value).prototype)")
                .getJavaScriptResult().toString();

        assertThat(json, containsString("\"prompt\":\"x\""));

        // nothing but the prompt: no resultWhenIncomplete: 'FAILURE' over the administrator's UNSTABLE
        new SnippetizerTester(j).assertGenerateSnippet(json, "copilotAutopilot 'x'", j.getURL() + job.getUrl() + "pipeline-syntax/");
    }

    @Test
    void theTaskBoxIsNotRedOnAFreshFormAndAPromptFileAloneGeneratesNoPrompt() throws Exception {
        WorkflowJob job = TestPipelines.create(j, "echo 'x'");
        CopilotAutopilotStep.DescriptorImpl descriptor = j.jenkins.getDescriptorByType(CopilotAutopilotStep.DescriptorImpl.class);
        assertEquals(hudson.util.FormValidation.Kind.OK, descriptor.doCheckPrompt("", "").kind, "a fresh form");
        assertEquals(hudson.util.FormValidation.Kind.OK, descriptor.doCheckPrompt("", ".ci/task.md").kind, "the task in a file");
        assertEquals(hudson.util.FormValidation.Kind.OK, descriptor.doCheckPrompt("Fix it", "").kind);
        assertEquals(hudson.util.FormValidation.Kind.ERROR, descriptor.doCheckPrompt("Fix it", ".ci/task.md").kind, "both");

        String json = "{\"stapler-class\":\"" + CopilotAutopilotStep.class.getName() + "\",\"prompt\":\"\",\"promptFile\":\".ci/task.md\"}";
        new SnippetizerTester(j).assertGenerateSnippet(json, "copilotAutopilot promptFile: '.ci/task.md'",
                j.getURL() + job.getUrl() + "pipeline-syntax/");
    }
}
