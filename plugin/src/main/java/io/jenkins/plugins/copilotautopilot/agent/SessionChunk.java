package io.jenkins.plugins.copilotautopilot.agent;

import io.jenkins.plugins.copilotautopilot.core.process.HandedOverChunk;
import java.io.DataInput;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;

/**
 * What the agent hands the controller of a running session at once ({@link HandedOverChunk}: the fields and their wire
 * form are the engine's, which the benchmark measures).
 *
 * <p>It crosses the channel as its {@link Wire}, a class of this plugin: the controller's remoting class filter allows
 * the plugin's own classes and the JDK's, not those of the bundled engine jar, so no class of the engine is named in
 * the stream (the chunk's is replaced by the wire's, which has no serializable superclass).
 */
final class SessionChunk extends HandedOverChunk {
    private static final long serialVersionUID = 1L;

    SessionChunk(long outputStart, byte[] output, long stderrStart, byte[] stderr, long usageStart, byte[] usage, long usageConsumed) {
        super(outputStart, output, stderrStart, stderr, usageStart, usage, usageConsumed);
    }

    private SessionChunk(DataInput in) throws IOException {
        super(in);
    }

    /** Reads a chunk from its wire form ({@link HandedOverChunk#writeTo}), as a frame of the hand-overs' stream brings it. */
    static SessionChunk readFrom(DataInput in) throws IOException {
        return new SessionChunk(in);
    }

    /** What is serialized in its place. */
    private Object writeReplace() {
        return new Wire(this);
    }

    /** The chunk on the wire ({@link HandedOverChunk#writeTo}); read back as the {@link SessionChunk} it was. */
    static final class Wire implements Externalizable {
        private static final long serialVersionUID = 1L;
        private SessionChunk chunk;

        /** For deserialization only. */
        public Wire() {
        }

        Wire(SessionChunk chunk) {
            this.chunk = chunk;
        }

        @Override
        public void writeExternal(ObjectOutput out) throws IOException {
            chunk.writeTo(out);
        }

        @Override
        public void readExternal(ObjectInput in) throws IOException {
            chunk = new SessionChunk(in);
        }

        private Object readResolve() {
            return chunk;
        }
    }
}
