package io.jenkins.plugins.copilotautopilot.benchmark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/** What this JVM uses: CPU time by thread name, live heap, open file descriptors. */
final class JvmGauges {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private JvmGauges() {
    }

    /** The CPU time of each thread whose name starts with {@code prefix}, by thread id. */
    static Map<Long, Long> cpuByThread(String prefix) {
        Map<Long, Long> cpu = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix)) {
                cpu.put(t.getId(), THREADS.getThreadCpuTime(t.getId()));
            }
        }
        return cpu;
    }

    /** The CPU time, in nanoseconds, that the threads named {@code prefix…} took since {@code before} ({@link #cpuByThread}). */
    static long cpuSince(String prefix, Map<Long, Long> before) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : cpuByThread(prefix).entrySet()) {
            sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return sum;
    }

    static long liveHeap() throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static int openFds() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count() - 1; // not the one listing them
        }
    }
}
