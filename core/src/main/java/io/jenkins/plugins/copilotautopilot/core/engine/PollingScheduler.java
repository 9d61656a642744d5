package io.jenkins.plugins.copilotautopilot.core.engine;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Follows many sessions on a few shared threads: each registered task is looked at again soon after it found
 * something, and less and less often while it finds nothing ({@link EngineTimings#nextDelayMillis}). A task
 * never runs on two threads at once. The number of threads does not grow with the number of sessions.
 *
 * <p>Looks are due on a grid of half {@link EngineTimings#pollMin} (50 ms for the plugin): looks due at about the
 * same time are taken one after the other by threads that are awake anyway, instead of each waking a thread of its
 * own. With a thousand sessions, waking threads costs more than the looks themselves: on a grid of 10 ms, 2,000 looks
 * a second took 1.7–2.2 % of a core, on one of 50 ms 0.5–0.6 % (a look that found nothing comes at most 50 ms later;
 * {@link Handle#wake} is not delayed).
 */
public final class PollingScheduler implements AutoCloseable {
    private static final Logger LOGGER = Logger.getLogger(PollingScheduler.class.getName());

    /** What a task says after one look. */
    public enum Next {
        /** It found something: look again soon. */
        SOON,
        /** Nothing new: look again later. */
        LATER,
        /** It is finished: never look again. */
        DONE
    }

    /** One look at one session. */
    @FunctionalInterface
    public interface Task {
        Next poll() throws Exception;
    }

    private final ScheduledThreadPoolExecutor executor;
    private final EngineTimings timings;
    private final long gridNanos;

    public PollingScheduler(int threads, EngineTimings timings, String name) {
        this(threads, timings, daemons(name));
    }

    /**
     * @param threads where the threads come from: a host may need them set up its own way (Jenkins: without the
     *                class loader of whichever thread happens to start one)
     */
    public PollingScheduler(int threads, EngineTimings timings, ThreadFactory threadFactory) {
        this.executor = new ScheduledThreadPoolExecutor(threads, threadFactory);
        this.executor.setRemoveOnCancelPolicy(true);
        this.timings = timings;
        this.gridNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), timings.pollMin().toNanos() / 2);
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Nanoseconds from now to the first grid point at least {@code millis} from now. */
    private long onGrid(long millis) {
        return untilGridPoint(System.nanoTime(), millis, gridNanos);
    }

    /** Nanoseconds from {@code now} to the first point of a grid of {@code gridNanos} at least {@code millis} later. */
    static long untilGridPoint(long now, long millis, long gridNanos) {
        long due = now + TimeUnit.MILLISECONDS.toNanos(millis);
        return Math.floorDiv(due + gridNanos - 1, gridNanos) * gridNanos - now;
    }

    /** Starts looking at {@code task}, first right away. */
    public Handle submit(Task task) {
        Handle handle = new Handle(task);
        handle.schedule(0);
        return handle;
    }

    /** The number of threads, for diagnostics. */
    public int threads() {
        return executor.getCorePoolSize();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    /** A registered task. */
    public final class Handle {
        private final Task task;
        private long delay;
        private ScheduledFuture<?> next;
        private boolean running;
        private boolean wakeRequested;
        private boolean done;

        private Handle(Task task) {
            this.task = task;
        }

        /** Looks at the task as soon as possible (e.g. after an abort was asked for). */
        public synchronized void wake() {
            if (done) {
                return;
            }
            if (running) {
                wakeRequested = true;
                return;
            }
            if (next != null) {
                next.cancel(false);
            }
            schedule(0);
        }

        /** Never looks at the task again. */
        public synchronized void cancel() {
            done = true;
            if (next != null) {
                next.cancel(false);
            }
        }

        public synchronized boolean isDone() {
            return done;
        }

        private synchronized void schedule(long millis) {
            if (!done && !executor.isShutdown()) {
                next = executor.schedule(this::run, millis <= 0 ? 0 : onGrid(millis), TimeUnit.NANOSECONDS);
            }
        }

        private void run() {
            synchronized (this) {
                if (done || running) {
                    return;
                }
                running = true;
                wakeRequested = false;
            }
            Next outcome;
            try {
                outcome = task.poll();
            } catch (Throwable e) {
                LOGGER.log(Level.WARNING, "a session follower failed; it will be looked at again", e);
                outcome = Next.LATER;
            }
            synchronized (this) {
                running = false;
                if (outcome == Next.DONE) {
                    done = true;
                    return;
                }
                delay = wakeRequested ? 0 : timings.nextDelayMillis(delay, outcome == Next.SOON);
                schedule(delay);
            }
        }
    }
}
