package io.jenkins.plugins.copilotautopilot.agent;

import hudson.util.ClassLoaderSanityThreadFactory;
import hudson.util.DaemonThreadFactory;
import hudson.util.NamingThreadFactory;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The controller's bounded pool of threads that call agents for Copilot sessions: checks, reads, stops, answers,
 * clean-ups, each limited in time ({@link TimeLimits}), so that an agent that does not answer ties up its own sessions'
 * calls only. Its threads are made without the class loader of the thread that needs one (a Pipeline's), so that they
 * pin no build's classes.
 */
public final class AgentCalls {
    private static final int THREADS = Integer.getInteger(AgentCalls.class.getName() + ".threads", 16);
    private static ExecutorService pool;

    private AgentCalls() {
    }

    public static synchronized ExecutorService pool() {
        if (pool == null) {
            pool = bounded(THREADS, "Copilot Autopilot agent call");
        }
        return pool;
    }

    /** Stops the pool (the controller shuts down); a later call makes a new one. */
    public static synchronized void shutDown() {
        if (pool != null) {
            pool.shutdownNow();
            pool = null;
        }
    }

    /** A pool of at most {@code size} threads, named {@code name}, that end when idle. */
    public static ExecutorService bounded(int size, String name) {
        ThreadPoolExecutor bounded = new ThreadPoolExecutor(size, size, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads(name));
        bounded.allowCoreThreadTimeOut(true);
        return bounded;
    }

    /** Daemon threads named {@code name}, without the class loader of whoever needs one. */
    public static ThreadFactory threads(String name) {
        return new NamingThreadFactory(new ClassLoaderSanityThreadFactory(new DaemonThreadFactory()), name);
    }
}
