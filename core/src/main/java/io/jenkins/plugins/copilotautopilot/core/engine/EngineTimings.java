package io.jenkins.plugins.copilotautopilot.core.engine;

import java.time.Duration;

/**
 * How often and how long the engine looks and waits. The defaults suit real sessions; tests make them short
 * so that a broken limit fails fast instead of hanging.
 *
 * @param pollMin         delay before the next look after one that found output
 * @param pollMax         longest delay between looks when nothing happens (the delay doubles up to it)
 * @param exitAfterResult how long the CLI may linger after its final result line before it is stopped
 * @param exitAfterStop   how long to wait for the CLI's exit code after it was stopped
 * @param chunkBytes      the most read of each output stream per look
 */
public record EngineTimings(Duration pollMin, Duration pollMax, Duration exitAfterResult, Duration exitAfterStop,
                            int chunkBytes) {
    public static final EngineTimings DEFAULT = new EngineTimings(Duration.ofMillis(20), Duration.ofMillis(200),
            Duration.ofSeconds(10), Duration.ofSeconds(10), 1024 * 1024);
    /**
     * How the Jenkins controller looks at running sessions (the plugin, and the benchmark that measures it): soon
     * after output, at most every half second when quiet, since each look is a call to the agent.
     */
    public static final EngineTimings CONTROLLER = new EngineTimings(Duration.ofMillis(100), Duration.ofMillis(500),
            Duration.ofSeconds(10), Duration.ofSeconds(15), 1024 * 1024);

    public EngineTimings {
        if (pollMin.isNegative() || pollMin.isZero() || pollMax.compareTo(pollMin) < 0 || chunkBytes < 1024) {
            throw new IllegalArgumentException("invalid engine timings");
        }
    }

    /** The delay after a look: short after output, then doubling up to {@link #pollMax}. */
    public long nextDelayMillis(long previousMillis, boolean gotData) {
        if (gotData || previousMillis <= 0) {
            return pollMin.toMillis();
        }
        return Math.min(previousMillis * 2, pollMax.toMillis());
    }
}
