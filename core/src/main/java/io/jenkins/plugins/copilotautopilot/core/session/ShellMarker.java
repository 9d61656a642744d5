package io.jenkins.plugins.copilotautopilot.core.session;

import java.util.regex.Pattern;

/**
 * The line the CLI appends to a shell tool's result for the model, {@code <shellId: 0 completed with exit code 1>}: its
 * own bookkeeping, which the log and the pages leave out (the exit code is in the event's {@code shellExecution}).
 */
final class ShellMarker {
    private static final Pattern AT_END = Pattern.compile("\\R?<shellId: [^>\\n]{1,40} completed with exit code -?\\d+>\\s*\\z");

    private ShellMarker() {
    }

    /** The output without the CLI's marker at its end; null stays null. */
    static String strip(String output) {
        if (output == null || output.indexOf("<shellId: ") < 0) {
            return output;
        }
        return AT_END.matcher(output).replaceFirst("");
    }
}
