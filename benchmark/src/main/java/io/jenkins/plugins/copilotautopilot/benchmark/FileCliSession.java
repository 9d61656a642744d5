package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionFiles;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * A session's control folder without a process: like {@link LocalCliSession}, read with the same code the
 * plugin runs on the agent for each look ({@link SessionFiles#look}: the exit code first, the usage records in the
 * CLI's session state, both output files from where the follower stopped), and ended once someone has written the
 * exit code file. The benchmark's writer plays the CLI.
 */
final class FileCliSession implements CliSession {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static final int SAMPLE_EVERY = 8;

    private final Path folder;
    private final LongConsumer readCpu;
    private long looks;

    /** @param readCpu told the CPU time of the looks, in nanoseconds (sampled: see {@link #SAMPLE_EVERY}) */
    FileCliSession(Path folder, LongConsumer readCpu) {
        this.folder = folder;
        this.readCpu = readCpu;
    }

    FileCliSession(Path folder) {
        this(folder, nanos -> { });
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException {
        return poll(outputOffset, stderrOffset, 0, maxBytes);
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes) throws IOException {
        // what the plugin's PollCallable runs on the agent for every look; its CPU time is taken on one look in
        // SAMPLE_EVERY and counted that many times: the thread CPU clock's own cost (two reads a look, about 5 % of the
        // follower's CPU when taken on every look) stays out of what is measured
        if (looks++ % SAMPLE_EVERY != 0) {
            return SessionFiles.look(folder, outputOffset, stderrOffset, usageOffset, maxBytes).toPoll();
        }
        long start = THREADS.getCurrentThreadCpuTime();
        SessionFiles.Look look = SessionFiles.look(folder, outputOffset, stderrOffset, usageOffset, maxBytes);
        readCpu.accept((THREADS.getCurrentThreadCpuTime() - start) * SAMPLE_EVERY);
        return look.toPoll();
    }

    @Override
    public void stop() {
        // no process: the writer ends the session by writing its exit code
    }

    @Override
    public void cleanup() {
        // the benchmark removes the folder when the session has ended
    }
}
