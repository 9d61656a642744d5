package io.jenkins.plugins.copilotautopilot.benchmark;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** What one run of {@link ConcurrentSessions} measured, as the one line its JVM prints and the report reads back. */
record SessionsResult(int sessions, double windowSeconds, long baselineHeap, long heap, int baselineThreads, int threads,
                     int baselineFds, int fds, double followerCpuSeconds, double writerCpuSeconds, long lines, long finished,
                     long mismatches, String mismatch, long delayCount, long p50, long p99, long max, double linesPerSessionSecond, long looks, double starterCpuSeconds, long startedInWindow,
                     double checkpointCpuSeconds, double remotingCpuSeconds, double agentCpuSeconds, long handovers, long calls) {
    double heapPerSession() {
        return sessions == 0 ? 0 : (heap - baselineHeap) / (double) sessions;
    }

    /** The controller's CPU time: its follower threads, and its channel's threads following what was handed over. */
    double controllerCpuSeconds() {
        return followerCpuSeconds + remotingCpuSeconds;
    }

    /** The controller's CPU seconds per minute of one session. */
    double cpuPerSessionMinute() {
        return controllerCpuSeconds() / (sessions * windowSeconds / 60.0);
    }

    /** The share of one core the controller took. */
    double coreShare() {
        return controllerCpuSeconds() / windowSeconds;
    }

    /** The share of one core the agents' looks took (in Jenkins spread over the agents). */
    double agentCoreShare() {
        return agentCpuSeconds / windowSeconds;
    }

    double cpuMicrosPerLine() {
        return lines == 0 ? Double.NaN : controllerCpuSeconds() * 1e6 / lines;
    }

    String toLine() {
        return String.format(Locale.ROOT, "sessions=%d windowSeconds=%.1f baselineHeap=%d heap=%d baselineThreads=%d threads=%d"
                        + " baselineFds=%d fds=%d followerCpuSeconds=%.4f writerCpuSeconds=%.4f lines=%d finished=%d"
                        + " mismatches=%d delayCount=%d p50=%d p99=%d max=%d linesPerSessionSecond=%.2f looks=%d starterCpuSeconds=%.4f started=%d checkpointCpuSeconds=%.4f remotingCpuSeconds=%.4f agentCpuSeconds=%.4f handovers=%d calls=%d mismatch=%s",
                sessions, windowSeconds, baselineHeap, heap, baselineThreads, threads, baselineFds, fds, followerCpuSeconds,
                writerCpuSeconds, lines, finished, mismatches, delayCount, p50, p99, max, linesPerSessionSecond, looks,
                starterCpuSeconds, startedInWindow, checkpointCpuSeconds, remotingCpuSeconds, agentCpuSeconds, handovers, calls, mismatch == null ? "-" : mismatch.replace(' ', '_'));
    }

    static SessionsResult parse(String line) {
        Map<String, String> f = new HashMap<>();
        for (String part : line.strip().split(" ")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                f.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        if (!f.containsKey("sessions")) {
            throw new IllegalStateException("no result in: " + line);
        }
        return new SessionsResult(Integer.parseInt(f.get("sessions")), Double.parseDouble(f.get("windowSeconds")),
                Long.parseLong(f.get("baselineHeap")), Long.parseLong(f.get("heap")), Integer.parseInt(f.get("baselineThreads")),
                Integer.parseInt(f.get("threads")), Integer.parseInt(f.get("baselineFds")), Integer.parseInt(f.get("fds")),
                Double.parseDouble(f.get("followerCpuSeconds")), Double.parseDouble(f.get("writerCpuSeconds")),
                Long.parseLong(f.get("lines")), Long.parseLong(f.get("finished")), Long.parseLong(f.get("mismatches")),
                "-".equals(f.get("mismatch")) ? null : f.get("mismatch"), Long.parseLong(f.get("delayCount")),
                Long.parseLong(f.get("p50")), Long.parseLong(f.get("p99")), Long.parseLong(f.get("max")),
                Double.parseDouble(f.get("linesPerSessionSecond")), Long.parseLong(f.get("looks")),
                Double.parseDouble(f.get("starterCpuSeconds")), Long.parseLong(f.get("started")),
                Double.parseDouble(f.get("checkpointCpuSeconds")), Double.parseDouble(f.get("remotingCpuSeconds")),
                Double.parseDouble(f.get("agentCpuSeconds")), Long.parseLong(f.get("handovers")),
                Long.parseLong(f.getOrDefault("calls", f.get("handovers")))); // a baseline from before calls were counted: one per hand-over
    }
}
