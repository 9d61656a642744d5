package io.jenkins.plugins.copilotautopilot.core.parts;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.render.LogLines;
import io.jenkins.plugins.copilotautopilot.core.result.Verification;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import io.jenkins.plugins.copilotautopilot.core.verify.AcceptanceCheck;
import java.time.Instant;

/**
 * The acceptance check ({@code verify}) as a session follows it: the check's rules (made once from the plan), its rounds
 * and last exit code as the launch script reported them, a line per round, its start and the last lines of its output,
 * and its piece of the result. What the launch script is told after a round is {@code engine.VerifyLoop}'s.
 */
public final class VerifyPart implements SessionPart {
    private final LogLines lines;
    private final AcceptanceCheck check;
    private int rounds;
    private Integer exitCode;

    VerifyPart(LogLines lines, AcceptanceCheck check) {
        this.lines = lines;
        this.check = check;
    }

    /** The part for {@code plan}, or null when it has no acceptance check. */
    static VerifyPart of(SessionPlan plan, PartContext context) {
        String verify = plan.get(SessionSettings.VERIFY);
        return verify == null ? null
                : new VerifyPart(context.lines(), new AcceptanceCheck(verify, plan.get(SessionSettings.MAX_VERIFY_ROUNDS)));
    }

    /** The check's rules. */
    public AcceptanceCheck check() {
        return check;
    }

    /** How often the check ran (or started). */
    public synchronized int rounds() {
        return rounds;
    }

    /** The check's last exit code, or null before one, or when the stop cut it short. */
    public synchronized Integer exitCode() {
        return exitCode;
    }

    /** The rounds as the outcome is decided on them. */
    public synchronized AcceptanceCheck.Rounds forOutcome() {
        return new AcceptanceCheck.Rounds(rounds, exitCode);
    }

    /**
     * The result's piece: whether the check passed last, for a session that ended with it judged (COMPLETED or
     * NOT_VERIFIED; else null), its rounds and last exit code.
     */
    public synchronized Verification result(Outcome ended) {
        Boolean verified = ended == Outcome.COMPLETED || ended == Outcome.NOT_VERIFIED ? Boolean.valueOf(ended == Outcome.COMPLETED) : null;
        return new Verification(verified, rounds, exitCode);
    }

    @Override
    public void onVerifyStarted(int round, Instant at) {
        synchronized (this) {
            rounds = Math.max(rounds, round);
        }
        lines.line("Verify, round " + round + " of " + check.maxRounds() + ": running the acceptance check");
    }

    @Override
    public void onVerifyOutput(String text) {
        lines.line("verify | " + Texts.truncate(text, LogLines.MAX_LINE));
    }

    @Override
    public void onVerifyFinished(int round, int exit, Instant at) {
        boolean cut = exit == SessionTracker.STOPPED_VERIFY;
        synchronized (this) {
            exitCode = cut ? null : exit; // a check the stop cut short said nothing
        }
        AcceptanceCheck.Verdict verdict = AcceptanceCheck.verdict(exit, cut);
        String said = switch (verdict) {
            case STOPPED -> "stopped with the session";
            case PASSED -> "passed";
            case CANNOT_START -> "FAILED with exit code " + exit + "; the check could not start";
            case FAILED -> "FAILED with exit code " + exit + (check.sendsBack(verdict, round) ? "; the agent is asked to fix it" : "; no rounds left");
        };
        lines.line("Verify, round " + round + ": " + said);
    }
}
