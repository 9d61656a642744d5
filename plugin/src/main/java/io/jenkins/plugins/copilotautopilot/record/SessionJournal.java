package io.jenkins.plugins.copilotautopilot.record;

import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;

import hudson.model.Run;
import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.engine.Checkpoint;
import io.jenkins.plugins.copilotautopilot.core.engine.CheckpointFile;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.journal.JournalFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A session's files on the controller ({@link SessionFiles} says where): its journal, continued after a restart from
 * the follower's last checkpoint and compressed once the session ended, and the checkpoint itself, rewritten in place
 * (no new file or rename each second for each session; a restart reads the newest whole checkpoint in it, see
 * {@link CheckpointFile}).
 */
public final class SessionJournal {
    private SessionJournal() {
    }

    public static void saveCheckpoint(Run<?, ?> run, String invocationId, Checkpoint checkpoint) throws IOException {
        CheckpointFile.write(SessionFiles.checkpoint(run, invocationId), checkpoint);
    }

    public static Checkpoint readCheckpoint(Run<?, ?> run, String invocationId) throws IOException {
        return CheckpointFile.read(SessionFiles.checkpoint(run, invocationId));
    }

    /** The journal cut back to {@code checkpoint}, open to be continued. */
    public static OutputStream continueAt(Run<?, ?> run, String invocationId, Checkpoint checkpoint) throws IOException {
        Path journal = SessionFiles.journal(run, invocationId).toPath();
        if (!Files.exists(journal)) {
            Files.createFile(journal);
        }
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE)) {
            if (channel.size() > checkpoint.journalBytes()) {
                channel.truncate(checkpoint.journalBytes());
            }
        }
        return Files.newOutputStream(journal, StandardOpenOption.APPEND);
    }

    /**
     * The ended session's journal compressed, the checkpoint deleted.
     *
     * @return the compressed journal
     * @throws IOException when it could not be compressed (it stays as it was)
     */
    static Path finish(Run<?, ?> run, String invocationId) throws IOException {
        try {
            Path journal = SessionFiles.journal(run, invocationId).toPath();
            Path compressed = compressed(journal);
            if (!Files.exists(journal) && Files.exists(compressed)) {
                return compressed; // compressed by a controller that went down before it recorded the session
            }
            return JournalFiles.compress(journal);
        } finally {
            try {
                Files.deleteIfExists(SessionFiles.checkpoint(run, invocationId));
            } catch (IOException e) {
                // a stale checkpoint of a finished session is never read
            }
        }
    }

    private static Path compressed(Path journal) {
        return journal.resolveSibling(journal.getFileName() + JournalFiles.COMPRESSED_SUFFIX);
    }

    /**
     * The result the session's journal closed with, whole (not cut back to the checkpoint), or null when it did not
     * close: its follower made its result, printed its closing lines and journaled it, and then the controller went down
     * before the session was recorded.
     */
    public static io.jenkins.plugins.copilotautopilot.core.engine.SessionResult closedWith(Run<?, ?> run, String invocationId) {
        Path journal = SessionFiles.journal(run, invocationId).toPath();
        Path read = Files.exists(journal) ? journal : compressed(journal);
        if (!Files.exists(read)) {
            return null;
        }
        try {
            JsonNode closing = JournalFiles.closingRecord(read);
            return closing == null || !closing.isObject() ? null : io.jenkins.plugins.copilotautopilot.core.engine.ClosingRecord.read(closing);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The result a recorded session's journal closed with, as the Pipeline step returns it (lists and maps of plain
     * values); null when its journal cannot be read or has no closing record.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> recordedResult(Run<?, ?> run, String journalFile) {
        if (journalFile == null) {
            return null;
        }
        try {
            JsonNode closing = JournalFiles.closingRecord(SessionFiles.recorded(run, journalFile).toPath());
            return closing == null || !closing.isObject() ? null : EventParser.mapper().convertValue(closing, LinkedHashMap.class);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
