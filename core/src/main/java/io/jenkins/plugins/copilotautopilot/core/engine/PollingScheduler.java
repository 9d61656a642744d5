package io.jenkins.plugins.copilotautopilot.core.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
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
 * <p>Looks are due on a grid of half {@link EngineTimings#pollMin} (50 ms for the plugin), and the looks due at one
 * point of it are run together, one after the other, by one thread: one timed wake-up for all of them. With a
 * thousand sessions, waking threads costs more than the looks themselves: on a grid of 10 ms, 2,000 looks a second
 * took 1.7–2.2 % of a core, on one of 50 ms 0.5–0.6 %; and each look scheduled on its own in a pool woke every thread
 * of the pool for each grid point. Should the looks of a point take longer than a grid interval (one waits on
 * something), another thread joins in with those still to run, and so on up to every thread. A look comes at most one
 * interval later than asked, a new task's first one at the next point; {@link Handle#wake} is not delayed.
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
    /** How long the looks of one grid point run on one thread before another joins in. */
    private final long helpAfterNanos;
    /** The looks due at each grid point still to come, by the point's number; guarded by itself. */
    private final Map<Long, List<Due>> points = new HashMap<>();

    public PollingScheduler(int threads, EngineTimings timings, String name) {
        this(threads, timings, daemons(name));
    }

    /**
     * @param threads where the threads come from: a host may need them set up its own way (Jenkins: without the
     *                class loader of whichever thread happens to start one)
     */
    public PollingScheduler(int threads, EngineTimings timings, ThreadFactory threadFactory) {
        this(threads, timings, threadFactory, -1);
    }

    /** @param helpAfterNanos how long the looks of a point run on one thread before another joins in (-1: a grid interval) */
    PollingScheduler(int threads, EngineTimings timings, ThreadFactory threadFactory, long helpAfterNanos) {
        this.executor = new ScheduledThreadPoolExecutor(threads, threadFactory);
        this.executor.setRemoveOnCancelPolicy(true);
        this.timings = timings;
        this.gridNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), timings.pollMin().toNanos() / 2);
        this.helpAfterNanos = helpAfterNanos < 0 ? gridNanos : helpAfterNanos;
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Nanoseconds from {@code now} to the first point of a grid of {@code gridNanos} at least {@code millis} later. */
    static long untilGridPoint(long now, long millis, long gridNanos) {
        long due = now + TimeUnit.MILLISECONDS.toNanos(millis);
        return Math.floorDiv(due + gridNanos - 1, gridNanos) * gridNanos - now;
    }

    /**
     * Starts looking at {@code task}, first at the next grid point (with the looks due then: a thousand sessions
     * start a few a second, and a look of its own for each would wake a thread for each).
     */
    public Handle submit(Task task) {
        Handle handle = new Handle(task);
        handle.schedule(-1);
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

    /** Waits until the looks running when it was closed have ended. */
    boolean awaitTermination(long time, TimeUnit unit) throws InterruptedException {
        return executor.awaitTermination(time, unit);
    }

    /** Notes that {@code due} is to run at the first grid point at least {@code millis} from now. */
    private void atGridPoint(Due due, long millis) {
        long now = System.nanoTime();
        long delay = untilGridPoint(now, millis, gridNanos);
        long point = Math.floorDiv(now + delay, gridNanos);
        synchronized (points) {
            List<Due> list = points.get(point);
            if (list == null) {
                list = new ArrayList<>();
                points.put(point, list);
                try {
                    executor.schedule(() -> runPoint(point), delay, TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException e) {
                    points.remove(point); // closed
                    return;
                }
            }
            list.add(due);
        }
    }

    /** On a pool thread, at grid point {@code point}: the looks due then. */
    private void runPoint(long point) {
        List<Due> list;
        synchronized (points) {
            list = points.remove(point);
        }
        if (list != null) {
            new Point(list.toArray(new Due[0])).run();
        }
    }

    /** A look asked for at a grid point: taken only if it is still the handle's next look then. */
    private record Due(Handle handle, long ticket) {
    }

    /**
     * The looks due at one grid point. The thread the point woke takes them one by one; if they are not all taken
     * within {@link #helpAfterNanos}, another thread joins in, and after as long again another.
     */
    private final class Point implements Runnable {
        private final Due[] looks;
        private final AtomicInteger next = new AtomicInteger();
        /** Threads taking these looks: the one the point woke, and those that joined in. */
        private final AtomicInteger joined = new AtomicInteger(1);
        private volatile ScheduledFuture<?> help;

        Point(Due[] looks) {
            this.looks = looks;
        }

        @Override
        public void run() {
            callForHelp();
            take();
        }

        private void take() {
            int i;
            while ((i = next.getAndIncrement()) < looks.length) {
                looks[i].handle().run(looks[i].ticket());
            }
            ScheduledFuture<?> h = help;
            if (h != null) {
                h.cancel(false);
            }
        }

        private void callForHelp() {
            if (next.get() + 1 < looks.length && joined.get() < threads()) {
                try {
                    help = executor.schedule(this::join, helpAfterNanos, TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException e) {
                    // closed
                }
            }
        }

        private void join() {
            if (next.get() >= looks.length) {
                return;
            }
            joined.incrementAndGet();
            callForHelp();
            take();
        }
    }

    /** A registered task. */
    public final class Handle {
        private final Task task;
        private long delay;
        /** Its next look: the one a grid point may run (a wake makes it another). */
        private long ticket;
        private ScheduledFuture<?> now;
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
            schedule(0);
        }

        /** Never looks at the task again. */
        public synchronized void cancel() {
            done = true;
            ticket++;
            if (now != null) {
                now.cancel(false);
            }
        }

        public synchronized boolean isDone() {
            return done;
        }

        /**
         * The next look: right away ({@code millis} 0), at the next grid point (negative), or at the first grid point
         * {@code millis} from now; any look asked for before is dropped.
         */
        private synchronized void schedule(long millis) {
            if (done || executor.isShutdown()) {
                return;
            }
            long mine = ++ticket;
            if (now != null) {
                now.cancel(false);
                now = null;
            }
            if (millis == 0) {
                try {
                    now = executor.schedule(() -> run(mine), 0, TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException e) {
                    // closed
                }
            } else {
                atGridPoint(new Due(this, mine), Math.max(0, millis));
            }
        }

        /** The look asked for with {@code mine}, unless another was asked for since, or it is finished or running. */
        private void run(long mine) {
            synchronized (this) {
                if (done || running || mine != ticket) {
                    return;
                }
                running = true;
                wakeRequested = false;
                now = null;
            }
            Next outcome;
            try {
                outcome = task.poll();
            } catch (InterruptedException e) {
                if (!executor.isShutdown()) {
                    LOGGER.log(Level.WARNING, "a session follower was interrupted; it will be looked at again", e);
                }
                // else: closed while it waited, as close() interrupts; nothing went wrong
                outcome = Next.LATER;
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
