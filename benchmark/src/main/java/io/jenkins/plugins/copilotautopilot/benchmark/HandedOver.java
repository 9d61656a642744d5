package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.HandedOverChunk;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;

/**
 * A session as the controller has it while durable-task's watch runs, like the plugin's {@code AgentSession}: what
 * the agent handed over and the follower has not taken yet, in memory. A look ({@link #poll}) never reads a file.
 */
final class HandedOver implements CliSession {
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final ByteArrayOutputStream usage = new ByteArrayOutputStream();
    private long usageConsumed;
    private Integer exitCode;

    /**
     * What the agent hands over at once: the engine's {@link HandedOverChunk}, as the plugin's {@code SessionChunk} is,
     * and the exit code that the plugin's last call ({@code exited}) carries as its argument; crosses the channel
     * serialized.
     */
    static final class Chunk extends HandedOverChunk {
        private static final long serialVersionUID = 1L;

        /** The CLI's, once the watch has seen it end; null before. */
        final Integer exitCode;

        Chunk(long outputStart, byte[] output, long stderrStart, byte[] stderr, long usageStart, byte[] usage,
              long usageConsumed, Integer exitCode) {
            super(outputStart, output, stderrStart, stderr, usageStart, usage == null ? NONE : usage, usageConsumed);
            this.exitCode = exitCode;
        }

        /** Reads what {@link WrittenOut} wrote: the chunk's wire form, then the exit code. */
        private Chunk(java.io.DataInput in) throws IOException {
            this(in, true);
        }

        private Chunk(java.io.DataInput in, boolean withExitCode) throws IOException {
            super(in);
            int exit = withExitCode ? in.readInt() : Integer.MIN_VALUE;
            exitCode = exit == Integer.MIN_VALUE ? null : exit;
        }

        /** A chunk as a frame of the session's stream brings it ({@code ChunkFrames}): no exit code. */
        static Chunk fromFrame(java.io.DataInput in) throws IOException {
            return new Chunk(in, false);
        }

        Integer exitCode() {
            return exitCode;
        }

        @Override
        public boolean isEmpty() {
            return super.isEmpty() && exitCode == null;
        }

        /** On the agent: what remoting writes to the channel. */
        byte[] serialize() {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(output.length + stderr.length + usage.length + 512);
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(EXTERNALIZABLE ? new WrittenOut(this) : this);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }

        /** On the controller: what remoting reads from it. */
        static Chunk deserialize(byte[] bytes) {
            Object read = ChannelInput.readFrom(bytes);
            return read instanceof WrittenOut written ? written.chunk : (Chunk) read;
        }
    }

    /**
     * Whether the chunk crosses the channel as the plugin's {@code SessionChunk} does since issue 32: in its wire form
     * ({@link HandedOverChunk#writeTo}) inside an {@code Externalizable} of the caller's ({@link WrittenOut}, as
     * {@code SessionChunk.Wire}), so that a call's stream holds one class descriptor without fields and the bytes. With
     * {@code -Dbench.chunkExternalizable=false}, as the plugin did before: default serialization, the descriptor of all
     * sixteen fields written and read back with every call.
     */
    static final boolean EXTERNALIZABLE = Boolean.parseBoolean(System.getProperty("bench.chunkExternalizable", "true"));

    /** The chunk as the plugin's {@code SessionChunk.Wire} writes it, and the exit code after it. */
    public static final class WrittenOut implements java.io.Externalizable {
        private static final long serialVersionUID = 1L;
        private Chunk chunk;

        public WrittenOut() {
            // for deserialization
        }

        WrittenOut(Chunk chunk) {
            this.chunk = chunk;
        }

        @Override
        public void writeExternal(java.io.ObjectOutput out) throws IOException {
            chunk.writeTo(out);
            // the exit code, which the plugin's last call carries as its argument beside the chunk
            out.writeInt(chunk.exitCode == null ? Integer.MIN_VALUE : chunk.exitCode);
        }

        @Override
        public void readExternal(java.io.ObjectInput in) throws IOException {
            chunk = new Chunk(in);
        }
    }

    /** On a remoting thread: takes what was handed over. */
    synchronized void accept(Chunk chunk) {
        output.write(chunk.output, 0, chunk.output.length);
        stderr.write(chunk.stderr, 0, chunk.stderr.length);
        usage.write(chunk.usage, 0, chunk.usage.length);
        usageConsumed += chunk.usageConsumed;
        if (chunk.exitCode() != null) {
            exitCode = chunk.exitCode();
        }
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) {
        return poll(outputOffset, stderrOffset, 0, maxBytes);
    }

    @Override
    public synchronized SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes) {
        SessionPoll poll = new SessionPoll(output.toByteArray(), stderr.toByteArray(), exitCode, exitCode != null, null,
                usage.toByteArray(), usageConsumed, null);
        output.reset();
        stderr.reset();
        usage.reset();
        usageConsumed = 0;
        return poll;
    }

    @Override
    public void stop() {
        // no process: the writer ends the session by writing its exit code
    }

    @Override
    public void cleanup() {
        // the benchmark removes the folders at the end
    }
}
