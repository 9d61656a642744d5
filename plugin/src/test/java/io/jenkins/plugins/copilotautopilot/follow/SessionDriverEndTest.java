package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.trace.BuildTraces;

import hudson.Launcher;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.util.StreamTaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.engine.Checkpoint;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import io.jenkins.plugins.copilotautopilot.session.ResumeState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A session is ended once, by whoever comes first, and only that caller makes its ending: a follower prints its closing
 * lines as it makes its result, so a second ending made (a stop and a resumption after a restart, each with a
 * follower of its own) would close the session twice in the log (the soak: {@code ABORTED: …} then {@code FAILED:
 * Lost …}).
 */
class SessionDriverEndTest {

    @Test
    void onlyTheCallerThatEndsTheSessionMakesItsEnding() throws Exception {
        FakeBuild build = new FakeBuild();
        SessionDriver driver = new SessionDriver("end-once", build);
        AtomicInteger made = new AtomicInteger();
        List<Exception> failed = new CopyOnWriteArrayList<>();
        driver.endWith(() -> ending(made, Outcome.ABORTED), failed::add);
        driver.endWith(() -> ending(made, Outcome.FAILED), failed::add);
        driver.end(new SessionResult(new Ending(Outcome.FAILED, "a third", null, null, null, null, 0, null, null)));
        assertTrue(build.ended.await(30, TimeUnit.SECONDS), "the build hears of the end");
        assertEquals(1, made.get(), "one ending made");
        assertEquals(List.of(Outcome.ABORTED), build.outcomes);
        assertEquals(List.of(), failed);
    }

    @Test
    void anEndingThatCannotBeMadeEndsTheStepWithoutARecord() {
        FakeBuild build = new FakeBuild();
        SessionDriver driver = new SessionDriver("cannot-end", build);
        List<Exception> failed = new CopyOnWriteArrayList<>();
        driver.endWith(() -> {
            throw new IOException("the journal cannot be read");
        }, failed::add);
        assertEquals(1, failed.size());
        assertEquals("the journal cannot be read", failed.get(0).getMessage());
        assertTrue(driver.isCompleted());
        driver.endWith(() -> ending(new AtomicInteger(), Outcome.FAILED), failed::add);
        assertEquals(1, failed.size(), "the step is not ended twice");
        assertEquals(List.of(), build.outcomes);
    }

    private static SessionResult ending(AtomicInteger made, Outcome outcome) {
        made.incrementAndGet();
        return new SessionResult(new Ending(outcome, "ended", null, null, null, null, 0, null, null));
    }

    /** A build that is only told of the end (no run to record on: the record fails, and says so in its log). */
    private static final class FakeBuild implements SessionDriver.Build {
        final CountDownLatch ended = new CountDownLatch(1);
        final List<Outcome> outcomes = new CopyOnWriteArrayList<>();
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        private final TaskListener listener = new StreamTaskListener(log, StandardCharsets.UTF_8);

        @Override
        public Run<?, ?> run() throws IOException {
            throw new IOException("no build here");
        }

        @Override
        public Launcher launcher() throws IOException {
            throw new IOException("no launcher here");
        }

        @Override
        public TaskListener listener() {
            return listener;
        }

        @Override
        public void checkpoint(Checkpoint checkpoint) {
        }

        @Override
        public boolean resumesAfterRestart() {
            return true;
        }

        @Override
        public ResumeState state() {
            return null;
        }

        @Override
        public void ended(SessionResult result, boolean changesFileWritten) {
            outcomes.add(result.outcome());
            ended.countDown();
        }

        @Override
        public BuildTraces.Step traceStep() throws IOException {
            throw new IOException("no step here");
        }
    }
}
