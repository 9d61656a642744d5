package io.jenkins.plugins.copilotautopilot.benchmark;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.io.UncheckedIOException;

/**
 * Reads what crossed the channel as remoting's {@code ObjectInputStreamEx} does: classes resolved with the channel's
 * class loader, not by walking the calling thread's stack for the latest user-defined loader, as a plain
 * {@link ObjectInputStream} does for every class it meets (a cost the controller's channel threads do not pay).
 */
final class ChannelInput extends ObjectInputStream {
    private final ClassLoader loader;

    private ChannelInput(byte[] bytes, ClassLoader loader) throws IOException {
        super(new ByteArrayInputStream(bytes));
        this.loader = loader;
    }

    /** The object {@code bytes} hold. */
    static Object readFrom(byte[] bytes) {
        try (ChannelInput in = new ChannelInput(bytes, ChannelInput.class.getClassLoader())) {
            return in.readObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
        try {
            return Class.forName(desc.getName(), false, loader);
        } catch (ClassNotFoundException e) {
            return super.resolveClass(desc); // primitive types' classes
        }
    }
}
