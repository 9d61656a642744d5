package io.jenkins.plugins.copilotautopilot.follow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Shutting the controller down lets the sessions being recorded, and those waiting for a recorder, be written first:
 * a session that ended just before a restart keeps its record, and nothing writes into a build's folder once Jenkins
 * has stopped.
 */
class FollowingShutdownTest {

    @Test
    void theRecordsUnderWayAndWaitingAreWrittenBeforeShutdownReturns() throws Exception {
        CountDownLatch bothRecording = new CountDownLatch(2);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger written = new AtomicInteger();
        for (int i = 0; i < 3; i++) { // two recorders: the third waits for one of them
            Following.recorders().submit(() -> {
                bothRecording.countDown();
                go.await();
                written.incrementAndGet();
                return null;
            });
        }
        assertTrue(bothRecording.await(30, TimeUnit.SECONDS), "two sessions are being recorded");

        Thread shutdown = new Thread(Following::shutDown, "shutting down");
        shutdown.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (shutdown.isAlive() && shutdown.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(Thread.State.TIMED_WAITING, shutdown.getState(), "shutting down waits for the records");
        assertEquals(0, written.get());

        go.countDown();
        shutdown.join(Duration.ofSeconds(30).toMillis());
        assertFalse(shutdown.isAlive(), "shutting down returned once the records were written");
        assertEquals(3, written.get(), "every record written, the one that waited for a recorder too");
    }
}
