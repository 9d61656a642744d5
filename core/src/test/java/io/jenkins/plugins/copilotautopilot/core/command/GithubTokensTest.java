package io.jenkins.plugins.copilotautopilot.core.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The tokens Copilot refuses are named before anything starts; the ones it takes pass. */
class GithubTokensTest {
    @Test
    void aClassicAndAnInstallationTokenAreOneLineEachNamingTheirSource() {
        assertThat(GithubTokens.problem("ghp_abc", "the credential 'copilot-token'"))
                .isEqualTo("The GitHub token in the credential 'copilot-token' is a classic personal access token (ghp_...),"
                        + " which Copilot does not accept: use a fine-grained personal access token (github_pat_...) with the"
                        + " \"Copilot Requests\" permission.");
        assertThat(GithubTokens.problem(" ghs_abc\n", "GITHUB_TOKEN")).startsWith("The GitHub token in GITHUB_TOKEN is a GitHub App"
                + " installation token (ghs_...)").doesNotContain("\n").doesNotContain("abc");
    }

    @Test
    void fineGrainedAndUserTokensPass() {
        for (String token : new String[] {"github_pat_11AB", "gho_abc", "ghu_abc", "something-else", null}) {
            assertThat(GithubTokens.problem(token, "X")).as(token).isNull();
        }
    }
}
