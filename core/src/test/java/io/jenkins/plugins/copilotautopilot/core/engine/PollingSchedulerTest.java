package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
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
            });
            assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(looks).hasValue(2);
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
}
