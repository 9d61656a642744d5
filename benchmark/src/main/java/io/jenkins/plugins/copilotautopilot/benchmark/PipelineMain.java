package io.jenkins.plugins.copilotautopilot.benchmark;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;

/** Runs the pipeline over a stream in this JVM and prints one line: events, seconds, peak heap. For the memory run. */
public final class PipelineMain {
    private PipelineMain() {
    }

    public static void main(String[] args) throws Exception {
        PipelineRun.Result r;
        try (OwnedFolder work = OwnedFolder.create(Path.of(System.getProperty("java.io.tmpdir")), "copilot-bench-mem-")) {
            r = PipelineRun.run(Path.of(args[0]), work.path());
        }
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        long live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.println("events=" + r.events() + " seconds=" + (r.wallNanos() / 1e9) + " peakHeapBytes=" + peak
                + " liveHeapBytes=" + live + " maxHeapBytes=" + Runtime.getRuntime().maxMemory() + " outcome=" + r.result().outcome());
    }
}
