package io.jenkins.plugins.copilotautopilot.soak;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.AgentRequest;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scripted model of the soak: one script for every kind, which it reads from the conversation's first user
 * message ({@code soak-kind=…}). Each answer depends only on the conversation, so that a session continued after a
 * restart, a rate limit or a kept session is answered as the same session would be.
 */
final class SoakModel implements Script {
    private static final Pattern KIND = Pattern.compile("soak-kind=([A-Z_]+)");
    private static final Pattern CODE_WORD = Pattern.compile("code word (W\\d+)");
    /** What {@link SessionKind#KEPT}'s summary starts with, then the code words the conversation holds, in order. */
    static final String KNOWN = "Known code words:";

    @Override
    public Reply reply(AgentRequest request) {
        JsonNode messages = request.body().path("messages");
        SessionKind kind = kind(messages);
        List<String> sinceLastUser = toolsSinceLastUser(messages);
        return switch (kind) {
            case QUICK -> toolThenComplete(sinceLastUser, "echo quick", 60, "Ran one command.");
            case DOCKER -> toolThenComplete(sinceLastUser, "test -f /.dockerenv && echo in a container", 60, "Ran it in the container.");
            case QUIET -> toolThenComplete(sinceLastUser, "sleep " + SessionKind.QUIET_SECONDS, SessionKind.QUIET_SECONDS + 60, "Waited.");
            case PRINTING -> toolThenComplete(sinceLastUser, printing(SessionKind.PRINT_SECONDS), SessionKind.PRINT_SECONDS + 60,
                    "Printed.");
            case FREESTYLE -> toolThenComplete(sinceLastUser, printing(20), 80, "Printed in a Freestyle build.");
            case STREAMING -> sinceLastUser.contains("task_complete") ? Reply.text("Done.")
                    : Reply.taskComplete("Wrote the long answer.").withText(longAnswer()).chunked(24, 40);
            case VERIFY_ONCE -> verifyOnce(messages, sinceLastUser);
            case APPROVAL -> toolThenComplete(sinceLastUser, "touch approved.txt", 60, "Touched it, or was told not to.");
            case BUDGET -> Reply.bash("echo another step", 30).withText("One more step.");
            case TIMEOUT -> toolThenComplete(sinceLastUser, "sleep 600", 660, "Slept.");
            case KEPT -> sinceLastUser.contains("task_complete") ? Reply.text("Done.")
                    : Reply.taskComplete(KNOWN + " " + String.join(" ", codeWords(messages)));
            case PARALLEL -> throw new IllegalStateException("a parallel build's sessions are QUICK and PRINTING");
        };
    }

    private static SessionKind kind(JsonNode messages) {
        for (JsonNode m : messages) {
            if ("user".equals(m.path("role").asText())) {
                Matcher k = KIND.matcher(m.path("content").toString());
                if (k.find()) {
                    return SessionKind.of(k.group(1));
                }
            }
        }
        throw new IllegalStateException("no soak-kind in the conversation");
    }

    private static Reply toolThenComplete(List<String> sinceLastUser, String command, int wait, String summary) {
        return !sinceLastUser.contains("bash") ? Reply.bash(command, wait).withText("I'll run the tool.")
                : !sinceLastUser.contains("task_complete") ? Reply.taskComplete(summary) : Reply.text("All done.");
    }

    /** Completes at once; once told that the acceptance check failed, writes the file it checks and completes again. */
    private static Reply verifyOnce(JsonNode messages, List<String> sinceLastUser) {
        if (!messages.toString().contains("The acceptance check of this task failed")) {
            return sinceLastUser.contains("task_complete") ? Reply.text("Done.") : Reply.taskComplete("Implemented it.");
        }
        return toolThenComplete(sinceLastUser, "touch fixed.txt", 30, "Fixed it.");
    }

    /** The tools called since the conversation's last user message (a nudge, a failed check or a new prompt). */
    private static List<String> toolsSinceLastUser(JsonNode messages) {
        int lastUser = -1;
        for (int i = 0; i < messages.size(); i++) {
            if ("user".equals(messages.get(i).path("role").asText())) {
                lastUser = i;
            }
        }
        List<String> tools = new ArrayList<>();
        for (int i = lastUser + 1; i < messages.size(); i++) {
            for (JsonNode call : messages.get(i).path("tool_calls")) {
                tools.add(call.path("function").path("name").asText());
            }
        }
        return tools;
    }

    /** The code words of the conversation's user messages, in order, each once. */
    static List<String> codeWords(JsonNode messages) {
        List<String> words = new ArrayList<>();
        for (JsonNode m : messages) {
            if ("user".equals(m.path("role").asText())) {
                Matcher w = CODE_WORD.matcher(m.path("content").toString());
                while (w.find()) {
                    if (!words.contains(w.group(1))) {
                        words.add(w.group(1));
                    }
                }
            }
        }
        return words;
    }

    private static String printing(int seconds) {
        // a 200-byte line a second: printf pads the line's number to 199 digits
        return "for i in $(seq 1 " + seconds + "); do printf '%0199d\\n' \"$i\"; sleep 1; done";
    }

    private static String longAnswer() {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 60; i++) {
            text.append("Paragraph ").append(i).append(" of the long answer says what the soak streams. ");
            if (i % 6 == 0) {
                text.append("\n\n");
            }
        }
        return text.toString().strip();
    }
}
