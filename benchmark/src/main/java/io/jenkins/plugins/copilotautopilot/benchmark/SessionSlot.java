package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** One of the N places a session of a {@link ConcurrentSessions} run runs in; when its session ends, the next one starts there. */
final class SessionSlot {
    /** What the CLI writes first into its session state: its system prompt, about 24 KB (CLI 1.0.102, measured). */
    private static final byte[] SYSTEM_MESSAGE = ("{\"type\":\"system.message\",\"data\":{\"content\":\""
            + "You are the GitHub Copilot CLI. ".repeat(750) + "\"},\"id\":\"s0\"}\n").getBytes(StandardCharsets.UTF_8);

    private final SessionsStage stage;
    final int index;
    private int generation;
    private RunningSession current; // the writer's

    SessionSlot(SessionsStage stage, int index) {
        this.stage = stage;
        this.index = index;
    }

    /** On the writer: a new session with the next capture; its files as the launch script leaves them. */
    void start() {
        if (stage.stopping) {
            return;
        }
        try {
            // Finished sessions' files stay until the end: on a file system without a journal (as here),
            // deleting thousands of files makes creating new ones slow, which would be the benchmark's doing.
            ReplayCapture capture = stage.captures.get((index + generation) % stage.captures.size());
            generation++;
            Path folder = Files.createDirectories(stage.work.resolve("s" + index + "-" + generation));
            Files.createFile(folder.resolve(ControlFolder.STDERR));
            Files.createFile(folder.resolve(ControlFolder.OUTPUT));
            Path sessionEvents = Files.createDirectories(folder.resolve(ControlFolder.COPILOT_HOME).resolve("session-state")
                    .resolve("bench-" + index + "-" + generation)).resolve("events.jsonl");
            Files.write(sessionEvents, SYSTEM_MESSAGE);
            RunningSession running = new RunningSession(stage, this, capture, folder, sessionEvents,
                    stage.work.resolve("j" + stage.serial.incrementAndGet()));
            current = running;
            stage.writer.schedule(running::write, capture.dueNanos[0], TimeUnit.NANOSECONDS);
            stage.starter.execute(running::startFollowing);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
