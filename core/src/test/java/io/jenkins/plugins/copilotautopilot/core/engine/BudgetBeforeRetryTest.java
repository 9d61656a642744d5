package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A follower catching up on a session (after a restart, or its agent back) reads the usage records from the CLI's
 * session state, which holds every lasting event and so lags behind the events it prints. When the launch script waits
 * after GitHub's service refused the session, the follower does not let the CLI go on before it has read the records up
 * to then: a budget the records already passed stops the session instead (the soak: a token budget of 2,500 passed at
 * 195,840, the CLI told to continue while the records were still being read).
 */
@Timeout(60)
class BudgetBeforeRetryTest {
    private static final int TURNS = 5;

    @Test
    void aSessionOverBudgetIsNotToldToGoOnWhileItsUsageRecordsAreStillBeingRead() {
        UsageLaggingSession session = new UsageLaggingSession();
        ListLogSink log = new ListLogSink(false);
        SessionResult result = AutopilotEngine.builder(log).timings(Commands.FAST).build()
                .run(Commands.of(TaskSpec.of("Go on for ever").githubToken("github_pat_testtoken123456")
                        .set(SessionSettings.MAX_TOKENS, 2_500L).set(SessionSettings.SERVICE_RETRIES, 2)), command -> session);

        assertThat(session.answers).as("the script told to continue the session").doesNotContain("resume");
        assertThat(result.outcome()).isEqualTo(Outcome.OVER_BUDGET);
        assertThat(result.reason()).contains("tokens used, limit 2,500");
        assertThat(session.usageRead()).as("every record read").isTrue();
    }

    /**
     * The CLI's output whole at once: five turns, then GitHub's refusal and the launch script's wait for an answer; the
     * session state (a megabyte of lasting events, the five usage records among them) read as the plugin reads it, at
     * most {@code maxBytes} at a time, up to a whole line.
     */
    private static final class UsageLaggingSession implements CliSession {
        private final byte[] output = output();
        private final byte[] state = state();
        final List<String> answers = new CopyOnWriteArrayList<>();
        private volatile boolean stopped;
        private volatile long usageRead;

        @Override
        public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) {
            return poll(outputOffset, stderrOffset, 0, maxBytes);
        }

        @Override
        public SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes) {
            byte[] out = Arrays.copyOfRange(output, (int) Math.min(outputOffset, output.length),
                    (int) Math.min(output.length, outputOffset + maxBytes));
            byte[] chunk = Arrays.copyOfRange(state, (int) Math.min(usageOffset, state.length),
                    (int) Math.min(state.length, usageOffset + maxBytes));
            int end = chunk.length - 1;
            while (end >= 0 && chunk[end] != '\n') {
                end--;
            }
            ByteArrayOutputStream records = new ByteArrayOutputStream();
            for (String line : new String(chunk, 0, end + 1, StandardCharsets.UTF_8).split("\n")) {
                if (line.contains("\"type\":\"session.usage_record\"")) {
                    records.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            usageRead = usageOffset + end + 1;
            boolean ended = stopped && out.length == 0;
            return new SessionPoll(out, new byte[0], ended ? Integer.valueOf(143) : null, ended, null, records.toByteArray(), end + 1L, null);
        }

        boolean usageRead() {
            return usageRead >= state.length;
        }

        @Override
        public void stop() {
            stopped = true;
        }

        @Override
        public void answer(int step, String answer, String prompt) {
            answers.add(answer);
        }

        @Override
        public void cleanup() {
        }

        private static byte[] output() {
            StringBuilder out = new StringBuilder();
            for (int i = 1; i <= TURNS; i++) {
                out.append("{\"type\":\"assistant.turn_start\",\"id\":\"ts-").append(i).append("\",\"data\":{\"turnId\":\"").append(i - 1)
                        .append("\"},\"timestamp\":\"2026-12-06T10:00:0").append(i).append("Z\"}\n");
                out.append("{\"type\":\"assistant.message\",\"data\":{\"content\":\"One more step.\"},\"timestamp\":\"2026-12-06T10:00:0")
                        .append(i).append("Z\"}\n");
                out.append("{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"").append(i - 1)
                        .append("\"},\"timestamp\":\"2026-12-06T10:00:0").append(i).append("Z\"}\n");
            }
            out.append("{\"type\":\"assistant.turn_retry\",\"data\":{\"turnId\":\"5\",\"reason\":\"rate_limit\"},\"ephemeral\":true,")
                    .append("\"timestamp\":\"2026-12-06T10:01:00Z\"}\n");
            out.append("{\"type\":\"assistant.turn_retry\",\"data\":{\"turnId\":\"5\",\"reason\":\"rate_limit\"},\"ephemeral\":true,")
                    .append("\"timestamp\":\"2026-12-06T10:01:01Z\"}\n");
            out.append("{\"type\":\"session.error\",\"data\":{\"errorType\":\"rate_limit\",\"statusCode\":429,\"message\":\"no\"},")
                    .append("\"timestamp\":\"2026-12-06T10:01:02Z\"}\n");
            out.append("{\"type\":\"autopilot.awaiting\",\"timestamp\":\"2026-12-06T10:01:02Z\",\"data\":{\"step\":1,\"after\":\"cli\",\"exitCode\":1}}\n");
            return out.toString().getBytes(StandardCharsets.UTF_8);
        }

        private static byte[] state() {
            StringBuilder state = new StringBuilder();
            String filler = "{\"type\":\"session.info\",\"data\":{\"message\":\"" + "x".repeat(1000) + "\"}}\n";
            for (int i = 1; i <= TURNS; i++) {
                state.append(filler.repeat(200)); // some 200 KB of lasting events before each record
                state.append("{\"type\":\"session.usage_record\",\"id\":\"u").append(i).append("\",\"parentId\":\"ts-").append(i)
                        .append("\",\"data\":{\"usage\":{\"model\":\"gpt-5\",\"inputTokens\":1000,\"outputTokens\":20}}}\n");
            }
            return state.toString().getBytes(StandardCharsets.UTF_8);
        }
    }
}
