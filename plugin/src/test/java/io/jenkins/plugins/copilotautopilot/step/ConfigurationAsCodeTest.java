package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.testing.ReadmeBlocks;
import io.jenkins.plugins.copilotautopilot.tools.CopilotCliInstallation;
import io.jenkins.plugins.copilotautopilot.tools.CopilotCliInstaller;

import hudson.tools.InstallSourceProperty;
import io.jenkins.plugins.casc.ConfigurationAsCode;
import io.jenkins.plugins.casc.ConfigurationContext;
import io.jenkins.plugins.casc.ConfiguratorRegistry;
import io.jenkins.plugins.casc.misc.ConfiguredWithCode;
import io.jenkins.plugins.casc.misc.JenkinsConfiguredWithCodeRule;
import io.jenkins.plugins.casc.misc.Util;
import io.jenkins.plugins.casc.misc.junit.jupiter.WithJenkinsConfiguredWithCode;
import io.jenkins.plugins.casc.model.CNode;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's Configuration as Code example: imported as written there, exported back with the same values. */
@WithJenkinsConfiguredWithCode
class ConfigurationAsCodeTest {
    @TempDir
    Path tmp;

    @Test
    void importsTheReadmeExampleAndExportsItBack(JenkinsConfiguredWithCodeRule r) throws Exception {
        Path yaml = Files.writeString(tmp.resolve("jenkins.yaml"), ReadmeBlocks.block("jcasc"));
        ConfigurationAsCode.get().configure(yaml.toUri().toString());

        CopilotAutopilotStep defaults = CopilotAutopilotConfiguration.get().getDefaults();
        assertEquals("copilot-1.0.102", defaults.getInstallation());
        assertEquals("copilot-token", defaults.getCredentialsId());
        assertEquals("gpt-5", defaults.getModel());
        assertThat(defaults.getAllowTools(), contains("shell(mvn:*)", "write"));
        assertThat(defaults.getDenyTools(), contains("shell(git push)"));
        assertEquals(Integer.valueOf(30), defaults.getTimeout());
        assertEquals(Integer.valueOf(5), defaults.getInactivityTimeout());
        assertEquals("UNSTABLE", defaults.getResultWhenIncomplete());
        assertEquals(Long.valueOf(5_000_000), defaults.getMaxTokens());
        assertEquals(Boolean.FALSE, defaults.getAgentTextInConsole());
        assertEquals(Integer.valueOf(20), defaults.getToolTimeout());
        assertThat(defaults.getDenyUrls(), contains("http://169.254.169.254"));
        assertEquals("linux", CopilotAutopilotConfiguration.get().getAllowedLabels());
        assertEquals(Integer.valueOf(14), CopilotAutopilotConfiguration.get().getKeptSessionDays());
        assertEquals("refuse", CopilotAutopilotConfiguration.get().getUntrustedChangeRequests());
        assertEquals(CopilotAutopilotConfiguration.DEFAULT_KEPT_PER_JOB, CopilotAutopilotConfiguration.get().keptSessions().perJob());
        assertNull(defaults.getAllowAllTools(), "not set: off");
        // imported once, and saved: Configuration as Code never saves a descriptor itself
        CopilotAutopilotConfiguration reloaded = new CopilotAutopilotConfiguration();
        assertEquals("gpt-5", reloaded.getDefaults().getModel());
        assertEquals(Long.valueOf(5_000_000), reloaded.getDefaults().getMaxTokens());

        CopilotCliInstallation[] tools = r.jenkins.getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class).getInstallations();
        assertEquals(1, tools.length);
        assertEquals("copilot-1.0.102", tools[0].getName());
        CopilotCliInstaller installer = tools[0].getProperties().get(InstallSourceProperty.class).installers.get(CopilotCliInstaller.class);
        assertEquals("1.0.102", installer.getVersion());
        assertEquals("https://mirror.example.com/copilot/{version}/copilot-{platform}.{ext}", installer.getUrlTemplate());
        assertEquals("4f2c9a3be0f1d6c7a8b9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1", installer.getSha256());

