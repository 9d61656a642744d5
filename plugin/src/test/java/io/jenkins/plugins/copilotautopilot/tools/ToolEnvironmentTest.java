package io.jenkins.plugins.copilotautopilot.tools;

import hudson.EnvVars;
import hudson.model.Node;
import hudson.model.TaskListener;
import hudson.slaves.DumbSlave;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a Copilot CLI installation puts into a build's environment (Declarative {@code tools {}} and anything else
 * calling {@code buildEnvVars}): {@code COPILOT_CLI} is the installation folder, {@code PATH+COPILOT} the folder
 * holding the {@code copilot} command on that node.
 */
@WithJenkins
class ToolEnvironmentTest {
    private JenkinsRule j;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) {
        this.j = rule;
    }

    private static EnvVars environment(CopilotCliInstallation installation, Node node) throws Exception {
        EnvVars env = new EnvVars();
        installation.forNode(node, TaskListener.NULL).forEnvironment(new EnvVars()).buildEnvVars(env);
        return env;
    }

    private static Path file(Path path) throws Exception {
        Files.createDirectories(path.getParent());
        Files.writeString(path, "#!/bin/sh\n");
        return path;
    }

    @Test
    void anNpmInstallFolderPutsItsBinFolderOnThePath() throws Exception {
        Path home = tmp.resolve("npm");
        file(home.resolve("node_modules/.bin/copilot"));
        file(home.resolve("node_modules/@github/copilot/index.js"));
        CopilotCliInstallation npm = new CopilotCliInstallation("npm", home.toString(), List.of());

        EnvVars env = environment(npm, j.jenkins);

        assertEquals(home.resolve("node_modules/.bin").toString(), env.get("PATH+COPILOT"));
        assertEquals(home.toString(), env.get(CopilotCliInstallation.CLI_VARIABLE));
    }

    @Test
    void anUnpackedReleaseIsOnThePathItself() throws Exception {
        Path home = tmp.resolve("release");
        file(home.resolve("copilot"));

        EnvVars env = environment(new CopilotCliInstallation("release", home.toString(), List.of()), j.jenkins);

        assertEquals(home.toString(), env.get("PATH+COPILOT"));
    }

    @Test
    void aGlobalNpmPrefixPutsItsBinFolderOnThePathOnAnAgent() throws Exception {
        Path home = tmp.resolve("prefix");
        file(home.resolve("bin/copilot"));
        DumbSlave agent = j.createOnlineSlave();

        EnvVars env = environment(new CopilotCliInstallation("prefix", home.toString(), List.of()), agent);

        assertEquals(home.resolve("bin").toString(), env.get("PATH+COPILOT"));
    }

    @Test
    void withoutANodeOrACommandThePathGetsTheInstallationFolder() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("empty"));
        CopilotCliInstallation empty = new CopilotCliInstallation("empty", home.toString(), List.of());

        EnvVars onNode = environment(empty, j.jenkins);
        EnvVars withoutNode = new EnvVars();
        empty.buildEnvVars(withoutNode);

        assertEquals(home.toString(), onNode.get("PATH+COPILOT"));
        assertEquals(home.toString(), withoutNode.get("PATH+COPILOT"));
    }
}
