package io.jenkins.plugins.copilotautopilot.benchmark;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One agent with {@link ConcurrentSessions#SESSIONS_PER_AGENT} sessions (a model of a change to the plugin, which
 * makes one call per session): every {@link ConcurrentSessions#HANDOVER_MILLIS} it looks at all of them and hands over
 * what is new in all of them in one call, which one channel thread takes and follows.
 */
final class BatchingAgent {
    private final SessionsStage stage;
    final Set<RunningSession> running = ConcurrentHashMap.newKeySet();

    BatchingAgent(SessionsStage stage) {
        this.stage = stage;
    }

    /** A session's chunk in a batch. */
    record Handed(int session, HandedOver.Chunk chunk) implements Serializable {
    }

    void look() {
        if (stage.stopping) {
            return;
        }
        List<Handed> batch = new ArrayList<>();
        for (Iterator<RunningSession> it = running.iterator(); it.hasNext(); ) {
            try {
                if (!it.next().collect(batch)) {
                    it.remove();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        byte[] wire = serialize(batch);
        try {
            stage.call(() -> {
                for (Handed handed : deserialize(wire)) {
                    RunningSession session = stage.byKey.get(handed.session());
                    if (session != null) {
                        session.handedOver(handed.chunk());
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] serialize(List<Handed> batch) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(batch));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @SuppressWarnings("unchecked")
    private static List<Handed> deserialize(byte[] wire) {
        return (List<Handed>) ChannelInput.readFrom(wire);
    }
}
