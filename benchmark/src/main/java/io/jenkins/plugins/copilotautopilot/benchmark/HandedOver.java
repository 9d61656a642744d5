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
     * What the agent hands over at once, like the plugin's {@code SessionChunk}: crosses the channel serialized.
     *
     * @param exitCode the CLI's, once the watch has seen it end; null before
     */
    record Chunk(byte[] output, byte[] stderr, byte[] usage, long usageConsumed, Integer exitCode) implements Serializable {
        boolean isEmpty() {
            return output.length == 0 && stderr.length == 0 && usageConsumed == 0 && exitCode == null;
        }

        /** On the agent: what remoting writes to the channel. */
        byte[] serialize() {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(output.length + stderr.length + usage.length + 256);
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(this);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }

        /** On the controller: what remoting reads from it. */
        static Chunk deserialize(byte[] bytes) {
            return (Chunk) ChannelInput.readFrom(bytes);
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
