package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads what a session leaves in its control folder besides its output: the usage records in the CLI's own
 * session state ({@code copilot-home/session-state/<id>/events.jsonl}), and what the agent changed. Runs where the
 * files are: in this JVM for the runner, on the agent for Jenkins.
 */
public final class SessionFiles {
    private static final byte[] USAGE_TYPE = "\"type\":\"session.usage_record\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NONE = new byte[0];

    private SessionFiles() {
    }

    /**
     * @param lines    the usage record lines found, each ending in a line feed
     * @param consumed the bytes of the session state read (whole lines only)
     */
    public record Usage(byte[] lines, long consumed) {
    }

    /** Usage records written since {@code offset}, reading at most {@code max} bytes, whole lines only. */
    public static Usage usage(Path controlFolder, long offset, int max) throws IOException {
        Path events = sessionEvents(controlFolder);
        if (events == null) {
            return new Usage(NONE, 0);
        }
        byte[] chunk = LocalCliSession.read(events, offset, max);
        int end = lastLineEnd(chunk);
        if (end < 0) {
            // no whole line yet; or a line longer than a whole read (a huge message), which is no usage record: skip it
            return new Usage(NONE, chunk.length == max ? chunk.length : 0);
        }
        ByteArrayOutputStream records = new ByteArrayOutputStream();
        int start = 0;
        for (int i = 0; i <= end; i++) {
            if (chunk[i] == '\n') {
                if (contains(chunk, start, i, USAGE_TYPE)) {
                    records.write(chunk, start, i - start + 1);
                }
                start = i + 1;
            }
        }
        return new Usage(records.toByteArray(), end + 1L);
    }

    /** The CLI's event file in its session state, or null before it exists (one session per control folder). */
    private static Path sessionEvents(Path controlFolder) {
        File[] sessions = controlFolder.resolve(ControlFolder.COPILOT_HOME).resolve("session-state").toFile().listFiles(File::isDirectory);
        if (sessions == null) {
            return null;
        }
        for (File session : sessions) {
            File events = new File(session, "events.jsonl");
            if (events.isFile()) {
                return events.toPath();
            }
        }
        return null;
    }

    /** What the agent changed, as the launch script recorded it; null when it did not (no git work tree). */
    public static WorkTreeChanges changes(Path controlFolder) throws IOException {
        return WorkTreeChanges.parse(readIfThere(controlFolder.resolve(ControlFolder.CHANGES_STATUS)),
                readIfThere(controlFolder.resolve(ControlFolder.CHANGES_NUMSTAT)),
                readIfThere(controlFolder.resolve(ControlFolder.CHANGES_PATCH)));
    }

    private static byte[] readIfThere(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static int lastLineEnd(byte[] chunk) {
        for (int i = chunk.length - 1; i >= 0; i--) {
            if (chunk[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static boolean contains(byte[] bytes, int from, int to, byte[] needle) {
        outer:
        for (int i = from; i + needle.length <= to; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (bytes[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
