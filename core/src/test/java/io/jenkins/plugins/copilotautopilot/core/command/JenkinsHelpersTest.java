package io.jenkins.plugins.copilotautopilot.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The small rules the Jenkins plugin relies on: workspace paths, launcher escaping, tokens from the environment. */
class JenkinsHelpersTest {
    @Test
    void workingDirectoriesStayInsideTheWorkspace() {
        assertThat(WorkspacePaths.relative(null)).isEmpty();
        assertThat(WorkspacePaths.relative(" ./app//src/ ")).isEqualTo("app/src");
        assertThat(WorkspacePaths.relative("a\\b")).isEqualTo("a/b");
        for (String bad : List.of("/etc", "../x", "a/../../b", "C:\\Windows", "~/x")) {
            assertThatThrownBy(() -> WorkspacePaths.relative(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("workingDirectory must");
        }
    }

    @Test
    void dollarsAreDoubledForJenkinsLaunchers() {
        assertThat(MacroEscaping.escape("cost $HOME ${X} $$")).isEqualTo("cost $$HOME $${X} $$$$");
        assertThat(MacroEscaping.escapeAll(List.of("a$", "b"))).containsExactly("a$$", "b");
        assertThat(MacroEscaping.escapeValues(Map.of("K", "v$1"))).containsEntry("K", "v$$1");
        assertThat(MacroEscaping.escape(null)).isNull();
    }

    @Test
    void tokensFromTheEnvironmentInTheCliOrder() {
        assertThat(EnvironmentTokens.githubToken(Map.of("GITHUB_TOKEN", "c", "GH_TOKEN", "b"))).isEqualTo("b");
        assertThat(EnvironmentTokens.githubToken(Map.of("COPILOT_GITHUB_TOKEN", "a", "GH_TOKEN", "b"))).isEqualTo("a");
        assertThat(EnvironmentTokens.githubToken(Map.of("COPILOT_GITHUB_TOKEN", " "))).isNull();
    }
}
