package io.jenkins.plugins.copilotautopilot.agent;

import io.jenkins.plugins.copilotautopilot.core.process.ChunkFrames;
import java.io.IOException;
import java.io.OutputStream;

/**
 * On the controller: the stream the agent's {@link EventsHandler} writes a watched session's chunks to, one frame each
 * ({@link ChunkFrames}), through a {@code RemoteOutputStream}. Remoting hands the bytes over in order on the channel's
 * I/O thread, unanswered, as it does a step's output; each whole chunk goes to the {@link Taker} there. A chunk the
 * taker refuses (a later watch has taken over) or a stream that breaks fails the write, and the agent's next write fails
 * too: its watch gives up.
 */
final class ChunkStream extends OutputStream {
    /** What takes each chunk. */
    interface Taker {
        void take(SessionChunk chunk) throws IOException;
    }

    private final ChunkFrames.Splitter splitter;

    ChunkStream(Taker taker) {
        this.splitter = new ChunkFrames.Splitter(in -> taker.take(SessionChunk.readFrom(in)));
    }

    @Override
    public synchronized void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int count) throws IOException {
        splitter.write(bytes, offset, count);
    }
}
