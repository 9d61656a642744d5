package io.jenkins.plugins.copilotautopilot.core.command;

/**
 * What a GitHub token's prefix says about it, before anything starts: the Copilot CLI 1.0.102 refuses a classic personal
 * access token itself ({@code ghp_}), and accepts a GitHub App installation token ({@code ghs_}) that GitHub then
 * refuses for Copilot requests. Fine-grained personal access tokens ({@code github_pat_}) and user tokens ({@code gho_},
 * {@code ghu_}) pass, as does anything else (a token of another form is the CLI's and GitHub's to judge).
 */
public final class GithubTokens {
    static final String INSTEAD = "use a fine-grained personal access token (github_pat_...) with the \"Copilot Requests\""
            + " permission";

    private GithubTokens() {
    }

    /**
     * One line saying why the token cannot be used and what to use instead, or null when its form is fine.
     *
     * @param source where it came from, as the user knows it: {@code the credential 'copilot-token'}, {@code COPILOT_GITHUB_TOKEN}
     */
    public static String problem(String token, String source) {
        if (token == null) {
            return null;
        }
        String t = token.strip();
        if (t.startsWith("ghp_")) {
            return "The GitHub token in " + source + " is a classic personal access token (ghp_...), which Copilot does not"
                    + " accept: " + INSTEAD + ".";
        }
        if (t.startsWith("ghs_")) {
            return "The GitHub token in " + source + " is a GitHub App installation token (ghs_...), which GitHub refuses"
                    + " for Copilot requests: " + INSTEAD + ", or a user's OAuth token (gho_..., ghu_...).";
        }
        return null;
    }
}
