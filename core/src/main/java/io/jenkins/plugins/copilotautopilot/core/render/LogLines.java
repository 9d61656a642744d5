package io.jenkins.plugins.copilotautopilot.core.render;

import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.text.ConsoleText;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;

/**
 * How a line reaches the live log, for the renderer and for each part of a session that has lines of its own: masked,
 * cleaned of control characters, under the log's prefix. Whether the agent's own text may be shown is decided once,
 * here, for all of them.
 */
public final class LogLines {
    public static final String PREFIX = "[copilot] ";
    /** Longest assistant message printed, in characters. */
    public static final int MAX_MESSAGE = 20_000;
    /** Longest single line of CLI output or error printed, in characters. */
    public static final int MAX_LINE = 1_000;
    public static final String INDENT = "  ";

    private final LogSink sink;
    private final SecretMasker masker;
    private final boolean agentText;

    public LogLines(LogSink sink, SecretMasker masker, boolean agentText) {
        this.sink = sink;
        this.masker = masker;
        this.agentText = agentText;
    }

    /** Whether what the agent wrote (messages, arguments, outputs, summary) may be shown in the log. */
    public boolean agentText() {
        return agentText;
    }

    /** One line: masked, cleaned, never containing a line break. */
    public void line(String text) {
        emit(Texts.singleLine(ConsoleText.clean(masker.mask(text))));
    }

    /** Text that may span lines: masked as a whole, then written line by line under {@code lead}. */
    public void block(String lead, String text) {
        String safe = ConsoleText.clean(masker.mask(text)).replace("\r\n", "\n").replace('\r', '\n');
        String[] lines = safe.split("\n");
        String continuation = " ".repeat(Math.min(lead.length(), 12));
        for (int i = 0; i < lines.length; i++) {
            emit((i == 0 ? lead : continuation) + lines[i]);
        }
    }

    private void emit(String text) {
        sink.println(PREFIX + masker.mask(text));
    }

    /** {@code 1 turn}, {@code 3 turns}. */
    public static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /** {@code 12,345}. */
    public static String thousands(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }
}