        ConfigurationContext context = new ConfigurationContext(ConfiguratorRegistry.get());
        CNode exported = Util.getUnclassifiedRoot(context).get("copilotAutopilot");
        Map<String, Object> root = new Yaml().load(Util.toYamlString(exported));
        @SuppressWarnings("unchecked")
        Map<String, Object> values = (Map<String, Object>) root.get("defaults");
        assertEquals("copilot-1.0.102", values.get("installation"));
        assertEquals("copilot-token", values.get("credentialsId"));
        assertEquals("gpt-5", values.get("model"));
        assertEquals(List.of("shell(mvn:*)", "write"), values.get("allowTools"));
        assertEquals(List.of("shell(git push)"), values.get("denyTools"));
        assertEquals(30, values.get("timeout"));
        assertEquals("UNSTABLE", values.get("resultWhenIncomplete"));
        assertEquals(false, values.get("agentTextInConsole"));
        assertEquals(List.of("http://169.254.169.254"), values.get("denyUrls"));
        assertFalse(values.containsKey("prompt"), "a task's own settings are not defaults: " + values);

        // the checksum belongs to one version: the export names it, even when it is the version this plugin pins
        assertEquals("1.0.102", CliLocator.PINNED_VERSION, "the README's example uses the pinned version");
        String toolYaml = Util.toYamlString(Util.getToolRoot(context).get("copilotCli"));
        assertTrue(Pattern.compile("\\bversion: \"?1\\.0\\.102\"?").matcher(toolYaml).find(), toolYaml);
        assertTrue(Pattern.compile("\\bsha256: \"?4f2c9a3be0f1d6c7a8b9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1").matcher(toolYaml).find(), toolYaml);
    }

    @Test
    void importsTheReadmeQuotasAndExportsThemBack(JenkinsConfiguredWithCodeRule r) throws Exception {
        Path yaml = Files.writeString(tmp.resolve("quotas.yaml"), ReadmeBlocks.block("jcasc-quotas"));
        ConfigurationAsCode.get().configure(yaml.toUri().toString());

        List<io.jenkins.plugins.copilotautopilot.usage.QuotaLimit> quotas = io.jenkins.plugins.copilotautopilot.usage.QuotaConfiguration.get().getQuotas();
        assertEquals(3, quotas.size());
        assertEquals("AI_CREDITS", quotas.get(0).getMetric());
        assertEquals(5000, quotas.get(0).limit());
        assertEquals("5000", quotas.get(0).getLimit());
        assertEquals("DAY", quotas.get(0).getWindow());
        assertFalse(quotas.get(0).isEachJob());
        assertEquals("AI_CREDITS", quotas.get(1).getMetric());
        assertEquals("ROLLING_24H", quotas.get(1).getWindow());
        assertTrue(quotas.get(1).isEachJob());
        assertEquals("TOKENS", quotas.get(2).getMetric());
        assertEquals(2_000_000, quotas.get(2).limit());
        assertEquals(Integer.valueOf(90), io.jenkins.plugins.copilotautopilot.usage.QuotaConfiguration.get().getUsageRetentionDays());
        assertEquals(3, new io.jenkins.plugins.copilotautopilot.usage.QuotaConfiguration().getQuotas().size(), "saved");
        assertEquals(Integer.valueOf(3), io.jenkins.plugins.copilotautopilot.usage.QuotaConfiguration.get().getSessionsPerCredential());
        assertEquals(Integer.valueOf(3), new io.jenkins.plugins.copilotautopilot.usage.QuotaConfiguration().getSessionsPerCredential(), "saved");

        String exported = Util.toYamlString(Util.getUnclassifiedRoot(new ConfigurationContext(ConfiguratorRegistry.get())).get("copilotAutopilotQuotas"));
        assertThat(exported, containsString("metric: \"AI_CREDITS\""));
        assertThat(exported, containsString("window: \"ROLLING_24H\""));
        assertThat(exported, containsString("eachJob: true"));
        assertThat(exported, containsString("usageRetentionDays: 90"));
        assertThat(exported, containsString("sessionsPerCredential: 3"));
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
