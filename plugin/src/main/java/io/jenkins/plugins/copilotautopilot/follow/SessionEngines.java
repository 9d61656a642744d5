package io.jenkins.plugins.copilotautopilot.follow;

import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.EngineTimings;
import io.jenkins.plugins.copilotautopilot.core.parts.SpendGuard;
import io.jenkins.plugins.copilotautopilot.core.render.PrintStreamLogSink;
import java.io.OutputStream;
import java.time.Duration;

/** The engine as the controller runs it: its pace of looks, the journal's limit, the build's console as its log. */
public final class SessionEngines {
    /** The prefix of its system properties, as documented before the class moved to this package. */
    private static final String PROPERTIES = "io.jenkins.plugins.copilotautopilot.session.SessionEngines";
    /** How the controller looks at running sessions ({@link EngineTimings#CONTROLLER}, the looks' pace adjustable). */
    public static final EngineTimings TIMINGS = new EngineTimings(
            Duration.ofMillis(Long.getLong(PROPERTIES + ".pollMinMillis",
                    EngineTimings.CONTROLLER.pollMin().toMillis())),
            Duration.ofMillis(Long.getLong(PROPERTIES + ".pollMaxMillis",
                    EngineTimings.CONTROLLER.pollMax().toMillis())),
            EngineTimings.CONTROLLER.exitAfterResult(), EngineTimings.CONTROLLER.exitAfterStop(), EngineTimings.CONTROLLER.chunkBytes());
    /** The most of a session's CLI output its journal keeps, in MiB of characters. */
    static final long JOURNAL_LIMIT_MB = Long.getLong(PROPERTIES + ".journalLimitMegabytes", 256);

    private SessionEngines() {
    }

    /**
     * An engine that prints into the build's console and journals into {@code journal}; its followers hand the
     * session's usage to {@code spendGuard} (the quotas across runs) as it grows, and name {@code tokenSource} (where
     * the GitHub token came from, or null) when the token is refused.
     */
    public static AutopilotEngine engine(TaskListener listener, OutputStream journal, boolean agentTextInConsole, SpendGuard spendGuard,
                                  String tokenSource) {
        return AutopilotEngine.builder(new PrintStreamLogSink(listener.getLogger()))
                .spendGuard(spendGuard)
                .tokenSource(tokenSource)
                .journalTo(journal)
                .agentTextInLog(agentTextInConsole)
                .journalLimit(JOURNAL_LIMIT_MB * 1024 * 1024)
                .timings(TIMINGS)
                .build();
    }
}
