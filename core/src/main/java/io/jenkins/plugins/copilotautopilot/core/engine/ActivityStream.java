package io.jenkins.plugins.copilotautopilot.core.engine;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Passes the CLI's stdout through, notes when bytes last arrived (for the inactivity limit), and lets the
 * engine wait until the stream has ended.
 */
final class ActivityStream extends OutputStream {
    private final OutputStream next;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile long lastActivityNanos = System.nanoTime();

    ActivityStream(OutputStream next) {
        this.next = next;
    }

    @Override
    public void write(int b) throws IOException {
        lastActivityNanos = System.nanoTime();
        next.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        lastActivityNanos = System.nanoTime();
        next.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        next.flush();
    }

    @Override
    public void close() throws IOException {
        try {
            next.close();
        } finally {
            ended.countDown();
        }
    }

    long nanosSinceActivity() {
        return System.nanoTime() - lastActivityNanos;
    }

    boolean awaitEnd(long millis) throws InterruptedException {
        return ended.await(millis, TimeUnit.MILLISECONDS);
    }

    boolean ended() {
        return ended.getCount() == 0;
    }
}
