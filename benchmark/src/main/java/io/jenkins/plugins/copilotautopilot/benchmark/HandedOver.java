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
     * Whether the chunk crosses the channel as the plugin's {@code SessionChunk} does since issue 32: written out field
     * by field by its own code ({@link WrittenOut}, as {@code SessionChunk.Wire}), so that a call's stream holds one
     * class descriptor without fields and the bytes. With {@code -Dbench.chunkExternalizable=false}, as the plugin did
     * before: default serialization, the descriptor of all sixteen fields written and read back with every call.
     */
    static final boolean EXTERNALIZABLE = Boolean.parseBoolean(System.getProperty("bench.chunkExternalizable", "true"));

    /** The chunk as the plugin writes it ({@code SessionChunk.Wire}): the same fields in the same order and form. */
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
            writeBytes(out, chunk.launchError == null ? null : chunk.launchError.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            writeBytes(out, chunk.changesStatus);
            writeBytes(out, chunk.changesNumstat);
            writeBytes(out, chunk.changesPatch);
            writeBytes(out, chunk.keptSession);
            out.writeLong(chunk.keptSessionSize);
            writeBytes(out, chunk.spans);
            out.writeInt(-1); // approvalIds: none in the captures
            out.writeInt(-1); // approvalTexts
            // the exit code, which the plugin's last call carries as its argument beside the chunk
            out.writeInt(chunk.exitCode == null ? Integer.MIN_VALUE : chunk.exitCode);
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
            byte[] launchError = readBytes(in);
            byte[] changesStatus = readBytes(in);
            byte[] changesNumstat = readBytes(in);
            byte[] changesPatch = readBytes(in);
            byte[] keptSession = readBytes(in);
            long keptSessionSize = in.readLong();
            byte[] spans = readBytes(in);
            if (in.readInt() != -1 || in.readInt() != -1) {
                throw new IOException("no approvals in this model");
            }
            int exit = in.readInt();
            chunk = new Chunk(outputStart, output, stderrStart, stderr, usageStart, usage, usageConsumed,
                    exit == Integer.MIN_VALUE ? null : exit);
            chunk.launchError = launchError == null ? null : new String(launchError, java.nio.charset.StandardCharsets.UTF_8);
            chunk.changesStatus = changesStatus;
            chunk.changesNumstat = changesNumstat;
            chunk.changesPatch = changesPatch;
            chunk.keptSession = keptSession;
            chunk.keptSessionSize = keptSessionSize;
            chunk.spans = spans;
        }

        private static void writeBytes(java.io.ObjectOutput out, byte[] bytes) throws IOException {
            if (bytes == null) {
                out.writeInt(-1);
            } else {
                out.writeInt(bytes.length);
                out.write(bytes);
            }
        }

        private static byte[] readBytes(java.io.ObjectInput in) throws IOException {
            int length = in.readInt();
            if (length < 0) {
                return null;
            }
            byte[] bytes = new byte[length];
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
