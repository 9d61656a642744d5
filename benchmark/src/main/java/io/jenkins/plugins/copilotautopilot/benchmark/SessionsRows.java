package io.jenkins.plugins.copilotautopilot.benchmark;

import static io.jenkins.plugins.copilotautopilot.benchmark.Report.fmt;
import static io.jenkins.plugins.copilotautopilot.benchmark.Report.mb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The report's rows of many sessions followed at once, as the plugin follows them ({@link ConcurrentSessions}). */
final class SessionsRows {
    private final Report report;

    SessionsRows(Report report) {
        this.report = report;
    }

    /**
     * The rows of many sessions at once: each N of {@code counts} in a child JVM ({@link ConcurrentSessions}), then the
     * largest N followed as the plugin did before, and the baseline checkout's when {@code --baseline-sessions} names one.
     */
    void add(List<Integer> counts, double seconds, double speedup, Path work) throws Exception {
        List<SessionsResult> results = new ArrayList<>();
        for (int n : counts) {
            results.add(SessionsResult.parse(ChildJvm.lastLine(work, List.of(BenchmarkMain.SESSIONS_HEAP), ConcurrentSessions.class.getName(),
                    String.valueOf(n), String.valueOf(seconds), String.valueOf(speedup))));
        }
        String ns = join(results, r -> fmt(r.sessions()), " / ");
        long mismatches = results.stream().mapToLong(SessionsResult::mismatches).sum();
        String mismatch = results.stream().map(SessionsResult::mismatch).filter(java.util.Objects::nonNull).findFirst().orElse(null);
        report.row("Concurrent sessions, N = " + ns + " in a JVM with `" + BenchmarkMain.SESSIONS_HEAP + "` each: every session replays a real capture at "
                        + (speedup == 1 ? "its recorded pace" : speedup + "× its recorded pace") + " into its control folder; the agent's side"
                        + " (the plugin's watch handler, " + ConcurrentSessions.AGENT_THREADS + " threads) reads it every "
                        + ConcurrentSessions.HANDOVER_MILLIS + " ms and hands what is new over as frames of one stream (pieces of streamed text"
                        + " held up to " + ConcurrentSessions.HOLD_MILLIS + " ms, the end in one serialized call) to the controller's side (its own"
                        + " engine, masker, log sink and journal on disk, followed on " + ConcurrentSessions.REMOTING_THREADS
                        + " channel threads and looked at by one shared scheduler with the plugin's " + ConcurrentSessions.FOLLOWER_THREADS
                        + " threads and timings; window " + String.format(Locale.ROOT, "%.0f", seconds) + " s)",
                (mismatches == 0 ? "all ran" : "FAILED: " + mismatches + " sessions ended unlike their capture (" + mismatch + ")")
                        + "; CLI lines/s " + join(results, r -> fmt(Math.round(r.lines() / r.windowSeconds())), " / ")
                        + "; hand-overs/s " + join(results, r -> fmt(Math.round(r.handovers() / r.windowSeconds())), " / ")
                        + "; follower looks/s " + join(results, r -> fmt(Math.round(r.looks() / r.windowSeconds())), " / ")
                        + "; sessions ended and replaced " + join(results, r -> fmt(r.finished()), " / "),
                "1,000 sessions run in `" + BenchmarkMain.SESSIONS_HEAP + "`");
        report.row("Live heap per running session (after full GCs while all N run, minus N = 0, divided by N), N = " + ns,
                join(results, r -> String.format(Locale.ROOT, "%.1f KB", r.heapPerSession() / 1024), " / ")
                        + " (" + mb(results.get(results.size() - 1).heap() - results.get(results.size() - 1).baselineHeap()) + " for "
                        + fmt(results.get(results.size() - 1).sessions()) + ")",
                "— (old plugin: 600–750 KB)");
        report.row("Controller CPU per session-minute (CPU time of the follower and channel threads), N = " + ns,
                join(results, r -> String.format(Locale.ROOT, "%.1f ms", r.cpuPerSessionMinute() * 1000), " / "), "—");
        SessionsResult last = results.get(results.size() - 1);
        report.row("Controller CPU, " + fmt(last.sessions()) + " sessions",
                String.format(Locale.ROOT, "%.1f %% of one core (%.1f %% following hand-overs, %.1f %% the scheduler's looks): %.1f µs per"
                                + " CLI line; of it %.1f %% writing the step's checkpoint files",
                        last.coreShare() * 100, last.remotingCpuSeconds() / last.windowSeconds() * 100,
                        last.followerCpuSeconds() / last.windowSeconds() * 100, last.cpuMicrosPerLine(),
                        last.checkpointCpuSeconds() / last.windowSeconds() * 100),
                "≤ 10 % of one core (old plugin: ~60 µs per event)");
        // the same sessions followed as the plugin did before issue 32, in this run: a checkpoint after every hand-over, and
        // each chunk serialized field by field
        SessionsResult before = SessionsResult.parse(ChildJvm.lastLine(work, List.of(BenchmarkMain.SESSIONS_HEAP,
                        "-Dbench.handoverCheckpointMillis=0", FIELD_BY_FIELD), ConcurrentSessions.class.getName(),
                String.valueOf(last.sessions()), String.valueOf(seconds), String.valueOf(speedup)));
        report.row("The same, " + fmt(before.sessions()) + " sessions, followed as the plugin did before issue 32 (a checkpoint after every"
                        + " hand-over, each chunk serialized with the descriptor of its sixteen fields)",
                String.format(Locale.ROOT, "%.1f %% of one core (%.1f %% following hand-overs): %.1f µs per CLI line; of it %.1f %%"
                                + " writing the step's checkpoint files; delay p99 %.0f ms",
                        before.coreShare() * 100, before.remotingCpuSeconds() / before.windowSeconds() * 100, before.cpuMicrosPerLine(),
                        before.checkpointCpuSeconds() / before.windowSeconds() * 100, before.p99() / 1e6),
                "—");
        String baseline = System.getProperty("baseline.sessions", "");
        if (!baseline.isEmpty()) {
            baselineSessions(Path.of(baseline), last.sessions(), seconds, speedup, work);
        }
        report.row("Agents' CPU, " + fmt(last.sessions()) + " sessions (the watch handlers' looks and hand-overs, in Jenkins spread over the agents)",
                String.format(Locale.ROOT, "%.1f %% of one core: %.1f µs per look", last.agentCoreShare() * 100,
                        last.agentCpuSeconds() * 1e6 / (last.sessions() * last.windowSeconds() * 1000.0 / ConcurrentSessions.HANDOVER_MILLIS)),
                "—");
        report.row("Threads / open file descriptors, N = 0 / " + ns,
                "threads " + last.baselineThreads() + " / " + join(results, r -> String.valueOf(r.threads()), " / ")
                        + "; descriptors " + last.baselineFds() + " / " + join(results, r -> fmt(r.fds()), " / "),
                "threads do not grow with N");
        report.row("Delay, line written to the output file → its rendered line in the log sink, N = " + ns,
                join(results, r -> String.format(Locale.ROOT, "p50 %.0f ms, p99 %.0f ms", r.p50() / 1e6, r.p99() / 1e6), " / "),
                "p99 ≤ 500 ms");
    }

