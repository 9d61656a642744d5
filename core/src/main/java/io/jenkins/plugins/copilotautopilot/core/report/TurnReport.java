package io.jenkins.plugins.copilotautopilot.core.report;

import java.time.Instant;
import java.util.List;

/**
 * One turn in a report: what the assistant said and which tools it called.
 *
 * @param number         1-based
 * @param afterNudge     whether the CLI nudged the agent right before this turn
 * @param startedAt      when it started, or null
 * @param durationMillis how long it took, or -1 when unknown (e.g. still open when the session ended)
 * @param messages       the assistant's messages (each bounded)
 * @param toolCalls      the tool calls (bounded in number)
 * @param omittedToolCalls tool calls not kept because of the bound
 * @param errors         errors reported during the turn
 * @param inputTokens    input tokens of the turn's model calls (0 when the CLI recorded no usage)
 * @param outputTokens   output tokens of the turn's model calls
 */
public record TurnReport(int number, boolean afterNudge, Instant startedAt, long durationMillis, List<String> messages,
                         List<ToolCallReport> toolCalls, int omittedToolCalls, List<String> errors, long inputTokens,
                         long outputTokens) implements java.io.Serializable {
    /** A turn without usage records. */
    public TurnReport(int number, boolean afterNudge, Instant startedAt, long durationMillis, List<String> messages,
                      List<ToolCallReport> toolCalls, int omittedToolCalls, List<String> errors) {
        this(number, afterNudge, startedAt, durationMillis, messages, toolCalls, omittedToolCalls, errors, 0, 0);
    }

    public long tokens() {
        return inputTokens + outputTokens;
    }

    /** Whether {@code call} is a round of the acceptance check, drawn in the turn it follows, not a call of the agent's. */
    public static boolean isVerifyRound(ToolCallReport call) {
        return "verify".equals(call.name()) && call.arguments() != null && call.arguments().matches("round \\d+");
    }

    /** The agent's tool calls in this turn (the acceptance check's rounds drawn in it not counted). */
    public int agentToolCalls() {
        return (int) toolCalls.stream().filter(c -> !isVerifyRound(c)).count() + omittedToolCalls;
    }

    /** The acceptance check's rounds drawn in this turn. */
    public List<ToolCallReport> verifyRounds() {
        return toolCalls.stream().filter(TurnReport::isVerifyRound).toList();
    }
}
