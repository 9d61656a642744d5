package io.jenkins.plugins.copilotautopilot.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import io.jenkins.plugins.copilotautopilot.core.files.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The benchmark runs end to end on a small stream (the real numbers come from ./benchmark/run), each run in a temporary
 * root of its own that it must leave empty: what it and its child JVMs wrote is gone, also after a failure.
 */
class BenchmarkSmokeTest {
    @Test
    @Timeout(300)
    void everyMeasureIsReportedAndNothingIsLeftBehind() throws Exception {
        Path root = Files.createTempDirectory("copilot-bench-smoke-");
        try {
            BenchmarkMain main = new BenchmarkMain(root, System.getProperty("copilot.cli"));
            main.run(20_000, 1, List.of(1, 10), 2, 4);
            String report = main.report();
            assertThat(report).contains("| Event pipeline, ", "| `jq -c .type` on the same file, median of 3 |",
                    "| Node.js `JSON.parse` line loop, median of 3 |", "| Latency, chunk arrival", "| Same stream with `-Xmx64m` | finished; peak heap", "(a tenth of the events) vs",
                    "capture `cli-longstream`", "| Log size / stdout size, live streaming session", "| Real 2-turn session, bare CLI",
                    "through the engine, in-process", "through the standalone runner", "| Where the runner's time goes (median of 1, ", "| Concurrent sessions, N = 1 / 10 ",
                    "| Live heap per running session", "| Controller CPU per session-minute", "| Controller CPU, 10 sessions | ",
                    "| The same, 10 sessions, followed as the plugin did before issue 32 (a checkpoint after every hand-over, each chunk"
                            + " serialized with the descriptor of its sixteen fields) | ",
                    "| Agents' CPU, 10 sessions",
                    "| Threads / open file descriptors", "| Delay, line written to the output file",
                    "| Answer of 1,000 review findings (", "(0 errors) | a few ms |", "| The same findings held to the workspace",
                    "(1,000 findings) | a few ms |", "| Python `jsonschema` (Draft 2020-12) validating the same answer");
            assertThat(report).doesNotContain("FAILED");
            assertThat(root).as("what the benchmark and its child JVMs wrote").isEmptyDirectory();
        } finally {
            FileTrees.delete(root);
        }
    }

    @Test
    @Timeout(120)
    void aRunThatFailsLeavesNothingBehindEither() throws Exception {
        Path root = Files.createTempDirectory("copilot-bench-smoke-");
        try {
            // the pipeline, the memory runs in child JVMs and the compaction run first; then the CLI is missing
            BenchmarkMain main = new BenchmarkMain(root, root.resolve("no-such-copilot").toString());
            assertThatThrownBy(() -> main.run(2_000, 1, List.of(1), 1, 4)).isInstanceOf(CliNotFoundException.class);
            assertThat(main.report()).contains("| Same stream with `-Xmx64m` | finished");
            assertThat(root).as("what the benchmark and its child JVMs wrote before it failed").isEmptyDirectory();
        } finally {
            FileTrees.delete(root);
        }
    }
}
