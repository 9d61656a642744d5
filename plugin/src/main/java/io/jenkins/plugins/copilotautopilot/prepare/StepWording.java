package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.Messages;

import io.jenkins.plugins.copilotautopilot.core.build.GithubTokenSource;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.prepare.InlineOrFile;
import io.jenkins.plugins.copilotautopilot.core.prepare.Wording;

/** The step's words for what a session's preparation reports: settings by their parameters, a file in the workspace. */
final class StepWording implements Wording {
    private final String workspace;

    /** @param workspace the workspace's path, where a missing file is said to be missing */
    StepWording(String workspace) {
        this.workspace = workspace;
    }

    @Override
    public String name(Setting<?> setting) {
        return setting.name();
    }

    @Override
    public InlineOrFile.Wording file(Setting<String> setting) {
        return FileWording.of(setting, workspace);
    }

    @Override
    public String tokenSource(GithubTokenSource source) {
        return source.describe();
    }

    @Override
    public String noCredentials() {
        return Messages.SessionInputs_NoCredentials();
    }
}
