package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A finished session's output file, read by the engine's follower as it reads a live one: in chunks, on the
 * thread that also parses, tracks, masks, journals and renders. Notes when each chunk was read.
 */
final class FileLauncher implements CliLauncher {
    private final Path stream;
    private volatile long chunkArrivedNanos;

    FileLauncher(Path stream) {
        this.stream = stream;
    }

    long chunkArrivedNanos() {
        return chunkArrivedNanos;
    }

    @Override
    public CliSession launch(CliCommand command) throws IOException {
        long size = Files.size(stream);
        return new CliSession() {
            @Override
            public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException {
                byte[] chunk = LocalCliSession.read(stream, outputOffset, maxBytes);
                chunkArrivedNanos = System.nanoTime();
                boolean ended = outputOffset + chunk.length >= size;
                return new SessionPoll(chunk, new byte[0], ended ? 0 : null, ended);
            }

            @Override
            public void stop() {
                // nothing runs outside this JVM
            }

            @Override
            public void cleanup() {
                // the stream is the benchmark's
            }
        };
    }
}
