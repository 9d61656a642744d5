package io.jenkins.plugins.copilotautopilot.core.outcome;

/**
 * The outcome of a run and why, in one line a person can act on.
 *
 * @param outcome the outcome
 * @param reason  one human-readable line
 */
public record SessionOutcome(Outcome outcome, String reason) {
}
