package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.agent.AgentCalls;

import hudson.init.Terminator;
import io.jenkins.plugins.copilotautopilot.core.engine.PollingScheduler;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

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
 * they pin no build's classes. As the controller begins to shut down, each running Pipeline session notes how far it
 * got and follows nothing more, so that the restarted controller continues its log exactly there; the sessions that
 * ended are recorded first.
 */
public final class Following {
    private static final int THREADS = Integer.getInteger(Following.class.getName() + ".threads", 4);
    /** Each records first (compressing a journal: brief), then mostly waits on its agent's calls, bounded in time. */
    private static final int RECORDER_THREADS = Integer.getInteger(Following.class.getName() + ".recorderThreads", 4);
    /** How long shutting down waits for the sessions being recorded (a clean-up's calls are bounded by less). */
    private static final long RECORDING_AT_SHUTDOWN_SECONDS = 30;
    private static final Logger LOGGER = Logger.getLogger(Following.class.getName());
    private static PollingScheduler scheduler;
    private static ExecutorService recorders;
    private static ExecutorService starters;
    private static final Set<SessionDriver> RUNNING = ConcurrentHashMap.newKeySet();
    /**
     * Set as the controller shuts down, before the threads are stopped: Jenkins runs its terminators before it says it
     * is terminating, so a thread stopped by them tells why only from this.
     */
    private static volatile boolean stopping;

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

    /** The controller begins to shut down, before any of its terminators: see {@link SessionDriver#freeze}. */
    @hudson.Extension
    public static final class BeforeShutdown extends hudson.model.listeners.ItemListener {
        @Override
        public void onBeforeShutdown() {
            RUNNING.forEach(SessionDriver::freeze);
        }
    }

    /** The sessions being followed now (diagnostics, agents coming back online). */
    static Set<SessionDriver> running() {
        return Set.copyOf(RUNNING);
    }

    /** Whether the controller is shutting down: a thread of these pools interrupted now was stopped by it. */
    public static boolean stopping() {
        return stopping;
    }

    /** A controller started again in the same JVM (Jenkins' own tests) is no longer shutting down. */
    @hudson.init.Initializer(after = hudson.init.InitMilestone.PLUGINS_STARTED)
    public static void started() {
        stopping = false;
    }

    @Terminator
    public static void shutDown() {
        stopping = true;
        ExecutorService recording;
        synchronized (Following.class) {
            if (scheduler != null) {
                scheduler.close();
                scheduler = null;
            }
            RUNNING.forEach(SessionDriver::saveCheckpoint);
            if (starters != null) {
                starters.shutdownNow();
            }
            starters = null;
            recording = recorders;
            recorders = null;
        }
        if (recording != null) {
            finishRecording(recording);
        }
        AgentCalls.shutDown(); // after the records: theirs end the clean-ups' calls
    }

    /**
     * Lets the sessions being recorded (and those waiting for a recorder) be written before the controller stops, for a
     * bounded time: a session that ended just before a restart keeps its record, and nothing writes into a build's
     * folder once Jenkins has stopped. Outside the class's lock, so that a record may ask for a pool meanwhile.
     */
    static void finishRecording(ExecutorService recording) {
        recording.shutdown();
        try {
            if (!recording.awaitTermination(RECORDING_AT_SHUTDOWN_SECONDS, TimeUnit.SECONDS)) {
                LOGGER.warning(() -> "Copilot sessions still being recorded after " + RECORDING_AT_SHUTDOWN_SECONDS
                        + " s of shutting down; stopped");
                recording.shutdownNow();
            }
        } catch (InterruptedException e) {
            recording.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
