package io.jenkins.plugins.copilotautopilot.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The benchmark runs end to end on a small stream (the real numbers come from ./benchmark/run). */
class BenchmarkSmokeTest {
    @Test
    @Timeout(300)
    void everyMeasureIsReported() throws Exception {
        BenchmarkMain main = new BenchmarkMain();
        main.run(20_000, 1, java.util.List.of(1, 10), 2, 4);
        String report = main.report();
        assertThat(report).contains("| Event pipeline, ", "| `jq -c .type` on the same file, median of 3 |",
                "| Node.js `JSON.parse` line loop, median of 3 |", "| Latency, chunk arrival", "| Same stream with `-Xmx64m` | finished; peak heap", "(a tenth of the events) vs",
                "capture `cli-longstream`", "| Log size / stdout size, live streaming session", "| Real 2-turn session, bare CLI",
                "through the engine, in-process", "through the standalone runner", "| Concurrent sessions, N = 1 / 10 ",
                "| Live heap per running session", "| Follower CPU per session-minute", "| Follower CPU, 10 sessions | ",
                "| Threads / open file descriptors", "| Delay, line written to the output file");
        assertThat(report).doesNotContain("FAILED");
    }
}
