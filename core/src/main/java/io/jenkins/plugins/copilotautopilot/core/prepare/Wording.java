package io.jenkins.plugins.copilotautopilot.core.prepare;

import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.build.GithubTokenSource;

/**
 * How the caller's user knows what the preparation speaks of: the Jenkins step by its parameters and credentials, the
 * runner by its options and environment variables. Every problem the preparation reports is worded with it.
 */
public interface Wording {
    /** A setting's name: {@code outputSchema} for the step, {@code --output-schema FILE} for the runner. */
    String name(Setting<?> setting);

    /** How problems with the file a setting names are worded. */
    InlineOrFile.Wording file(Setting<String> setting);

    /** Where the GitHub token came from: {@code credential 'copilot-token'}, {@code $GITHUB_TOKEN}. */
    String tokenSource(GithubTokenSource source);

    /** The session has neither a GitHub token nor an own model provider: one line saying how to give either. */
    String noCredentials();
}
