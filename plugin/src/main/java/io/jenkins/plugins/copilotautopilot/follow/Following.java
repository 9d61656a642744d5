package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.agent.AgentCalls;

import hudson.init.Terminator;
import io.jenkins.plugins.copilotautopilot.core.engine.PollingScheduler;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The controller's threads for Copilot sessions, none of which waits on an agent without a time limit:
 * <ul>
 * <li>a few shared threads look at every running session ({@link #scheduler()}; their number does not grow with the
 * sessions, and they never call an agent);</li>
 * <li>a bounded pool calls the agents: checks, reads, stops, clean-ups ({@link AgentCalls}; each call limited in
 * time, one at a time per session);</li>
 * <li>a bounded pool records ended sessions on their builds ({@link #recorders()}: compressing a journal, saving the
 * build);</li>
 * <li>a pool starts and resumes sessions ({@link #starters()}; starting may install the CLI).</li>
 * </ul>
 * Their threads are made without the class loader of the thread that happens to need one (a Pipeline's), so that
 * they pin no build's classes. On shutdown each running Pipeline session notes how far it got, so that the restarted
 * controller continues its log exactly there.
 */
public final class Following {
    private static final int THREADS = Integer.getInteger(Following.class.getName() + ".threads", 4);
    private static final int RECORDER_THREADS = Integer.getInteger(Following.class.getName() + ".recorderThreads", 2);
    private static PollingScheduler scheduler;
    private static ExecutorService recorders;
    private static ExecutorService starters;
    private static final Set<SessionDriver> RUNNING = ConcurrentHashMap.newKeySet();

    private Following() {
    }

    static synchronized PollingScheduler scheduler() {
        if (scheduler == null) {
            scheduler = new PollingScheduler(THREADS, SessionEngines.TIMINGS, AgentCalls.threads("Copilot Autopilot follower"));
        }
        return scheduler;
    }

    static synchronized ExecutorService recorders() {
        if (recorders == null) {
            recorders = AgentCalls.bounded(RECORDER_THREADS, "Copilot Autopilot recorder");
        }
        return recorders;
    }

    public static synchronized ExecutorService starters() {
        if (starters == null) {
            starters = Executors.newCachedThreadPool(AgentCalls.threads("Copilot Autopilot starter"));
        }
        return starters;
    }

    static void running(SessionDriver driver) {
        RUNNING.add(driver);
    }

    static void done(SessionDriver driver) {
        RUNNING.remove(driver);
    }

    /** The sessions being followed now (diagnostics, agents coming back online). */
    static Set<SessionDriver> running() {
        return Set.copyOf(RUNNING);
    }

    @Terminator
    public static synchronized void shutDown() {
        if (scheduler != null) {
            scheduler.close();
            scheduler = null;
        }
        RUNNING.forEach(SessionDriver::saveCheckpoint);
        for (ExecutorService pool : new ExecutorService[] {starters, recorders}) {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
        starters = null;
        recorders = null;
        AgentCalls.shutDown();
    }
}
