package io.jenkins.plugins.copilotautopilot.core.engine;

import io.jenkins.plugins.copilotautopilot.core.render.LogSink;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The log and the journal as a follower writes them: muted while it reads a session again up to a
 * {@link Checkpoint} (everything there was written before), live afterwards. The journal side counts what
 * reached the real stream, so a checkpoint knows the journal's size.
 */
final class Mutable {
    private Mutable() {
    }

    static final class Sink implements LogSink {
        private final LogSink next;
        private volatile boolean muted;

        Sink(LogSink next, boolean muted) {
            this.next = next;
            this.muted = muted;
        }

        void unmute() {
            muted = false;
        }

        @Override
        public void println(String line) {
            if (!muted) {
                next.println(line);
            }
        }
    }

    static final class Stream extends OutputStream {
        private final OutputStream next;
        private boolean muted;
        private long written;

        Stream(OutputStream next, boolean muted, long alreadyWritten) {
            this.next = next;
            this.muted = muted;
            this.written = alreadyWritten;
        }

        synchronized void unmute() {
            muted = false;
        }

        synchronized long written() {
            return written;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            if (!muted) {
                next.write(b);
                written++;
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            if (!muted) {
                next.write(b, off, len);
                written += len;
            }
        }

        @Override
        public synchronized void flush() throws IOException {
            if (!muted) {
                next.flush();
            }
        }

        @Override
        public synchronized void close() throws IOException {
            next.close();
        }
    }
}
