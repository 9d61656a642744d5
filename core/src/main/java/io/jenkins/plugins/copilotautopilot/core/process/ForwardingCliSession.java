package io.jenkins.plugins.copilotautopilot.core.process;

import java.io.IOException;

/** A session that hands every call to another one: subclasses change the calls they care about. */
public class ForwardingCliSession implements CliSession {
    private final CliSession session;

    public ForwardingCliSession(CliSession session) {
        this.session = session;
    }

    /**
     * {@code session}, with {@code step} run before its cleanup (while the control folder is still there): the cleanup
     * runs whatever the step does, then what the step threw is thrown.
     */
    public static CliSession beforeCleanup(CliSession session, CleanupStep step) {
        return new ForwardingCliSession(session) {
            @Override
            public void cleanup() throws IOException, InterruptedException {
                try {
                    step.run();
                } finally {
                    super.cleanup();
                }
            }
        };
    }

    /** What is done with a session's control folder before it is deleted. */
    @FunctionalInterface
    public interface CleanupStep {
        void run() throws IOException;
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException, InterruptedException {
        return session.poll(outputOffset, stderrOffset, maxBytes);
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes)
            throws IOException, InterruptedException {
        return session.poll(outputOffset, stderrOffset, usageOffset, maxBytes);
    }

    @Override
    public void pause(long millis) throws InterruptedException {
        session.pause(millis);
    }

    @Override
    public void stop() throws IOException, InterruptedException {
        session.stop();
    }

    @Override
    public void answer(int step, String answer, String prompt) throws IOException, InterruptedException {
        session.answer(step, answer, prompt);
    }

    @Override
    public void decide(String id, String hookOutput) throws IOException, InterruptedException {
        session.decide(id, hookOutput);
    }

    @Override
    public void cleanup() throws IOException, InterruptedException {
        session.cleanup();
    }
}
