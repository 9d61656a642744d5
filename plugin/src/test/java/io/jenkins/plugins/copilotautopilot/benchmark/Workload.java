package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Script;
import java.util.Locale;

/**
 * What a session does in {@link NextToShBenchmark}: the scripted model's answers, the same for the step and for
 * {@code sh}. Only the core's test model is used here (no Jenkins class), so that {@link ModelProcess} can run it in a
 * JVM of its own. The sizes come from system properties ({@code bench.printSeconds}, {@code bench.quietSeconds},
 * {@code bench.streamWords}, {@code bench.streamChunk}, {@code bench.streamDelayMs}), which the model's JVM is given
 * too.
 */
enum Workload {
    /** Turn 1 runs a tool that prints a 200-byte line a second; turn 2 calls task_complete. */
    PRINTING {
        @Override
        String describe() {
            return "the tool prints a 200-byte line a second for " + printSeconds() + " s, then task_complete";
        }

        @Override
        Script script() {
            int seconds = printSeconds();
            // printf pads the line's number to 199 digits: with the line break, 200 bytes a line
            return toolThenComplete("for i in $(seq 1 " + seconds + "); do printf '%0199d\\n' \"$i\"; sleep 1; done",
                    seconds, "Printed " + seconds + " lines.");
        }

        @Override
        int seconds() {
            return printSeconds() + 4;
        }
    },
    /** Turn 1 runs a tool that prints nothing for a while; turn 2 calls task_complete. */
    QUIET {
        @Override
        String describe() {
            return "the tool runs `sleep " + quietSeconds() + "`, printing nothing, then task_complete";
        }

        @Override
        Script script() {
            return toolThenComplete("sleep " + quietSeconds(), quietSeconds(), "Waited.");
        }

        @Override
        int seconds() {
            return quietSeconds() + 4;
        }
    },
    /** Turn 1 streams a long answer in many small deltas and calls task_complete with it. */
    STREAMING {
        @Override
        String describe() {
            String text = longAnswer(streamWords());
            int deltas = (text.length() + streamChunk() - 1) / streamChunk();
            return "the model streams an answer of " + streamWords() + " words (" + text.length() + " characters) in " + deltas
                    + " deltas of " + streamChunk() + " characters, " + streamDelayMs() + " ms apart, then task_complete";
        }

        @Override
        Script script() {
            String text = longAnswer(streamWords());
            return request -> request.used("task_complete") ? Reply.text("Done.")
                    : Reply.taskComplete("Wrote the long answer.").withText(text).chunked(streamChunk(), streamDelayMs());
        }

        @Override
        int seconds() {
            int deltas = (longAnswer(streamWords()).length() + streamChunk() - 1) / streamChunk();
            return deltas * streamDelayMs() / 1000 + 4;
        }
    };

    abstract String describe();

    /** About how long a session of this workload lasts: how long the floor's build waits. */
    abstract int seconds();

    abstract Script script();

    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Workload of(String id) {
        return valueOf(id.trim().toUpperCase(Locale.ROOT));
    }

    /** Turn 1 runs {@code command} with bash (waiting long enough for it), then task_complete; per conversation. */
    static Script toolThenComplete(String command, int seconds, String summary) {
        int wait = Math.max(60, seconds + 30);
        return request -> !request.used("bash") ? Reply.bash(command, wait).withText("I'll run the tool.")
                : !request.used("task_complete") ? Reply.taskComplete(summary) : Reply.text("All done.");
    }

    /** About {@code words} words of plain prose, in sentences of 12 words, the same every time. */
    static String longAnswer(int words) {
        String[] vocabulary = {"the", "pipeline", "step", "follows", "each", "session", "while", "agent", "controller",
            "output", "stream", "event", "build", "log", "reads", "writes", "line", "tool", "model", "answer", "small",
            "delta", "quietly", "again"};
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < words; i++) {
            String word = vocabulary[(i * 7 + 3) % vocabulary.length];
            text.append(i % 12 == 0 ? Character.toUpperCase(word.charAt(0)) + word.substring(1) : word);
            text.append((i + 1) % 12 == 0 ? (i + 1) % 96 == 0 ? ".\n\n" : ". " : " ");
        }
        return text.toString().strip();
    }

    static int printSeconds() {
        return Integer.getInteger("bench.printSeconds", 30);
    }

    static int quietSeconds() {
        return Integer.getInteger("bench.quietSeconds", 45);
    }

    static int streamWords() {
        return Integer.getInteger("bench.streamWords", 800);
    }

    static int streamChunk() {
        return Integer.getInteger("bench.streamChunk", 5);
    }

    static int streamDelayMs() {
        return Integer.getInteger("bench.streamDelayMs", 30);
    }
}
