package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptCli;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.io.File;
import java.lang.management.ManagementFactory;
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
                        .options(o -> o.allowAllTools(true))
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
        settle();
        int threads = engineThreads();
        long fds = openFileDescriptors();
        long heap = usedHeapAfterGc();

        for (int i = 0; i < 200; i++) {
            ScriptCli.Run run = ScriptCli.run(cli, dir);
            assertThat(run.result().outcome()).as("session %d", i).isEqualTo(Outcome.COMPLETED);
        }
        settle();

        assertThat(engineThreads()).isEqualTo(threads).isZero();
        assertThat(openFileDescriptors()).isLessThanOrEqualTo(fds + 4);
        assertThat(usedHeapAfterGc() - heap).isLessThan(16L * 1024 * 1024);
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

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void settle() throws InterruptedException {
        Thread.sleep(500);
    }
}
