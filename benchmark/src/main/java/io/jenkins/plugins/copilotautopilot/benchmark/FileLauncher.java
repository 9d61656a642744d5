package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.RunningCli;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Plays a recorded event stream into the engine like a pipe would: in 64 KB chunks, on one thread, which is
 * also the thread the engine parses, tracks, masks, journals and renders on. Notes when each chunk arrived.
 */
final class FileLauncher implements CliLauncher {
    static final int CHUNK = 64 * 1024;

    private final Path stream;
    private volatile long chunkArrivedNanos;
    private volatile long cpuNanos;
    private volatile long wallNanos;

    FileLauncher(Path stream) {
        this.stream = stream;
    }

    long chunkArrivedNanos() {
        return chunkArrivedNanos;
    }

    /** CPU time of the thread that did all the work. */
    long cpuNanos() {
        return cpuNanos;
    }

    long wallNanos() {
        return wallNanos;
    }

    @Override
    public RunningCli launch(CliCommand command, OutputStream stdout, OutputStream stderr) {
        CountDownLatch done = new CountDownLatch(1);
        Thread player = new Thread(() -> {
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long cpu0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            byte[] buffer = new byte[CHUNK];
            try (InputStream in = Files.newInputStream(stream); stdout; stderr) {
                int n;
                while ((n = in.readNBytes(buffer, 0, CHUNK)) > 0) {
                    chunkArrivedNanos = System.nanoTime();
                    stdout.write(buffer, 0, n);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } finally {
                wallNanos = System.nanoTime() - t0;
                cpuNanos = threads.getCurrentThreadCpuTime() - cpu0;
                done.countDown();
            }
        }, "benchmark-player");
        player.start();
        return new RunningCli() {
            @Override
            public Integer waitFor(Duration timeout) throws InterruptedException {
                return done.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? 0 : null;
            }

            @Override
            public void killTree() {
                // nothing runs outside this JVM
            }
        };
    }
}
