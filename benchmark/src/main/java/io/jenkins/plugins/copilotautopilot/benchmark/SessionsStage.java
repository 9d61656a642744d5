package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.PollingScheduler;
import io.jenkins.plugins.copilotautopilot.core.render.LogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the sessions of a {@link ConcurrentSessions} run play: the threads of each side (named by side, so that their
 * CPU time is measured apart), the sessions running now, what they count, and the call across the modelled channel.
 */
final class SessionsStage {
    static final String FOLLOWER_PREFIX = "follower-";
    static final String WRITER_PREFIX = "writer-";
    static final String STARTER_PREFIX = "starter-";
    static final String AGENT_PREFIX = "agent-";
    static final String REMOTING_PREFIX = "remoting-";
    private static final long JOURNAL_LIMIT = 256L * 1024 * 1024;

    final Path work;
    final List<ReplayCapture> captures;
    private final TaskSpec options;
    final SessionTallies tallies = new SessionTallies();
    /** The sessions the controller follows, by the key a batch names them with. */
    final Map<Integer, RunningSession> byKey = new ConcurrentHashMap<>();
    /** With {@link ConcurrentSessions#SESSIONS_PER_AGENT} over 1: each agent's running sessions, looked at together. */
    final List<BatchingAgent> agents = new ArrayList<>();
    final AtomicInteger serial = new AtomicInteger();
    volatile boolean stopping;
    PollingScheduler followers;
    ScheduledThreadPoolExecutor writer;
    ScheduledThreadPoolExecutor starter;
    ScheduledThreadPoolExecutor agent;
    ThreadPoolExecutor remoting;

    SessionsStage(Path work, TaskSpec options, List<ReplayCapture> captures) {
        this.work = work;
        this.options = options;
        this.captures = captures;
    }

    /** Starts every thread there will be, so that the baseline counts them. */
    void startThreads() {
        followers = new PollingScheduler(ConcurrentSessions.FOLLOWER_THREADS, ConcurrentSessions.PLUGIN_TIMINGS,
                FOLLOWER_PREFIX.substring(0, FOLLOWER_PREFIX.length() - 1));
        AtomicInteger writerThreads = new AtomicInteger();
        writer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, WRITER_PREFIX + writerThreads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        writer.setRemoveOnCancelPolicy(true);
        starter = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, STARTER_PREFIX + "1");
            t.setDaemon(true);
            return t;
        });
        starter.prestartAllCoreThreads();
        AtomicInteger agentThreads = new AtomicInteger();
        agent = new ScheduledThreadPoolExecutor(ConcurrentSessions.AGENT_THREADS, r -> {
            Thread t = new Thread(r, AGENT_PREFIX + agentThreads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        agent.setRemoveOnCancelPolicy(true);
        agent.prestartAllCoreThreads();
        AtomicInteger remotingThreads = new AtomicInteger();
        remoting = new ThreadPoolExecutor(ConcurrentSessions.REMOTING_THREADS, ConcurrentSessions.REMOTING_THREADS, 1, TimeUnit.MINUTES,
                new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, REMOTING_PREFIX + remotingThreads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        remoting.prestartAllCoreThreads();
        for (int i = 0; i < ConcurrentSessions.FOLLOWER_THREADS * 2; i++) {
            followers.submit(() -> PollingScheduler.Next.DONE);
        }
        writer.prestartAllCoreThreads();
    }

    /** Stops every thread: what runs then sees {@link #stopping} and does nothing more. */
    void stop() throws InterruptedException {
        stopping = true;
        writer.shutdownNow();
        starter.shutdownNow();
        agent.shutdownNow();
        remoting.shutdownNow();
        followers.close();
        writer.awaitTermination(10, TimeUnit.SECONDS);
    }

    CliCommand command(Path controlFolder) {
        return Commands.build(options, new CliExecutable("/benchmark/copilot", "1.0.102"), work.toString(),
                controlFolder.toString(), Map.of());
    }

    static AutopilotEngine engine(LogSink sink, Path journal) throws IOException {
        return AutopilotEngine.builder(sink).journalTo(Files.newOutputStream(journal)).journalLimit(JOURNAL_LIMIT)
                .timings(ConcurrentSessions.PLUGIN_TIMINGS).build();
    }

    /** A call across the channel: {@code onController} runs on one of its threads; returns once it has. */
    void call(Runnable onController) throws IOException {
        tallies.calls.incrementAndGet();
        Future<?> followed = remoting.submit(onController);
        try {
            followed.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        }
    }
}
