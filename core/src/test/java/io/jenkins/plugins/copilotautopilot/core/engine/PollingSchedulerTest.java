package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PollingSchedulerTest {
    private static final EngineTimings TIMINGS = new EngineTimings(Duration.ofMillis(5), Duration.ofMillis(20),
            Duration.ofSeconds(1), Duration.ofSeconds(1), 1024);

    @Test
    void manyTasksOnFewThreadsEachNeverTwiceAtOnce() throws Exception {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch finished = new CountDownLatch(200);
        try (PollingScheduler scheduler = new PollingScheduler(3, TIMINGS, "test-follower")) {
            for (int t = 0; t < 200; t++) {
                AtomicInteger running = new AtomicInteger();
                AtomicInteger looks = new AtomicInteger();
                scheduler.submit(() -> {
                    if (running.incrementAndGet() > 1) {
                        overlaps.incrementAndGet();
                    }
                    threads.add(Thread.currentThread().getName());
                    int n = looks.incrementAndGet();
                    running.decrementAndGet();
                    if (n == 10) {
                        finished.countDown();
                        return PollingScheduler.Next.DONE;
                    }
                    return n % 3 == 0 ? PollingScheduler.Next.LATER : PollingScheduler.Next.SOON;
                });
            }
            assertThat(finished.await(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(overlaps).hasValue(0);
        assertThat(threads).hasSizeLessThanOrEqualTo(3).allMatch(name -> name.startsWith("test-follower-"));
    }

    @Test
    void aWokenTaskIsLookedAtSoonAndACancelledOneNeverAgain() throws Exception {
        EngineTimings slow = new EngineTimings(Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(1),
                Duration.ofSeconds(1), 1024);
        try (PollingScheduler scheduler = new PollingScheduler(1, slow, "test-follower")) {
            AtomicInteger looks = new AtomicInteger();
            CountDownLatch first = new CountDownLatch(1);
            CountDownLatch second = new CountDownLatch(2);
            PollingScheduler.Handle handle = scheduler.submit(() -> {
                looks.incrementAndGet();
                first.countDown();
                second.countDown();
                return PollingScheduler.Next.LATER; // next look in 30 s, unless woken
            });
            handle.wake(); // its first look, due at the next point of a 15 s grid, now
            assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
            handle.wake();
            assertThat(second.await(10, TimeUnit.SECONDS)).isTrue();
            handle.cancel();
            assertThat(handle.isDone()).isTrue();
            handle.wake();
            // a look that wake() had scheduled would be due now, before this one, on the scheduler's only thread
            CountDownLatch after = new CountDownLatch(1);
            scheduler.submit(() -> {
                after.countDown();
                return PollingScheduler.Next.DONE;
            }).wake();
            assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(looks).hasValue(2);
        }
    }

    @Test
    void aNewTasksFirstLookComesAtTheNextGridPoint() throws Exception {
        // a grid of 50 ms: the first look of each of twenty tasks submitted now within one interval
        EngineTimings timings = new EngineTimings(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofSeconds(1),
                Duration.ofSeconds(1), 1024);
        CountDownLatch looked = new CountDownLatch(20);
        try (PollingScheduler scheduler = new PollingScheduler(2, timings, "test-follower")) {
            for (int t = 0; t < 20; t++) {
                scheduler.submit(() -> {
                    looked.countDown();
                    return PollingScheduler.Next.DONE;
                });
            }
            assertThat(looked.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void looksDueAtAboutTheSameTimeShareAGridPointNoSoonerThanAsked() {
        long grid = TimeUnit.MILLISECONDS.toNanos(50);
        long base = 7 * grid;
        // asked 100 ms from moments 1 ms and 49 ms into a grid interval: both at the same point, at least 100 ms on
        long early = base + TimeUnit.MILLISECONDS.toNanos(1);
        long late = base + TimeUnit.MILLISECONDS.toNanos(49);
        long earlyDue = early + PollingScheduler.untilGridPoint(early, 100, grid);
        long lateDue = late + PollingScheduler.untilGridPoint(late, 100, grid);
        assertThat(earlyDue).isEqualTo(lateDue).isEqualTo(base + 3 * grid);
        assertThat(earlyDue - early).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(lateDue - late).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100)).isLessThan(TimeUnit.MILLISECONDS.toNanos(100) + grid);
        // exactly on a point: due exactly then; negative clock readings (System.nanoTime may be) are handled alike
        assertThat(PollingScheduler.untilGridPoint(base, 100, grid)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        long negative = -base - TimeUnit.MILLISECONDS.toNanos(1);
        assertThat((negative + PollingScheduler.untilGridPoint(negative, 100, grid)) % grid).isZero();
    }

    @Test
    void theLooksDueAtOneGridPointRunOneAfterTheOtherOnOneThread() throws Exception {
        // a grid of 1 s: fifty tasks asked to look again 2 s on are due at one or, straddling a second, two points
        EngineTimings slow = new EngineTimings(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(1),
                Duration.ofSeconds(1), 1024);
        Set<String> secondLooks = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(50);
        try (PollingScheduler scheduler = new PollingScheduler(4, slow, daemons(), TimeUnit.SECONDS.toNanos(30))) {
            for (int t = 0; t < 50; t++) {
                AtomicInteger looks = new AtomicInteger();
                scheduler.submit(() -> {
                    if (looks.incrementAndGet() == 1) {
                        return PollingScheduler.Next.LATER;
                    }
                    secondLooks.add(Thread.currentThread().getName());
                    Thread.sleep(2); // long enough for a woken thread to take the next look if one were woken
                    done.countDown();
                    return PollingScheduler.Next.DONE;
                });
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(secondLooks).as("a thread woken for each grid point, not one for each look").hasSizeLessThanOrEqualTo(2);
    }

    @Test
    void aLookThatWaitsDoesNotHoldUpTheOthersDueWithIt() throws Exception {
        // a grid of 50 ms, looks every 100–200 ms: tasks submitted together share grid points
        EngineTimings timings = new EngineTimings(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofSeconds(1),
                Duration.ofSeconds(1), 1024);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(1);
        try (PollingScheduler scheduler = new PollingScheduler(2, timings, "test-follower")) {
            AtomicInteger blockerLooks = new AtomicInteger();
            scheduler.submit(() -> {
                if (blockerLooks.incrementAndGet() > 1) { // its looks after the first wait, as a call that hangs would
                    blocked.countDown();
                    release.await(60, TimeUnit.SECONDS);
                }
                return PollingScheduler.Next.LATER;
            });
            List<AtomicInteger> quick = new ArrayList<>();
            for (int t = 0; t < 50; t++) {
                AtomicInteger looks = new AtomicInteger();
                quick.add(looks);
                scheduler.submit(() -> {
                    looks.incrementAndGet();
                    return PollingScheduler.Next.LATER;
                });
            }
            assertThat(blocked.await(30, TimeUnit.SECONDS)).isTrue();
            int[] before = quick.stream().mapToInt(AtomicInteger::get).toArray();
            // each of the others is looked at again while that one still waits, those due with it too
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!allLookedAtTwiceMore(quick, before) && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertThat(allLookedAtTwiceMore(quick, before)).as("every other task looked at while one look waits").isTrue();
            assertThat(release.getCount()).isOne();
            release.countDown();
        }
    }

    @Test
    void closingWhileALookWaitsIsNoFailureButAFailingLookIsLogged() throws Exception {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(PollingScheduler.class.getName());
        List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        boolean parents = logger.getUseParentHandlers();
        logger.setUseParentHandlers(false); // the failure made on purpose is not printed into the build's log
        try {
            EngineTimings timings = new EngineTimings(Duration.ofMillis(20), Duration.ofMillis(40), Duration.ofSeconds(1),
                    Duration.ofSeconds(1), 1024);
            CountDownLatch waiting = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            CountDownLatch failed = new CountDownLatch(2);
            PollingScheduler scheduler = new PollingScheduler(2, timings, "test-follower");
            scheduler.submit(() -> {
                failed.countDown();
                throw new IllegalStateException("a follower's bug");
            });
            scheduler.submit(() -> {
                waiting.countDown();
                try {
                    new CountDownLatch(1).await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                    throw e;
                }
                return PollingScheduler.Next.LATER;
            });
            assertThat(waiting.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(failed.await(30, TimeUnit.SECONDS)).as("a failing look is looked at again").isTrue();
            scheduler.close();
            assertThat(interrupted.await(30, TimeUnit.SECONDS)).isTrue();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (records.stream().noneMatch(r -> r.getThrown() instanceof IllegalStateException) && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertThat(records).anyMatch(r -> r.getLevel() == java.util.logging.Level.WARNING
                    && r.getThrown() instanceof IllegalStateException);
            // the interrupted look has thrown by now, and it was handled on the pool's thread before that thread ended
            assertThat(scheduler.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            assertThat(records).noneMatch(r -> r.getThrown() instanceof InterruptedException);
        } finally {
            logger.removeHandler(handler);
            logger.setUseParentHandlers(parents);
        }
    }

    private static boolean allLookedAtTwiceMore(List<AtomicInteger> looks, int[] before) {
        for (int i = 0; i < before.length; i++) {
            if (looks.get(i).get() < before[i] + 2) {
                return false;
            }
        }
        return true;
    }

    private static java.util.concurrent.ThreadFactory daemons() {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "test-follower-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
