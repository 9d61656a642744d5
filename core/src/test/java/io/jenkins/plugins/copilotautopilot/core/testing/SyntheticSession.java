package io.jenkins.plugins.copilotautopilot.core.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A deterministic CLI event stream of any length, shaped like the real captures: per turn a start, model
 * call events, ~30 message deltas, the message with a tool request, the tool's start, background-task
 * notices, shell output, its completion and the turn end; then task_complete, idle and the result line.
 * For memory and speed tests of the event pipeline.
 */
public final class SyntheticSession {
    /** Event lines in one synthetic turn. */
    public static final int EVENTS_PER_TURN = 50;

    private SyntheticSession() {
    }

    /** Writes about {@code events} event lines (whole turns, plus the closing events). */
    public static long write(OutputStream out, long events) throws IOException {
        long turns = Math.max(1, events / EVENTS_PER_TURN);
        Instant t = Instant.parse("2026-11-30T10:00:00Z");
        long written = 0;
        for (long turn = 0; turn < turns; turn++) {
            String call = "call_" + turn;
            String msg = "msg-" + turn;
            written += line(out, "{\"type\":\"assistant.turn_start\",\"data\":{\"turnId\":\"" + turn + "\",\"interactionId\":\"i-1\"},\"id\":\"e" + turn + "-0\",\"timestamp\":\"" + t + "\",\"parentId\":null}");
            written += line(out, "{\"type\":\"model.call_start\",\"data\":{\"turnId\":\"" + turn + "\",\"model\":\"fake-model\"},\"ephemeral\":true,\"id\":\"e" + turn + "-1\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-0\"}");
            written += line(out, "{\"type\":\"assistant.message_start\",\"data\":{\"messageId\":\"" + msg + "\"},\"ephemeral\":true,\"id\":\"e" + turn + "-2\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-0\"}");
            for (int d = 0; d < 30; d++) {
                written += line(out, "{\"type\":\"assistant.message_delta\",\"data\":{\"messageId\":\"" + msg + "\",\"deltaContent\":\"word" + d + " \"},\"ephemeral\":true,\"id\":\"e" + turn + "-d" + d + "\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-0\"}");
            }
            written += line(out, "{\"type\":\"model.call_finished\",\"data\":{\"turnId\":\"" + turn + "\",\"dispatchDurationMs\":87,\"outcome\":\"success\"},\"ephemeral\":true,\"id\":\"e" + turn + "-3\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-0\"}");
            written += line(out, "{\"type\":\"assistant.message\",\"data\":{\"messageId\":\"" + msg + "\",\"model\":\"fake-model\",\"content\":\"Turn " + turn + ": I will run the tests now.\",\"toolRequests\":[{\"toolCallId\":\"" + call + "\",\"name\":\"bash\",\"arguments\":{\"command\":\"npm test -- --grep case" + turn + "\",\"description\":\"Run tests\",\"mode\":\"sync\",\"initial_wait\":30},\"type\":\"function\"}],\"turnId\":\"" + turn + "\"},\"id\":\"e" + turn + "-4\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-3\"}");
            t = t.plusMillis(40);
            written += line(out, "{\"type\":\"tool.execution_start\",\"data\":{\"toolCallId\":\"" + call + "\",\"toolName\":\"bash\",\"arguments\":{\"command\":\"npm test -- --grep case" + turn + "\",\"description\":\"Run tests\",\"mode\":\"sync\",\"initial_wait\":30},\"turnId\":\"" + turn + "\",\"model\":\"fake-model\"},\"id\":\"e" + turn + "-5\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-4\"}");
            for (int b = 0; b < 9; b++) {
                written += line(out, "{\"type\":\"session.background_tasks_changed\",\"data\":{},\"ephemeral\":true,\"id\":\"e" + turn + "-b" + b + "\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-5\"}");
            }
            written += line(out, "{\"type\":\"tool.shell_output\",\"data\":{\"toolCallId\":\"" + call + "\",\"stream\":\"stdout\",\"text\":\"  42 passing (1s)\\n\",\"sequence\":0},\"ephemeral\":true,\"id\":\"e" + turn + "-6\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-5\"}");
            written += line(out, "{\"type\":\"tool.execution_partial_result\",\"data\":{\"toolCallId\":\"" + call + "\",\"partialOutput\":\"  42 passing (1s)\\n\"},\"ephemeral\":true,\"id\":\"e" + turn + "-7\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-5\"}");
            t = t.plusMillis(900);
            written += line(out, "{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"" + call + "\",\"model\":\"fake-model\",\"turnId\":\"" + turn + "\",\"success\":true,\"result\":{\"content\":\"  42 passing (1s)\\n<shellId: 0 completed with exit code 0>\"}},\"id\":\"e" + turn + "-8\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-5\"}");
            written += line(out, "{\"type\":\"assistant.turn_end\",\"data\":{\"turnId\":\"" + turn + "\"},\"id\":\"e" + turn + "-9\",\"timestamp\":\"" + t + "\",\"parentId\":\"e" + turn + "-8\"}");
            t = t.plusMillis(10);
        }
        written += line(out, "{\"type\":\"session.task_complete\",\"data\":{\"summary\":\"All " + turns + " cases pass.\",\"success\":true},\"id\":\"end-1\",\"timestamp\":\"" + t + "\",\"parentId\":null}");
        written += line(out, "{\"type\":\"session.autopilot_stopped\",\"data\":{\"reason\":\"task_complete\"},\"ephemeral\":true,\"id\":\"end-2\",\"timestamp\":\"" + t + "\",\"parentId\":null}");
        written += line(out, "{\"type\":\"assistant.idle\",\"data\":{},\"ephemeral\":true,\"id\":\"end-3\",\"timestamp\":\"" + t + "\",\"parentId\":null}");
        written += line(out, "{\"type\":\"result\",\"timestamp\":\"" + t + "\",\"sessionId\":\"synthetic\",\"exitCode\":0,\"usage\":{\"premiumRequests\":3,\"totalApiDurationMs\":93,\"sessionDurationMs\":901,\"codeChanges\":{\"linesAdded\":5,\"linesRemoved\":1,\"filesModified\":[\"a.js\"]}}}");
        return written;
    }

    private static int line(OutputStream out, String json) throws IOException {
        out.write(json.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
        return 1;
    }
}
