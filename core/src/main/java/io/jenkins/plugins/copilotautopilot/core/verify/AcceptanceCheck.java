package io.jenkins.plugins.copilotautopilot.core.verify;

import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.util.List;

/**
 * The acceptance check ({@code verify}): a shell command the launch script runs after the agent called
 * {@code task_complete}; the rules for what its end means are here, and only here. Exit code 0 accepts the work; 126
 * and 127 mean the command could not start (not executable, not found), which the agent cannot fix; any other code is a
 * failure the agent is sent back to fix, in the same session, while rounds are left; a check the session's stop cut
 * short says nothing.
 */
public final class AcceptanceCheck {
    /** The most of the check's output's end the agent is shown when it is sent back, in characters. */
    public static final int PROMPT_OUTPUT_CHARS = 4000;
    private static final int NOT_EXECUTABLE = 126;
    private static final int NOT_FOUND = 127;

    private final String command;
    private final int maxRounds;

    /** How the check's rounds went: how many ran, and the last one's exit code (null: none ended, or a stop cut it short). */
    public record Rounds(int rounds, Integer lastExitCode) {
    }

    /** How a round of the check ended. */
    public enum Verdict {
        PASSED, FAILED, CANNOT_START, STOPPED
    }

    public AcceptanceCheck(String command, int maxRounds) {
        this.command = command;
        this.maxRounds = maxRounds;
    }

    public String command() {
        return command;
    }

    public int maxRounds() {
        return maxRounds;
    }

    /** What a round that ended with {@code exitCode} says; {@code stopped}: the session's stop ended it. */
    public static Verdict verdict(int exitCode, boolean stopped) {
        if (stopped) {
            return Verdict.STOPPED;
        }
        if (exitCode == 0) {
            return Verdict.PASSED;
        }
        return exitCode == NOT_EXECUTABLE || exitCode == NOT_FOUND ? Verdict.CANNOT_START : Verdict.FAILED;
    }

    /** Whether the agent is sent back to fix the work after round {@code round} ended so. */
    public boolean sendsBack(Verdict verdict, int round) {
        return verdict == Verdict.FAILED && round < maxRounds;
    }

    /** Why a check that could not start did not, in words. */
    public static String cannotStart(int exitCode) {
        return exitCode == NOT_FOUND ? "a command was not found on the agent" : "a command is not executable";
    }

    /**
     * The task the agent gets when it is sent back: the command, its exit code and the end of its output, as the log
     * and the journal show it ({@code outputLines}, already masked).
     */
    public String retryPrompt(int exitCode, List<String> outputLines) {
        StringBuilder tail = new StringBuilder();
        for (int i = outputLines.size() - 1; i >= 0; i--) {
            String line = outputLines.get(i);
            if (tail.length() + line.length() + 1 > PROMPT_OUTPUT_CHARS) {
                if (tail.length() == 0) {
                    tail.append(line, line.length() - PROMPT_OUTPUT_CHARS, line.length());
                }
                break;
            }
            tail.insert(0, line + "\n");
        }
        return "The acceptance check of this task failed: the command\n\n" + command + "\n\nexited with code " + exitCode
                + ". The end of its output:\n\n" + (tail.length() == 0 ? "(no output)\n" : tail)
                + "\nFix what makes it fail, then call task_complete again. The check runs again after that.\n";
    }

    /** The command for a one-line message: {@code `cmd`}, cut. */
    public String shown() {
        return "`" + Texts.truncate(Texts.oneLine(command), 80) + "`";
    }
}
