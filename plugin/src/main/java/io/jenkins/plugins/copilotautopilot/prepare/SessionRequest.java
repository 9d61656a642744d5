package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;

/**
 * What a step asks a session for: its task as written ({@code prompt}, null when it names a {@code promptFile}), its
 * settings as given (merged with the administrator's defaults when the session is prepared), and whether an outcome
 * that fails the build fails the step.
 */
public record SessionRequest(String prompt, SettingValues settings, boolean propagate) {
}
