package io.jenkins.plugins.copilotautopilot.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The same stream through two other tools, for comparison: {@code jq -c .type} and a Node.js JSON.parse loop. */
final class Peers {
    private Peers() {
    }

    /** Wall time in nanoseconds of {@code jq -c .type FILE > /dev/null}, or -1 when jq is missing. */
    static long jq(Path stream) throws IOException, InterruptedException {
        return time(List.of("jq", "-c", ".type", stream.toString()));
    }

    /** Wall time of a Node.js line loop that parses every line with JSON.parse, or -1 when node is missing. */
    static long node(Path stream, Path workDir) throws IOException, InterruptedException {
        Path script = workDir.resolve("parse-lines.js");
        try (InputStream in = Peers.class.getResourceAsStream("parse-lines.js")) {
            Files.write(script, in.readAllBytes());
        }
        return time(List.of("node", script.toString(), stream.toString()));
    }

    private static long time(List<String> command) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process process;
        try {
            process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            return -1;
        }
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed");
        }
        return System.nanoTime() - start;
    }

    static String version(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            return out.lines().findFirst().orElse("?");
        } catch (IOException | InterruptedException e) {
            return "missing";
        }
    }
}
