package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.output.AnswerRequest;
import io.jenkins.plugins.copilotautopilot.core.output.OutputSchema;
import io.jenkins.plugins.copilotautopilot.core.output.OutputVerdict;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.session.TaskBlockers;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The follower's check of the agent's answers ({@code outputSchema}, {@code reviewFindings}): each completion's
 * summary (masked, as the journal has it) checked against the schema as it is seen in the stream, so that a follower
 * reading the session again after a restart judges the same. The agent is sent back with what is wrong while
 * {@code maxOutputRounds} allows; the answers are checked before the acceptance check runs.
 */
final class OutputCheck implements SessionListener {
    private final OutputSchema schema;
    private final int maxRounds;
    private final SecretMasker masker;
    private final Consumer<OutputVerdict> checked;
    private final List<OutputVerdict> verdicts = new ArrayList<>();
    /** For each verdict, the run of the CLI whose completion it judged (its number in {@link SessionTracker#cliEnds()}). */
    private final List<Integer> runs = new ArrayList<>();
    private int invalid;
    private SessionTracker tracker;

    private OutputCheck(OutputSchema schema, int maxRounds, SecretMasker masker, Consumer<OutputVerdict> checked) {
        this.schema = schema;
        this.maxRounds = maxRounds;
        this.masker = masker;
        this.checked = checked;
    }

    /** The check for {@code plan}, or null when it asks for no answer; {@code checked} hears of each verdict. */
    static OutputCheck of(SessionPlan plan, SecretMasker masker, Consumer<OutputVerdict> checked) {
        String text = AnswerRequest.schema(plan);
        if (text == null) {
            return null;
        }
        OutputSchema schema;
        try {
            schema = OutputSchema.parse(text);
        } catch (OutputSchema.InvalidSchemaException e) {
            throw new IllegalArgumentException("outputSchema " + e.getMessage(), e); // checked before the session starts
        }
        return new OutputCheck(schema, plan.get(SessionSettings.MAX_OUTPUT_ROUNDS), masker, checked);
    }

    @Override
    public void onTaskComplete(String summary, Boolean success, String outcome, String blocker) {
        if (TaskBlockers.CONTINUE.equals(outcome) || TaskBlockers.BLOCKED.equals(outcome)) {
            return; // no completion, or one that says why there is no answer
        }
        OutputVerdict verdict;
        synchronized (this) {
            verdict = OutputVerdict.check(verdicts.size() + 1, summary == null ? "" : summary, schema, masker::mask);
            verdicts.add(verdict);
            runs.add(tracker.cliEnds());
            if (!verdict.valid()) {
                invalid++;
            }
        }
        checked.accept(verdict);
    }

    /** The tracker whose stream this check follows (it listens to it). */
    OutputCheck follow(SessionTracker sessionTracker) {
        this.tracker = sessionTracker;
        sessionTracker.addListener(this);
        return this;
    }

    /**
     * Whether the latest answer came from the run of the CLI that just ended ({@code cliEnds} runs have ended): from
     * the stream alone, so a follower reading the session again after a restart says the same.
     */
    synchronized boolean latestFromRun(int cliEnds) {
        return !runs.isEmpty() && runs.get(runs.size() - 1) == cliEnds - 1;
    }

    /** How many answers did not follow the schema. */
    synchronized int invalidRounds() {
        return invalid;
    }

    /** The latest answer's verdict, or null before the first. */
    synchronized OutputVerdict latest() {
        return verdicts.isEmpty() ? null : verdicts.get(verdicts.size() - 1);
    }

    synchronized int rounds() {
        return verdicts.size();
    }

    int maxRounds() {
        return maxRounds;
    }

    /** Whether the agent is sent back after the latest answer: it is invalid, and fewer than the most were. */
    synchronized boolean sendsBack() {
        OutputVerdict last = latest();
        return last != null && !last.valid() && invalid < maxRounds;
    }

    /** What the agent is told when it is sent back. */
    synchronized String retryPrompt() {
        return masker.mask(AnswerRequest.retryPrompt(latest()));
    }
}
