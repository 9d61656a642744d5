package io.jenkins.plugins.copilotautopilot.benchmark;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.render.LogSink;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The whole event pipeline over a recorded stream: parse, track, render (to a file, flushed per line as a live
 * log is), mask (a token and an API key), journal (to a file). Measures throughput and, for each rendered line,
 * the time from the arrival of the chunk that carried its event to the line being flushed.
 */
final class PipelineRun {
    /**
     * @param events         event lines in the stream
     * @param wallNanos      time to process them all
     * @param cpuNanos       CPU time of the one thread that processed them
     * @param renderedLines  log lines written
     * @param renderedBytes  log bytes written
     * @param latencies      per rendered line, nanoseconds from chunk arrival to flush
     * @param latencyCount   how many latencies were recorded
     * @param result         the session's result
     */
    record Result(long events, long wallNanos, long cpuNanos, long renderedLines, long renderedBytes, long[] latencies,
                  int latencyCount, SessionResult result) {
        double eventsPerSecond() {
            return events * 1e9 / wallNanos;
        }

        double eventsPerCpuSecond() {
            return events * 1e9 / cpuNanos;
        }
    }

    private PipelineRun() {
    }

    static Result run(Path stream, Path workDir) throws IOException {
        long events;
        try (var lines = Files.lines(stream, StandardCharsets.UTF_8)) {
            events = lines.filter(l -> !l.isBlank()).count();
        }
        Path log = workDir.resolve("rendered.log");
        Path journal = workDir.resolve("journal.jsonl");
        FileLauncher launcher = new FileLauncher(stream);
        LatencySink sink = new LatencySink(new BufferedOutputStream(Files.newOutputStream(log), 8192), launcher);
        CliCommand command = Commands.build(TaskSpec.of("Benchmark the pipeline")
                        .githubToken("github_pat_benchmarkToken_0123456789abcdef")
                        .set(TIMEOUT, java.time.Duration.ZERO).set(INACTIVITY_TIMEOUT, java.time.Duration.ZERO),
                new CliExecutable("/benchmark/copilot", "1.0.102"), workDir.toString(), workDir.resolve("control").toString(),
                java.util.Map.of());
        SessionResult result;
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        try (OutputStream journalOut = Files.newOutputStream(journal)) {
            result = AutopilotEngine.builder(sink).journalTo(journalOut)
                    .extraSecrets(List.of("sk-benchmark-provider-key-42"))
                    .build().run(command, launcher);
        }
        long wall = System.nanoTime() - t0;
        long cpu = threads.getCurrentThreadCpuTime() - cpu0;
        sink.close();
        return new Result(events, wall, cpu, sink.lines, Files.size(log), sink.latencies, sink.count, result);
    }

    /** Writes rendered lines to a file, flushing each (a live log), and notes their latency. */
    static final class LatencySink implements LogSink {
        private final OutputStream out;
        private final FileLauncher launcher;
        long[] latencies = new long[1 << 16];
        int count;
        long lines;

        LatencySink(OutputStream out, FileLauncher launcher) {
            this.out = out;
            this.launcher = launcher;
        }

        @Override
        public synchronized void println(String line) {
            try {
                out.write(line.getBytes(StandardCharsets.UTF_8));
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            long arrived = launcher.chunkArrivedNanos();
            if (arrived != 0) {
                if (count == latencies.length) {
                    latencies = Arrays.copyOf(latencies, count * 2);
                }
                latencies[count++] = System.nanoTime() - arrived;
            }
            lines++;
        }

        void close() throws IOException {
            out.close();
        }
    }
}
