package io.jenkins.plugins.copilotautopilot.core.process;

import java.io.IOException;

/**
 * A CLI started from its control folder, as the follower sees it: files to read from any position, and a
 * process tree to stop. Reading never consumes anything, so a new follower can read the same session again.
 */
public interface CliSession {
    /**
     * @param outputOffset how much of the standard output was read already
     * @param stderrOffset how much of the standard error was read already
     * @param maxBytes     the most to return of each stream
     * @throws IOException when the session's folder cannot be reached (an agent that went offline)
     */
    SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException, InterruptedException;

    /**
     * Like {@link #poll(long, long, int)}, also reading the usage records of the CLI's model calls from its session
     * state from {@code usageOffset}, and what the agent changed once the session has ended. Sessions that cannot
     * tell (a replay, a test) answer as the three-argument poll.
     */
    default SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes)
            throws IOException, InterruptedException {
        return poll(outputOffset, stderrOffset, maxBytes);
    }

    /**
     * Waits {@code millis} before the next look, or less if the CLI ends meanwhile (the next look then finds its
     * exit code at once). For a follower that waits on its own thread ({@link
     * io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine#run}).
     */
    default void pause(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }

    /**
     * Stops the CLI and every process of the session, also those that left its process tree (SIGTERM, then SIGKILL
     * after a grace period). May return before they are gone, but must not block for long: the follower goes on
     * reading the session until the CLI has ended (or gives up after a while). Safe to call more than once and after
     * the CLI has ended.
     */
    void stop() throws IOException, InterruptedException;

    /**
     * Tells the launch script, which waits after the CLI or the acceptance check (its {@code step}), what comes next:
     * {@code answer} ({@code check}, {@code resume} or {@code done}) and, to resume, the agent's next task
     * ({@code prompt}, else null). Writes it once: telling the same step again changes nothing. Sessions without a
     * launch script (a replay) ignore it.
     */
    default void answer(int step, String answer, String prompt) throws IOException, InterruptedException {
    }

    /**
     * Hands the approval hook waiting on request {@code id} its answer to the CLI ({@code approveTools}); written once.
     * Sessions without a control folder (a replay) ignore it.
     */
    default void decide(String id, String hookOutput) throws IOException, InterruptedException {
    }

    /** Removes the control folder, the CLI's private state with it. */
    void cleanup() throws IOException, InterruptedException;

    /**
     * A session whose files cannot be read (its folder is gone, its agent does not answer): nothing to read, nothing
     * to stop, so that it can be ended and recorded with what its follower knows.
     */
    CliSession NOTHING_TO_READ = new CliSession() {
        @Override
        public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) {
            return new SessionPoll(new byte[0], new byte[0], null, false);
        }

        @Override
        public void stop() {
        }

        @Override
        public void cleanup() {
        }
    };
}
