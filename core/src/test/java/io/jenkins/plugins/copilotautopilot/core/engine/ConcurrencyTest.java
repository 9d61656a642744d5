package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptCli;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.io.File;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Many sessions: at once on one machine, and one after another in one JVM without leaks. */
class ConcurrencyTest {

    @Test
    @Timeout(300)
    void eightRealSessionsAtOnceEachWithItsOwnHome() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<E2eRun>> runs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String file = "out-" + i + ".txt";
                runs.add(pool.submit(() -> E2eRun.with(Scripts.bashThenComplete("echo session-" + file + " $COPILOT_HOME > " + file, "Wrote " + file))
                        .options(o -> o.set(ALLOW_ALL_TOOLS, true))
                        .run()));
            }
            for (int i = 0; i < 8; i++) {
                E2eRun run = runs.get(i).get();
                assertThat(run.result.outcome()).as("session %d", i).isEqualTo(Outcome.COMPLETED);
                assertThat(run.result.summary()).isEqualTo("Wrote out-" + i + ".txt");
                String[] written = Files.readString(run.workDir.resolve("out-" + i + ".txt")).trim().split(" ", 2);
                assertThat(written[0]).isEqualTo("session-out-" + i + ".txt");
                // the CLI's own state is private to the session: what its tools see of COPILOT_HOME
                assertThat(written[1]).isEqualTo(java.nio.file.Path.of(run.command.launchFolder()).toAbsolutePath().normalize()
                        .resolve(io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder.COPILOT_HOME).toString());
                assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Timeout(300)
    void twoHundredSessionsInOneJvmLeakNothing(@TempDir Path dir) throws Exception {
        Path capture = ScriptCli.capture(dir, "cli-happy");
        Path cli = ScriptCli.write(dir, "cat '" + capture + "'");
        for (int i = 0; i < 10; i++) { // warm up
            ScriptCli.run(cli, dir);
        }
        waitUntil(() -> engineThreads() == 0);
        long fds = openFileDescriptors();

        List<WeakReference<AutopilotEngine>> engines = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ScriptCli.Run run = ScriptCli.run(cli, dir, o -> { }, e -> engines.add(new WeakReference<>(e)));
            assertThat(run.result().outcome()).as("session %d", i).isEqualTo(Outcome.COMPLETED);
        }

        // every session's threads, files and objects go with it (waited for, not slept on)
        assertThat(waitUntil(() -> engineThreads() == 0)).as("no stream pump left").isTrue();
        assertThat(waitUntil(() -> openFileDescriptors() <= fds + 4)).as("open files: %d, before: %d", openFileDescriptors(), fds).isTrue();
        assertThat(waitUntil(() -> {
            System.gc();
            return engines.stream().allMatch(r -> r.get() == null);
        })).as("no engine stays reachable after its session").isTrue();
    }

    /** Looks until {@code condition} holds, for at most ten seconds; whether it did. */
    private static boolean waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Threads the engine starts per session (stream pumps); they must all end with their session. */
    private static int engineThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("copilot-stdout-") || t.getName().startsWith("copilot-stderr-"))
                .count();
    }

    private static long openFileDescriptors() {
        String[] fds = new File("/proc/self/fd").list();
        return fds == null ? 0 : fds.length;
    }
}
