package io.jenkins.plugins.copilotautopilot.agent;

import io.jenkins.plugins.copilotautopilot.Messages;

import hudson.remoting.VirtualChannel;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jenkinsci.plugins.workflow.support.concurrent.Timeout;

/**
 * Calls to an agent with a time limit ({@link Timeout}, as {@code sh} limits its own): a call that takes longer is
 * interrupted and fails with one line saying what did not finish, instead of holding its thread forever.
 *
 * <p>An interrupt does not free every thread: a channel whose agent stopped reading (a frozen JVM) blocks the thread
 * that writes to it, and every other caller on the channel's lock, for good. So a call to a channel that has one
 * call outstanding past the limit fails at once instead of joining it: each channel that stops answering holds at
 * most the threads that called it within one limit of the moment it stopped.
 */
public final class TimeLimits {
    private static final Map<VirtualChannel, Set<Call>> OUTSTANDING = new ConcurrentHashMap<>();

    private TimeLimits() {
    }

    /** Work that calls an agent. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws IOException, InterruptedException;
    }

    /** One call in progress (identity matters, not the start time). */
    private static final class Call {
        final long startedNanos = System.nanoTime();
    }

    /**
     * Runs {@code work} on this thread, interrupting it after {@code seconds}.
     *
     * @param what what the work does, for the message ("writing the launch files on agent-1")
     * @throws IOException when the time ran out (the message says what did not finish), when the channel's end cut the
     *                     call off, or as {@code work} throws
     * @throws InterruptedException when this thread was interrupted for another reason (an abort)
     */
    public static <T> T limit(long seconds, String what, Work<T> work) throws IOException, InterruptedException {
        long started = System.nanoTime();
        try (Timeout timeout = Timeout.limit(seconds, TimeUnit.SECONDS)) {
            return work.run();
        } catch (hudson.remoting.RequestAbortedException e) {
            // remoting's word, unchecked, for a call its channel's end cut off: the agent went away, as an IOException says
            throw new IOException(e.getMessage(), e);
        } catch (InterruptedException e) {
            if (System.nanoTime() - started >= TimeUnit.SECONDS.toNanos(seconds)) {
                Thread.interrupted(); // the limit's interrupt, not the caller's
                throw new IOException(Messages.TimeLimits_TooLong(what, seconds), e);
            }
            throw e;
        }
    }

    /**
     * As {@link #limit(long, String, Work)}, for work on {@code channel}: refused at once while another call to it
     * has been outstanding for longer than {@code seconds}.
     */
    public static <T> T limit(VirtualChannel channel, long seconds, String what, Work<T> work) throws IOException, InterruptedException {
        if (notAnswering(channel, seconds)) {
            throw new IOException(Messages.TimeLimits_NotAnswering(what, seconds));
        }
        Call call = new Call();
        OUTSTANDING.computeIfAbsent(channel, c -> ConcurrentHashMap.newKeySet()).add(call);
        try {
            return limit(seconds, what, work);
        } finally {
            OUTSTANDING.computeIfPresent(channel, (c, calls) -> calls.remove(call) && calls.isEmpty() ? null : calls);
        }
    }

    /** Whether a call to {@code channel} has been outstanding for longer than {@code seconds}. */
    static boolean notAnswering(VirtualChannel channel, long seconds) {
        Set<Call> calls = OUTSTANDING.get(channel);
        if (calls == null) {
            return false;
        }
        long now = System.nanoTime();
        long limit = TimeUnit.SECONDS.toNanos(seconds);
        return calls.stream().anyMatch(c -> now - c.startedNanos > limit);
    }
}
