package io.jenkins.plugins.copilotautopilot.agent;

/** Lets tests of other packages shorten {@link FolderDeletions}' wait between tries. */
public final class FolderDeletionsAccess {
    private FolderDeletionsAccess() {
    }

    /** Sets the wait between tries; returns the one before. */
    public static long retrySeconds(long seconds) {
        long before = FolderDeletions.RETRY_SECONDS;
        FolderDeletions.RETRY_SECONDS = seconds;
        return before;
    }
}
