package io.jenkins.plugins.copilotautopilot.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ProcessTreeKillerTest {

    private static Process start(String runId, String script) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", script);
        builder.environment().put(CliCommand.RUN_MARKER_VARIABLE, runId);
        builder.redirectErrorStream(true);
        return builder.start();
    }

    private static void awaitProcesses(String runId, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (ProcessTable.survivorsOf(runId).size() < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(ProcessTable.survivorsOf(runId)).hasSizeGreaterThanOrEqualTo(count);
    }

    @Test
    void killsTheTreeAndProcessesThatLeftIt() throws Exception {
        String runId = UUID.randomUUID().toString();
        // a background job that is re-parented once its subshell exits, and a plain child
        Process root = start(runId, "(sleep 301 &) ; sleep 302");
        awaitProcesses(runId, 3);

        ProcessTreeKiller.kill(root.toHandle(), runId, Duration.ofSeconds(2));

        assertThat(ProcessTable.survivorsOf(runId)).isEmpty();
        assertThat(root.isAlive()).isFalse();
    }

    @Test
    void processesIgnoringSigtermAreKilledAfterTheGracePeriod() throws Exception {
        String runId = UUID.randomUUID().toString();
        Process root = start(runId, "trap '' TERM; sleep 303 & wait");
        awaitProcesses(runId, 2);

        long start = System.nanoTime();
        ProcessTreeKiller.kill(root.toHandle(), runId, Duration.ofMillis(500));

        assertThat(ProcessTable.survivorsOf(runId)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
    }

    @Test
    void sigtermComesFirstAndSigkillOnlyAfterTheGracePeriod(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        String runId = UUID.randomUUID().toString();
        java.nio.file.Path gotTerm = dir.resolve("got-term");
        java.nio.file.Path trapped = dir.resolve("trapped");
        // cleans up on SIGTERM and exits: a process killed with SIGKILL first never writes the file
        Process root = start(runId, "trap 'echo cleaned > " + gotTerm + "; exit 0' TERM; : > " + trapped
                + "; while :; do sleep 0.2; done");
        // a signal sent before the shell reached its trap would end it with no cleanup at all
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!java.nio.file.Files.exists(trapped) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(trapped).exists();
        awaitProcesses(runId, 1);

        long start = System.nanoTime();
        ProcessTreeKiller.kill(root.toHandle(), runId, Duration.ofSeconds(5));

        assertThat(gotTerm).hasContent("cleaned");
        assertThat(ProcessTable.survivorsOf(runId)).isEmpty();
        // processes that stop on SIGTERM are not made to wait for the grace period
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void anInterruptedCallerStillKillsEverythingAndKeepsItsInterrupt() throws Exception {
        String runId = UUID.randomUUID().toString();
        Process root = start(runId, "sleep 304");
        awaitProcesses(runId, 1);

        Thread.currentThread().interrupt();
        ProcessTreeKiller.kill(root.toHandle(), runId, Duration.ofSeconds(2));

        assertThat(Thread.interrupted()).isTrue();
        assertThat(ProcessTable.survivorsOf(runId)).isEmpty();
    }

    @Test
    void findsOnlyTheMarkedRun() throws Exception {
        String mine = UUID.randomUUID().toString();
        String other = UUID.randomUUID().toString();
        Process a = start(mine, "sleep 305");
        Process b = start(other, "sleep 306");
        try {
            awaitProcesses(mine, 1);
            awaitProcesses(other, 1);
            java.util.Set<Long> ofA = new java.util.HashSet<>();
            ofA.add(a.pid());
            a.toHandle().descendants().forEach(p -> ofA.add(p.pid()));
            assertThat(ProcessTreeKiller.marked(mine)).extracting(ProcessHandle::pid).contains(a.pid()).allMatch(ofA::contains);
        } finally {
            ProcessTreeKiller.kill(a.toHandle(), mine, Duration.ofSeconds(1));
            ProcessTreeKiller.kill(b.toHandle(), other, Duration.ofSeconds(1));
        }
        assertThat(ProcessTable.survivorsOf(other)).isEmpty();
    }
}
