package io.jenkins.plugins.copilotautopilot.step;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import hudson.model.FreeStyleProject;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import java.net.URL;
import java.util.List;
import java.util.Map;
import org.htmlunit.HttpMethod;
import org.htmlunit.WebRequest;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * The forms are drawn from the catalog: every setting has its property on the step, its help page and its field on the
 * form (the global form only those an administrator may set), is checked as a session reads it, and its selection
 * has its entries, with the setting's own words where it has them.
 */
@WithJenkins
class SettingFieldsTest {
    private JenkinsRule j;
    private CopilotAutopilotStep.DescriptorImpl descriptor;

    @BeforeEach
    void setUp(JenkinsRule rule) {
        this.j = rule;
        descriptor = j.jenkins.getDescriptorByType(CopilotAutopilotStep.DescriptorImpl.class);
    }

    @Test
    void everySettingHasAPropertyOnTheStepAndAHelpPage() {
        CopilotAutopilotStep step = new CopilotAutopilotStep("task");
        step.setModel("gpt-test");
        step.setTimeout(5);
        step.setDenyTools(List.of("shell(rm)"));
        step.setOffline(true);
        SettingValues values = StepSettings.of(step);
        assertEquals(Map.of("model", "gpt-test", "timeout", 5, "denyTools", List.of("shell(rm)"), "offline", true), values.asMap());
        for (Setting<?> setting : SessionSettings.all()) {
            String help = "CopilotAutopilotStep/help-" + setting.name() + ".html";
            assertNotNull(CopilotAutopilotStep.class.getResource(help), help);
        }
    }

    @Test
    void theTaskFormShowsEverySettingAndTheGlobalFormThoseWithADefault() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        p.getBuildersList().add(new CopilotAutopilotBuilder(new CopilotAutopilotStep("task")));
        HtmlPage task = j.createWebClient().getPage(p, "configure");
        HtmlPage global = j.createWebClient().goTo("configure");
        for (Setting<?> setting : SessionSettings.all()) {
            String field = "name=\"_." + setting.name() + "\"";
            assertThat(setting.name(), task.getWebResponse().getContentAsString(), containsString(field));
            if (setting.hasDefault()) {
                assertThat(setting.name(), global.getWebResponse().getContentAsString(), containsString(field));
            } else {
                assertThat(setting.name(), global.getWebResponse().getContentAsString(), not(containsString(field)));
            }
        }
    }

    @Test
    void aFieldIsCheckedAsASessionReadsIt() throws Exception {
        assertEquals(FormValidation.Kind.ERROR, descriptor.getSetting("timeout").doCheck(null, "-1", null).kind);
        assertThat(descriptor.getSetting("timeout").doCheck(null, "-1", null).getMessage(),
                containsString("timeout must be 0 (no limit) or a number of minutes; was -1."));
        assertEquals(FormValidation.Kind.OK, descriptor.getSetting("timeout").doCheck(null, "30", null).kind);
        assertEquals(FormValidation.Kind.ERROR, descriptor.getSetting("allowUrls").doCheck(null, "example.com\nnot a url", null).kind);
        assertEquals(FormValidation.Kind.OK, descriptor.getSetting("allowUrls").doCheck(null, "example.com\n\nhttps://a.example", null).kind);
        assertEquals(FormValidation.Kind.ERROR, descriptor.getSetting("workingDirectory").doCheck(null, "../out", null).kind);
        assertEquals(FormValidation.Kind.ERROR, descriptor.getSetting("session").doCheck(null, "-bad", null).kind);
    }

    @Test
    void theChecksAndSelectionsAnswerPostsUnderTheStepsDescriptor() throws Exception {
        JenkinsRule.WebClient wc = j.createWebClient();
        String base = "descriptorByName/" + CopilotAutopilotStep.class.getName() + "/setting/";
        WebRequest check = new WebRequest(new URL(j.getURL(), base + "providerBaseUrl/check?value=http://127.0.0.1:9/v1&model="),
                HttpMethod.POST);
        String answer = wc.getPage(wc.addCrumb(check)).getWebResponse().getContentAsString();
        assertThat("the provider needs a model, sent along with the URL", answer, containsString("needs a model"));
        WebRequest fill = new WebRequest(new URL(j.getURL(), base + "sandbox/fillItems?copilotScope=global"), HttpMethod.POST);
        String items = wc.getPage(wc.addCrumb(fill)).getWebResponse().getContentAsString();
        assertThat(items, containsString("Yes, for every step: a step cannot turn it off"));
    }

    @Test
    void aSelectionSaysWhatItsEmptyEntryMeansOnATaskAndAmongTheDefaults() {
        ListBoxModel task = descriptor.getSetting("recordChanges").items(null, false, null);
        ListBoxModel global = descriptor.getSetting("recordChanges").items(null, true, null);
        assertEquals("Default: the global setting, else yes", task.get(0).name);
        assertEquals("", task.get(0).value);
        assertEquals("Not set: yes", global.get(0).name);
        assertThat(descriptor.getSetting("providerType").items(null, false, null).stream().map(o -> o.value).toList(),
                hasItem("anthropic"));
        // a choice with no words of its own gets the generic ones
        ListBoxModel blocked = descriptor.getSetting("resultWhenBlocked").items(null, false, null);
        assertEquals(List.of("", "FAILURE", "UNSTABLE", "SUCCESS"), blocked.stream().map(o -> o.value).toList());
    }
}
