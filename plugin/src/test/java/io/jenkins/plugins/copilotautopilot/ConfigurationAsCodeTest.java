package io.jenkins.plugins.copilotautopilot;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import hudson.tools.InstallSourceProperty;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.casc.ConfigurationContext;
import io.jenkins.plugins.casc.ConfiguratorRegistry;
import io.jenkins.plugins.casc.misc.ConfiguredWithCode;
import io.jenkins.plugins.casc.misc.JenkinsConfiguredWithCodeRule;
import io.jenkins.plugins.casc.misc.Util;
import io.jenkins.plugins.casc.misc.junit.jupiter.WithJenkinsConfiguredWithCode;
import io.jenkins.plugins.casc.model.CNode;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The README's Configuration as Code example: imported as written, exported back with the same values. */
@WithJenkinsConfiguredWithCode
class ConfigurationAsCodeTest {

    @Test
    @ConfiguredWithCode("configuration-as-code.yml")
    void importsTheDefaultsAndTheToolAndExportsThemBack(JenkinsConfiguredWithCodeRule r) throws Exception {
        CopilotAutopilotConfiguration config = CopilotAutopilotConfiguration.get();
        assertEquals("copilot-1.0.102", config.getInstallation());
        assertEquals("copilot-token", config.getCredentialsId());
        assertEquals("gpt-5", config.getModel());
        assertThat(config.getAllowTools(), contains("shell(mvn:*)", "write"));
        assertThat(config.getDenyTools(), contains("shell(git push)"));
        assertEquals(Integer.valueOf(30), config.getTimeout());
        assertEquals(Integer.valueOf(5), config.getInactivityTimeout());
        assertEquals("UNSTABLE", config.getResultWhenIncomplete());
        assertFalse(config.isAllowAllTools());

        CopilotCliInstallation[] tools = r.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class).getInstallations();
        assertEquals(1, tools.length);
        assertEquals("copilot-1.0.102", tools[0].getName());
        CopilotCliInstaller installer = tools[0].getProperties().get(InstallSourceProperty.class).installers.get(CopilotCliInstaller.class);
        assertEquals("1.0.102", installer.getVersion());
        assertEquals("https://mirror.example.com/copilot/{version}/copilot-{platform}.{ext}", installer.getUrlTemplate());
        assertEquals("4f2c9a3be0f1d6c7a8b9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1", installer.getSha256());

        ConfigurationContext context = new ConfigurationContext(ConfiguratorRegistry.get());
        CNode exported = Util.getUnclassifiedRoot(context).get("copilotAutopilot");
        Map<String, Object> values = new Yaml().load(Util.toYamlString(exported));
        assertEquals("copilot-1.0.102", values.get("installation"));
        assertEquals("copilot-token", values.get("credentialsId"));
        assertEquals("gpt-5", values.get("model"));
        assertEquals(List.of("shell(mvn:*)", "write"), values.get("allowTools"));
        assertEquals(List.of("shell(git push)"), values.get("denyTools"));
        assertEquals(30, values.get("timeout"));
        assertEquals("UNSTABLE", values.get("resultWhenIncomplete"));

        // the checksum belongs to one version: the export names it, even when it is the version this plugin pins
        assertEquals("1.0.102", CliLocator.PINNED_VERSION, "the README's example uses the pinned version");
        String toolYaml = Util.toYamlString(Util.getToolRoot(context).get("copilotCli"));
        assertTrue(Pattern.compile("\\bversion: \"?1\\.0\\.102\"?").matcher(toolYaml).find(), toolYaml);
        assertTrue(Pattern.compile("\\bsha256: \"?4f2c9a3be0f1d6c7a8b9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1").matcher(toolYaml).find(), toolYaml);
    }

    @Test
    @ConfiguredWithCode("configuration-as-code-no-version.yml")
    void anInstallerWithoutAVersionFollowsThePinnedOneAndExportsNone(JenkinsConfiguredWithCodeRule r) throws Exception {
        CopilotCliInstaller installer = r.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class).getInstallations()[0]
                .getProperties().get(InstallSourceProperty.class).installers.get(CopilotCliInstaller.class);
        assertNull(installer.getVersion());
        assertEquals(CliLocator.PINNED_VERSION, installer.getEffectiveVersion());

        String toolYaml = Util.toYamlString(Util.getToolRoot(new ConfigurationContext(ConfiguratorRegistry.get())).get("copilotCli"));
        assertThat(toolYaml, containsString("copilotCliRelease"));
        assertThat(toolYaml, not(containsString("version:")));
    }
}
