package io.jenkins.plugins.copilotautopilot.core.session;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The line the CLI appends to a shell tool's result for the model, {@code <shellId: 0 completed with exit code 1>}: its
 * own bookkeeping, which the log and the pages leave out (the exit code is in the event's {@code shellExecution}).
 */
final class ShellMarker {
    private static final String START = "<shellId: ";
    /** The most characters the id may take ({@code [^>\n]{1,40}} below). */
    private static final int MAX_ID = 40;
    private static final Pattern AT_END = Pattern.compile("\\R?<shellId: [^>\\n]{1," + MAX_ID + "} completed with exit code -?\\d+>\\s*\\z");

    private ShellMarker() {
    }

    /** The output without the CLI's marker at its end; null stays null. */
    static String strip(String output) {
        int last = output == null ? -1 : output.lastIndexOf(START);
        if (last < 0) {
            return output;
        }
        // The marker ends the output, so it is looked for near its end only, not from every character of a long result:
        // a later START than the marker's own can only lie in (or end just after) its id, so the marker starts less
        // than an id and a START before the last START, and its line break at most two characters before that.
        Matcher marker = AT_END.matcher(output).region(Math.max(0, last - MAX_ID - START.length() - 2), output.length());
        return marker.find() ? output.substring(0, marker.start()) : output;
    }
}
