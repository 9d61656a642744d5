package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
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
     * What the agent hands over at once, the plugin's {@code SessionChunk} field for field (so that it costs what that
     * class costs to read: a class descriptor with sixteen fields in every call's stream), and the exit code that the
     * plugin's last call ({@code exited}) carries as its argument; crosses the channel serialized.
     */
    static final class Chunk implements Serializable {
        private static final long serialVersionUID = 1L;
        private static final byte[] NONE = new byte[0];

        final long outputStart;
        final byte[] output;
        final long stderrStart;
        final byte[] stderr;
        final long usageStart;
        final byte[] usage;
        final long usageConsumed;
        // set on the last chunk only in the plugin: null here, as the captures have none of them
        String launchError;
        byte[] changesStatus;
        byte[] changesNumstat;
        byte[] changesPatch;
        byte[] keptSession;
        long keptSessionSize;
        byte[] spans;
        String[] approvalIds;
        String[] approvalTexts;
        /** The CLI's, once the watch has seen it end; null before. */
        final Integer exitCode;

        Chunk(long outputStart, byte[] output, long stderrStart, byte[] stderr, long usageStart, byte[] usage,
              long usageConsumed, Integer exitCode) {
            this.outputStart = outputStart;
            this.output = output;
            this.stderrStart = stderrStart;
            this.stderr = stderr;
            this.usageStart = usageStart;
            this.usage = usage == null ? NONE : usage;
            this.usageConsumed = usageConsumed;
            this.exitCode = exitCode;
        }

        byte[] output() {
            return output;
        }

        byte[] stderr() {
            return stderr;
        }

        byte[] usage() {
            return usage;
        }

        long usageConsumed() {
            return usageConsumed;
        }

        Integer exitCode() {
            return exitCode;
        }

        boolean isEmpty() {
            return output.length == 0 && stderr.length == 0 && usageConsumed == 0 && exitCode == null;
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
     * With {@code -Dbench.chunkExternalizable=true}, a model of a change to the plugin: the chunk written out field by
     * field by its own code ({@link Externalizable}), so that a call's stream holds one class descriptor without fields
     * and the bytes, instead of the descriptor of sixteen fields that default serialization writes and reads back.
     */
    static final boolean EXTERNALIZABLE = Boolean.getBoolean("bench.chunkExternalizable");

    /** The chunk as such a plugin would write it. */
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
            out.writeLong(chunk.outputStart);
            writeBytes(out, chunk.output);
            out.writeLong(chunk.stderrStart);
            writeBytes(out, chunk.stderr);
            out.writeLong(chunk.usageStart);
            writeBytes(out, chunk.usage);
            out.writeLong(chunk.usageConsumed);
            out.writeInt(chunk.exitCode == null ? Integer.MIN_VALUE : chunk.exitCode);
            // the last chunk's fields (launch error, changes, kept session, spans, approvals): none in the captures
            out.writeBoolean(false);
        }

        @Override
        public void readExternal(java.io.ObjectInput in) throws IOException {
            long outputStart = in.readLong();
            byte[] output = readBytes(in);
            long stderrStart = in.readLong();
            byte[] stderr = readBytes(in);
            long usageStart = in.readLong();
            byte[] usage = readBytes(in);
            long usageConsumed = in.readLong();
            int exit = in.readInt();
            if (in.readBoolean()) {
                throw new IOException("no last-chunk fields in this model");
            }
            chunk = new Chunk(outputStart, output, stderrStart, stderr, usageStart, usage, usageConsumed,
                    exit == Integer.MIN_VALUE ? null : exit);
        }

        private static void writeBytes(java.io.ObjectOutput out, byte[] bytes) throws IOException {
            out.writeInt(bytes.length);
            out.write(bytes);
        }

        private static byte[] readBytes(java.io.ObjectInput in) throws IOException {
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            return bytes;
        }
    }

    /** On a remoting thread: takes what was handed over. */
    synchronized void accept(Chunk chunk) {
        output.write(chunk.output(), 0, chunk.output().length);
        stderr.write(chunk.stderr(), 0, chunk.stderr().length);
        usage.write(chunk.usage(), 0, chunk.usage().length);
        usageConsumed += chunk.usageConsumed();
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
