package io.jenkins.plugins.copilotautopilot.core.parts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.outcome.OutcomeDecider;
import io.jenkins.plugins.copilotautopilot.core.output.AnswerRequest;
import io.jenkins.plugins.copilotautopilot.core.output.Finding;
import io.jenkins.plugins.copilotautopilot.core.output.OutputSchema;
import io.jenkins.plugins.copilotautopilot.core.output.OutputVerdict;
import io.jenkins.plugins.copilotautopilot.core.output.ReviewFindings;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.render.LogLines;
import io.jenkins.plugins.copilotautopilot.core.result.Answer;
import io.jenkins.plugins.copilotautopilot.core.session.TaskBlockers;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's answer ({@code outputSchema}, {@code reviewFindings}): each completion's summary (masked, as the journal
 * has it) checked against the schema as it is seen in the stream, so that a follower reading the session again after a
 * restart judges the same; a line and a journal record per answer; the agent is sent back with what is wrong while
 * {@code maxOutputRounds} allows (the answers are checked before the acceptance check runs); the answer and its
 * findings in the result.
 */
public final class AnswerPart implements SessionPart {
    private final PartContext context;
    private final OutputSchema schema;
    private final int maxRounds;
    private final List<OutputVerdict> verdicts = new ArrayList<>();
    /** For each verdict, the run of the CLI whose completion it judged (its number in the tracker's {@code cliEnds()}). */
    private final List<Integer> runs = new ArrayList<>();
    private int invalid;

    private AnswerPart(PartContext context, OutputSchema schema, int maxRounds) {
        this.context = context;
        this.schema = schema;
        this.maxRounds = maxRounds;
    }

    /** The part for {@code plan}, or null when it asks for no answer. */
    static AnswerPart of(SessionPlan plan, PartContext context) {
        String text = AnswerRequest.schema(plan);
        if (text == null) {
            return null;
        }
        try {
            return new AnswerPart(context, OutputSchema.parse(text), plan.get(SessionSettings.MAX_OUTPUT_ROUNDS));
        } catch (OutputSchema.InvalidSchemaException e) {
            throw new IllegalArgumentException("outputSchema " + e.getMessage(), e); // checked before the session starts
        }
    }

    @Override
    public void onTaskComplete(String summary, Boolean success, String outcome, String blocker) {
        if (TaskBlockers.CONTINUE.equals(outcome) || TaskBlockers.BLOCKED.equals(outcome)) {
            return; // no completion, or one that says why there is no answer
        }
        OutputVerdict verdict;
        synchronized (this) {
            verdict = OutputVerdict.check(verdicts.size() + 1, summary == null ? "" : summary, schema, context.masker()::mask);
            verdicts.add(verdict);
            runs.add(context.tracker().cliEnds());
            if (!verdict.valid()) {
                invalid++;
            }
        }
        checked(verdict);
    }

    /** An answer checked against the schema: a line in the log, a record in the journal. */
    private void checked(OutputVerdict verdict) {
        boolean again = !verdict.valid() && invalidRounds() < maxRounds;
        LogLines lines = context.lines();
        if (verdict.valid()) {
            lines.line("Answer " + verdict.round() + ": follows the schema (" + LogLines.thousands(verdict.answer().length())
                    + " characters)");
        } else {
            // the validator's words name the agent's keys and values: only where the agent's text may be shown
            String why = lines.agentText() ? Texts.truncate(Texts.oneLine(verdict.problem()), LogLines.MAX_LINE)
                    : verdict.errors().size() + (verdict.errors().size() == 1 ? " error" : " errors") + " (on the session page's journal)";
            lines.line("Answer " + verdict.round() + ": does not follow the schema: " + why
                    + (again ? "; the agent is asked to fix it" : "; no rounds left"));
        }
        ObjectNode data = EventParser.mapper().createObjectNode();
        data.put("round", verdict.round());
        data.put("valid", verdict.valid());
        data.put("characters", verdict.answer().length());
        verdict.errors().forEach(data.putArray("errors")::add);
        context.record(EventJournal.OUTPUT_CHECKED, data);
    }

    /**
     * Whether the latest answer came from the run of the CLI that just ended ({@code cliEnds} runs have ended): from
     * the stream alone, so a follower reading the session again after a restart says the same.
     */
    public synchronized boolean latestFromRun(int cliEnds) {
        return !runs.isEmpty() && runs.get(runs.size() - 1) == cliEnds - 1;
    }

    /** How many answers did not follow the schema. */
    synchronized int invalidRounds() {
        return invalid;
    }

    /** The latest answer's verdict, or null before the first. */
    public synchronized OutputVerdict latest() {
        return verdicts.isEmpty() ? null : verdicts.get(verdicts.size() - 1);
    }

    /** How many answers were checked. */
    public synchronized int rounds() {
        return verdicts.size();
    }

    /** Whether the agent is sent back after the latest answer: it is invalid, and fewer than the most were. */
    public synchronized boolean sendsBack() {
        OutputVerdict last = latest();
        return last != null && !last.valid() && invalid < maxRounds;
    }

    /** What the agent is told when it is sent back. */
    public synchronized String retryPrompt() {
        return context.masker().mask(AnswerRequest.retryPrompt(latest()));
    }

    /** What the outcome is decided on: how many answers, whether the rounds ran out, what was wrong with the last. */
    public synchronized OutcomeDecider.Answer forOutcome() {
        OutputVerdict last = latest();
        return new OutcomeDecider.Answer(verdicts.size(), invalid >= maxRounds, last == null ? null : last.problem());
    }

    /**
     * The latest answer when it followed the schema and the session ended with it (COMPLETED, or NOT_VERIFIED: the
     * work failed its check, the answer stands), else null: a blocked, failed or stopped session has no answer.
     */
    public synchronized String validAnswer(Outcome ended) {
        OutputVerdict last = latest();
        boolean stands = ended == Outcome.COMPLETED || ended == Outcome.NOT_VERIFIED;
        return stands && last != null && last.valid() ? last.answer() : null;
    }

    /** The result's piece: the answer that stands (see {@link #validAnswer}), the rounds, its review findings. */
    public Answer result(Outcome ended) {
        return new Answer(validAnswer(ended), rounds(), findings(ended));
    }

    /** The review findings of the answer that stands (see {@link #validAnswer}); none without one. */
    private List<Finding> findings(Outcome ended) {
        String answer = validAnswer(ended);
        if (answer == null) {
            return List.of();
        }
        try {
            return ReviewFindings.of(EventParser.mapper().readTree(answer));
        } catch (IOException e) {
            return List.of();
        }
    }
}
