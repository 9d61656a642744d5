package io.jenkins.plugins.copilotautopilot.core.engine;

import java.util.Properties;

/**
 * How far a follower got: the bytes of the CLI's stdout and stderr it has handled, and the size of the journal
 * it had written for them. A new follower resumes from here ({@link AutopilotEngine#resume}): it reads the
 * session again up to these offsets without printing anything, truncates the journal to this size, and goes on
 * live — no log line is missing or written twice.
 */
public record Checkpoint(long outputOffset, long stderrOffset, long journalBytes, long usageOffset) {
    public static final Checkpoint START = new Checkpoint(0, 0, 0, 0);

    /** A checkpoint of a follower that had read no usage records (or of a session without them). */
    public Checkpoint(long outputOffset, long stderrOffset, long journalBytes) {
        this(outputOffset, stderrOffset, journalBytes, 0);
    }

    /** A small text form for a file ({@code key=value} lines). */
    public String toText() {
        return "outputOffset=" + outputOffset + "\nstderrOffset=" + stderrOffset + "\njournalBytes=" + journalBytes
                + "\nusageOffset=" + usageOffset + "\n";
    }

    /** Reads {@link #toText()}; anything unreadable gives {@link #START}'s values for that field. */
    public static Checkpoint parse(String text) {
        Properties p = new Properties();
        try {
            p.load(new java.io.StringReader(text));
        } catch (java.io.IOException e) {
            return START;
        }
        return new Checkpoint(number(p, "outputOffset"), number(p, "stderrOffset"), number(p, "journalBytes"),
                number(p, "usageOffset"));
    }

    private static long number(Properties p, String key) {
        try {
            return Math.max(0, Long.parseLong(p.getProperty(key, "0").strip()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