    /** Each chunk serialized with the descriptor of its fields, as the plugin did before its own wire form ({@link HandedOver#EXTERNALIZABLE}). */
    private static final String FIELD_BY_FIELD = "-Dbench.chunkExternalizable=false";

    /** Rounds of the largest N with this checkout's code and another's, alternated, for {@code --baseline-sessions}. */
    static final int BASELINE_ROUNDS = 3;

    /**
     * The largest N again, {@value #BASELINE_ROUNDS} times with this checkout's code and as often with the code of
     * {@code checkout} (another commit's worktree, built), alternated so that both see the same machine: one row of
     * their medians.
     */
    private void baselineSessions(Path checkout, int sessions, double seconds, double speedup, Path work) throws Exception {
        Path classes = checkout.resolve("benchmark/target/classes");
        Path classpath = checkout.resolve("benchmark/target/classpath.txt");
        if (!Files.isDirectory(classes) || !Files.isRegularFile(classpath)) {
            throw new IllegalArgumentException("--baseline-sessions: no built benchmark in " + checkout
                    + " (build it there with: mvn -DskipPlugin -DskipTests package)");
        }
        String baselineClasspath = classes + java.io.File.pathSeparator + Files.readString(classpath).strip();
        List<SessionsResult> now = new ArrayList<>();
        List<SessionsResult> then = new ArrayList<>();
        String[] args = {String.valueOf(sessions), String.valueOf(seconds), String.valueOf(speedup)};
        String thisClasspath = System.getProperty("java.class.path");
        for (int round = 0; round < BASELINE_ROUNDS; round++) {
            now.add(SessionsResult.parse(ChildJvm.lastLineOn(thisClasspath, work, List.of(BenchmarkMain.SESSIONS_HEAP), ConcurrentSessions.class.getName(), args)));
            then.add(SessionsResult.parse(ChildJvm.lastLineOn(baselineClasspath, work, List.of(BenchmarkMain.SESSIONS_HEAP),
                    ConcurrentSessions.class.getName(), args)));
        }
        report.row("Controller CPU, " + fmt(sessions) + " sessions, this checkout / the baseline " + checkout + " ("
                        + BASELINE_ROUNDS + " alternated runs each, medians)",
                controllerMedians(now) + " / " + controllerMedians(then), "≤ 10 % of one core");
    }

    private static String controllerMedians(List<SessionsResult> results) {
        return String.format(Locale.ROOT, "%.1f %% of one core, %.1f µs per CLI line at %s lines/s",
                median(results, r -> r.coreShare() * 100), median(results, SessionsResult::cpuMicrosPerLine),
                fmt(Math.round(median(results, r -> r.lines() / r.windowSeconds()))));
    }

    private static double median(List<SessionsResult> results, java.util.function.ToDoubleFunction<SessionsResult> f) {
        return Stats.median(results.stream().mapToDouble(f).toArray());
    }

    private static String join(List<SessionsResult> results, java.util.function.Function<SessionsResult, String> f,
                               String separator) {
        return results.stream().map(f).collect(java.util.stream.Collectors.joining(separator));
    }
}
