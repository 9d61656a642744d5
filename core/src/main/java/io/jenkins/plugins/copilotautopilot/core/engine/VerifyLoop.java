package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.parts.AnswerPart;
import io.jenkins.plugins.copilotautopilot.core.parts.VerifyPart;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.verify.AcceptanceCheck;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The follower's half of the acceptance check and of the answer's schema: the launch script runs the CLI and the
 * check, and after each it waits
 * ({@link io.jenkins.plugins.copilotautopilot.core.events.CliEvent#AWAITING}) until it is told what comes next. This
 * decides it from what the session's stream showed: after the CLI, when the CLI ended well with a new completion that
 * is not a blocker, an answer that does not follow the schema sends the agent back ({@link AnswerPart}) while its
 * rounds last, else the check runs when its rounds are left; after the check, the agent is sent back ({@code resume}, with
 * the prompt of {@link AcceptanceCheck#retryPrompt}, masked as the journal is) when {@link AcceptanceCheck#sendsBack}.
 * Nothing is told once the session is being stopped: the script sees the stop itself.
 *
 * <p>Every decision follows from the stream alone, so a follower that reads a session again after a restart makes the
 * same; the answer is sent again every {@link #RESEND_SECONDS} seconds until the script moves on (a call to an agent
 * may be lost), and the session writes it only once.
 */
final class VerifyLoop implements SessionListener {
    static final long RESEND_SECONDS = 5;
    static final String CHECK = "check";
    static final String RESUME = "resume";
    static final String DONE = "done";

    private final AcceptanceCheck check;
    /** The acceptance check's rounds as the session reported them, or null without a check. */
    private final VerifyPart verify;
    /** The answers' check against a schema, which comes before the acceptance check; or null. */
    private final AnswerPart answers;
    private final SecretMasker masker;
    /** The current round's output lines, as the stream brought them (unmasked). */
    private final List<String> output = new ArrayList<>();
    /** How many completions the session had when the check last started: a completion after that is new. */
    private int completionsChecked;
    private int answeredStep;
    private String answer;
    private String prompt;
    private long sentAtNanos;

    /** Going on after a refusal of GitHub's service, or null when the session never does. */
    private final ServiceRetries serviceRetries;
    /** Not before this time (millis) is the answer sent: the wait before going on after a refusal. */
    private long notBeforeMillis;

    VerifyLoop(VerifyPart verify, AnswerPart answers, SecretMasker masker, ServiceRetries serviceRetries) {
        this.verify = verify;
        this.check = verify == null ? null : verify.check();
        this.answers = answers;
        this.masker = masker;
        this.serviceRetries = serviceRetries;
    }

    private SessionTracker tracker;

    /** The tracker whose stream this loop follows (it listens to it). */
    VerifyLoop follow(SessionTracker sessionTracker) {
        this.tracker = sessionTracker;
        sessionTracker.addListener(this);
        return this;
    }

    @Override
    public synchronized void onVerifyStarted(int round, java.time.Instant at) {
        output.clear();
        completionsChecked = tracker.completions();
    }

    @Override
    public synchronized void onVerifyOutput(String line) {
        output.add(line);
    }

    /**
     * Tells a waiting launch script what comes next, or tells it again when it has not moved on for a while.
     *
     * @param stopping whether the session is being stopped (then nothing is told)
     */
    synchronized void answer(CliSession session, boolean stopping) throws IOException, InterruptedException {
        SessionTracker.Awaiting awaiting = tracker.awaiting();
        if (awaiting == null || stopping) {
            return;
        }
        long now = System.nanoTime();
        if (awaiting.step() != answeredStep) {
            decide(awaiting);
            answeredStep = awaiting.step();
            sentAtNanos = 0;
        } else if (sentAtNanos != 0 && now - sentAtNanos < TimeUnit.SECONDS.toNanos(RESEND_SECONDS)) {
            return;
        }
        if (System.currentTimeMillis() < notBeforeMillis) {
            return; // waiting out the service's refusal
        }
        sentAtNanos = now;
        session.answer(awaiting.step(), answer, prompt);
    }

    private void decide(SessionTracker.Awaiting awaiting) {
        prompt = null;
        notBeforeMillis = 0;
        ServiceRetries.Retry retry = serviceRetries == null ? null : serviceRetries.retryAt(awaiting.step());
        if (retry != null) {
            answer = RESUME;
            prompt = retry.prompt();
            notBeforeMillis = retry.at().toEpochMilli();
        } else if (check == null && answers == null) {
            answer = DONE;
        } else if (!awaiting.afterCheck()) {
            boolean endedWell = awaiting.exitCode() == 0 && !tracker.lastCompletionBlocked();
            boolean completedAnew = endedWell && tracker.completions() > completionsChecked;
            if (answers != null) {
                // the answer first (a check of work whose answer is sent back would run again anyway), judged by
                // whether this run of the CLI answered: known from the stream alone, so a restart decides the same
                if (!endedWell || !answers.latestFromRun(tracker.cliEnds())) {
                    answer = DONE;
                } else if (!answers.latest().valid()) {
                    answer = answers.sendsBack() ? RESUME : DONE;
                    prompt = answers.sendsBack() ? answers.retryPrompt() : null;
                } else {
                    answer = check != null && completedAnew && verify.rounds() < check.maxRounds() ? CHECK : DONE;
                }
            } else {
                answer = completedAnew && verify.rounds() < check.maxRounds() ? CHECK : DONE;
            }
        } else {
            int round = verify.rounds();
            AcceptanceCheck.Verdict verdict = AcceptanceCheck.verdict(awaiting.exitCode(), verify.exitCode() == null);
            if (check.sendsBack(verdict, round)) {
                answer = RESUME;
                prompt = masker.mask(check.retryPrompt(awaiting.exitCode(), output)
                        + (answers == null ? "" : "Give your answer again as the summary of task_complete, as the task says.\n"));
            } else {
                answer = DONE;
            }
        }
    }
}
