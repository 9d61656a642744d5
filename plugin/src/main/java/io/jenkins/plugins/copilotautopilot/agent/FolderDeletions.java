package io.jenkins.plugins.copilotautopilot.agent;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * A session's folders deleted again in the background, every {@value #RETRY_SECONDS} s, until its agent answers: what
 * an ended session or a launch that failed leaves when the agent does not answer then. A CLI that did start stops once
 * its control folder is gone (its watchdog ends it), so this also stops a CLI whose launch was answered by a broken
 * channel. Each try runs on {@link AgentCalls#pool()}, bounded in time by the call it makes.
 */
public final class FolderDeletions {
    private static final Logger LOGGER = Logger.getLogger(FolderDeletions.class.getName());
    /** How long between two tries (mutable for tests). */
    @SuppressFBWarnings(value = "MS_SHOULD_BE_FINAL", justification = "tunable in tests")
    static long RETRY_SECONDS = 15;
    /** Two hours of tries: past the wall-clock limit of most sessions, when their watchdog has ended the CLI anyway. */
    private static final int ATTEMPTS = 480;

    private FolderDeletions() {
    }

    /** One try; true when it is settled (deleted, or the agent answered that it cannot), false to try again. */
    @FunctionalInterface
    public interface Attempt {
        boolean settled() throws Exception;
    }

    /** Tries {@code attempt} again in the background until it is settled; {@code what} names the folders in the log. */
    public static void later(String what, Attempt attempt) {
        retry(what, attempt, 1);
    }

    private static void retry(String what, Attempt attempt, int n) {
        if (n > ATTEMPTS) {
            LOGGER.warning(() -> "gave up deleting " + what);
            return;
        }
        jenkins.util.Timer.get().schedule(() -> AgentCalls.pool().submit(() -> {
            boolean settled;
            try {
                settled = attempt.settled();
            } catch (Exception e) {
                settled = false;
            }
            if (!settled) {
                retry(what, attempt, n + 1);
            }
        }), RETRY_SECONDS, TimeUnit.SECONDS);
    }
}
