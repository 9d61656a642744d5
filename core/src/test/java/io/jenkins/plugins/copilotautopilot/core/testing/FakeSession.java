package io.jenkins.plugins.copilotautopilot.core.testing;

import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.util.Arrays;

/**
 * A session without a process: recorded stdout and stderr bytes that appear a piece per look, like a file
 * the CLI is writing, then an exit code. A lingering session never ends by itself: only {@link #stop()} ends
 * it (exit code 143). Records whether it was stopped while it still ran, and whether it was cleaned up.
 */
public final class FakeSession implements CliSession {
    private final byte[] stdout;
    private final byte[] stderr;
    private final int exitCode;
    private final int pieceSize;
    private final boolean lingers;
    private int revealedOut;
    private int revealedErr;
    private volatile boolean stoppedWhileRunning;
    private volatile int stops;
    private volatile boolean cleanedUp;

    public FakeSession(byte[] stdout, byte[] stderr, int exitCode, int pieceSize, boolean lingers) {
        this.stdout = stdout;
        this.stderr = stderr;
        this.exitCode = exitCode;
        this.pieceSize = pieceSize;
        this.lingers = lingers;
    }

    /** Writes {@code stdout} and then runs until stopped. */
    public static FakeSession lingering(byte[] stdout) {
        return new FakeSession(stdout, new byte[0], 0, 997, true);
    }

    @Override
    public synchronized SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) {
        revealedOut = Math.min(stdout.length, revealedOut + pieceSize);
        revealedErr = stderr.length; // stderr is small: all of it at once
        byte[] out = slice(stdout, outputOffset, Math.min(revealedOut, outputOffset + maxBytes));
        byte[] err = slice(stderr, stderrOffset, Math.min(revealedErr, stderrOffset + maxBytes));
        boolean ended = stops > 0 || (!lingers && revealedOut == stdout.length);
        Integer code = !ended ? null : stoppedWhileRunning ? Integer.valueOf(143) : Integer.valueOf(exitCode);
        return new SessionPoll(out, err, code, ended);
    }

    private static byte[] slice(byte[] bytes, long from, long to) {
        return from >= to ? new byte[0] : Arrays.copyOfRange(bytes, (int) from, (int) to);
    }

    @Override
    public synchronized void stop() {
        boolean ended = stops > 0 || (!lingers && revealedOut == stdout.length);
        if (!ended) {
            stoppedWhileRunning = true;
        }
        stops++;
    }

    @Override
    public void cleanup() {
        cleanedUp = true;
    }

    /** Whether the engine stopped it before it ended by itself. */
    public boolean stoppedWhileRunning() {
        return stoppedWhileRunning;
    }

    /** How often {@link #stop()} was called (the engine also calls it after the end, to sweep). */
    public int stops() {
        return stops;
    }

    public boolean cleanedUp() {
        return cleanedUp;
    }
}
