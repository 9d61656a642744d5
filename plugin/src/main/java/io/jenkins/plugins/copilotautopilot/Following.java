package io.jenkins.plugins.copilotautopilot;

import hudson.init.Terminator;
import hudson.util.DaemonThreadFactory;
import hudson.util.NamingThreadFactory;
import io.jenkins.plugins.copilotautopilot.core.engine.PollingScheduler;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The controller's threads for Copilot sessions: a few shared threads follow every running session (their
 * number does not grow with the sessions), and a pool starts and resumes them (which may install the CLI). On
 * shutdown each running Pipeline session notes how far it got, so that the restarted controller continues
 * its log exactly there.
 */
public final class Following {
    private static final int THREADS = Integer.getInteger(Following.class.getName() + ".threads", 4);
    private static PollingScheduler scheduler;
    private static ExecutorService starters;
    private static final Set<CopilotAutopilotStepExecution> RUNNING = ConcurrentHashMap.newKeySet();

    private Following() {
    }

    static synchronized PollingScheduler scheduler() {
        if (scheduler == null) {
            scheduler = new PollingScheduler(THREADS, AutopilotStepRunner.TIMINGS, "Copilot Autopilot follower");
        }
        return scheduler;
    }

    static synchronized ExecutorService starters() {
        if (starters == null) {
            starters = Executors.newCachedThreadPool(new NamingThreadFactory(new DaemonThreadFactory(), "Copilot Autopilot starter"));
        }
        return starters;
    }

    static void running(CopilotAutopilotStepExecution execution) {
        RUNNING.add(execution);
    }

    static void done(CopilotAutopilotStepExecution execution) {
        RUNNING.remove(execution);
    }

    @Terminator
    public static synchronized void shutDown() {
        if (scheduler != null) {
            scheduler.close();
            scheduler = null;
        }
        RUNNING.forEach(CopilotAutopilotStepExecution::saveCheckpoint);
        if (starters != null) {
            starters.shutdownNow();
            starters = null;
        }
    }
}
