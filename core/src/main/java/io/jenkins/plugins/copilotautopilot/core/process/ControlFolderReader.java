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
import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads what a session leaves in its control folder besides its output: the usage records in the CLI's own
 * session state ({@code copilot-home/session-state/<id>/events.jsonl}), and what the agent changed. Runs where the
 * files are: in this JVM for the runner, on the agent for Jenkins.
 */
public final class ControlFolderReader {
    private static final String USAGE_TYPE = "\"type\":\"session.usage_record\"";
    /** Where each session's event file was found: the most recent sessions of this JVM, a bounded number. */
    private static final Map<Path, Path> FOUND = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, Path> eldest) {
            return size() > 4096;
        }
    });
    /** How much of each session's record earlier runs wrote (0: a new session); known once its event file exists. */
    private static final Map<Path, Long> KEPT_BYTES = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, Long> eldest) {
            return size() > 4096;
        }
    });
    private static final byte[] NONE = new byte[0];

    private ControlFolderReader() {
    }

    /**
     * @param lines    the usage record lines found, each ending in a line feed
     * @param consumed the bytes of the session state read (whole lines only)
     */
    public record Usage(byte[] lines, long consumed) {
    }

    /**
     * What one look at a control folder finds: the exit code first (once it is there, the other files are
     * complete), the usage records, both output files from the given positions and, once the CLI has ended, why
     * it could not start and what the agent changed. The plugin runs this on the agent ({@code PollCallable}), the
     * benchmark in its JVM.
     */
    public static Look look(Path controlFolder, long outputOffset, long stderrOffset, long usageOffset, int maxBytes)
            throws IOException {
        return look(controlFolder, ControlFolder.OUTPUT, outputOffset, stderrOffset, usageOffset, maxBytes);
    }

    /** Like {@link #look(Path, long, long, long, int)}, with the CLI's events in {@code outputFile} of the control folder. */
    public static Look look(Path controlFolder, String outputFile, long outputOffset, long stderrOffset, long usageOffset,
                            int maxBytes) throws IOException {
        Integer exitCode = LocalCliSession.readExitCode(controlFolder);
        Usage usage = usage(controlFolder, usageOffset, maxBytes);
        byte[] output = LocalCliSession.read(controlFolder.resolve(outputFile), outputOffset, maxBytes);
        byte[] stderr = LocalCliSession.read(controlFolder.resolve(ControlFolder.STDERR), stderrOffset, maxBytes);
        if (exitCode == null) {
            // a folder that is gone (a wiped workspace) reads as one where nothing happened yet: say which it is
            boolean exists = output.length > 0 || stderr.length > 0 || controlFolder.toFile().isDirectory();
            return new Look(output, stderr, null, null, exists, usage, null, null, null, openApprovals(controlFolder));
        }
        return new Look(output, stderr, exitCode, LocalCliSession.readLaunchError(controlFolder), true, usage,
                readIfThere(controlFolder.resolve(ControlFolder.CHANGES_STATUS)),
                readIfThere(controlFolder.resolve(ControlFolder.CHANGES_NUMSTAT)),
                readIfThere(controlFolder.resolve(ControlFolder.CHANGES_PATCH)), List.of());
    }

    /**
     * What {@link #look} found; the changes as the launch script wrote them (null when it did not, or the CLI
     * still runs).
     */
    public record Look(byte[] output, byte[] stderr, Integer exitCode, String launchError, boolean folderExists, Usage usage,
                       byte[] changesStatus, byte[] changesNumstat, byte[] changesPatch, List<ApprovalGate.Request> approvals) {
        /** As the follower takes it. */
        public SessionPoll toPoll() {
            return new SessionPoll(output, stderr, exitCode, exitCode != null, launchError, usage.lines(), usage.consumed(),
                    WorkTreeChanges.parse(changesStatus, changesNumstat, changesPatch), approvals);
        }
    }

    /** Usage records written since {@code offset}, reading at most {@code max} bytes, whole lines only. */
    public static Usage usage(Path controlFolder, long offset, int max) throws IOException {
        Path events = sessionEvents(controlFolder);
        if (events == null) {
            return new Usage(NONE, 0);
        }
        // a resumed kept session's record begins with the earlier runs' events: their usage is not this run's
        long from = Math.max(offset, keptRecordBytes(controlFolder));
        long skipped = from - offset;
        byte[] chunk = LocalCliSession.read(events, from, max);
        int end = lastLineEnd(chunk);
        if (end < 0) {
            // no whole line yet; or a line longer than a whole read (a huge message), which is no usage record: skip it
            return new Usage(NONE, skipped + (chunk.length == max ? chunk.length : 0));
        }
        // Searched as Latin-1 text, so that String.indexOf does the scanning: the file holds every lasting event
        // (the system prompt alone is some 24 KB), and this runs at every look. UTF-8 bytes of other characters
        // never match the ASCII type name.
        String text = new String(chunk, 0, end + 1, StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream records = null;
        int at = text.indexOf(USAGE_TYPE);
        while (at >= 0) {
            int start = text.lastIndexOf('\n', at) + 1;
            int lineEnd = text.indexOf('\n', at);
            if (records == null) {
                records = new ByteArrayOutputStream();
            }
            records.write(chunk, start, lineEnd - start + 1);
            at = text.indexOf(USAGE_TYPE, lineEnd + 1);
        }
        return new Usage(records == null ? NONE : records.toByteArray(), skipped + end + 1L);
    }

    /** The bytes of a kept session's record that earlier runs wrote ({@link ControlFolder#KEPT_SESSION_OFFSET}), else 0. */
    private static long keptRecordBytes(Path controlFolder) {
        Long known = KEPT_BYTES.get(controlFolder);
        if (known != null) {
            return known;
        }
        // asked once the session's event file exists: the launch script wrote the offset before it started the CLI
        Path file = controlFolder.resolve(ControlFolder.KEPT_SESSION_OFFSET);
        long bytes = 0;
        try {
            if (Files.isRegularFile(file)) {
                bytes = Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).strip());
            }
        } catch (IOException | NumberFormatException e) {
            return 0; // unreadable: looked at again next time
        }
        KEPT_BYTES.put(controlFolder, bytes);
        return bytes;
    }

    /**
     * The CLI's event file in its session state, or null before it exists (one session per control folder). Once
     * found it is remembered, so that a look costs no directory listing.
     */
    private static Path sessionEvents(Path controlFolder) {
        Path known = FOUND.get(controlFolder);
        if (known != null) {
            return known;
        }
        File[] sessions = controlFolder.resolve(ControlFolder.COPILOT_HOME).resolve("session-state").toFile().listFiles(File::isDirectory);
        if (sessions == null) {
            return null;
        }
        for (File session : sessions) {
            File events = new File(session, "events.jsonl");
            if (events.isFile()) {
                FOUND.put(controlFolder, events.toPath());
                return events.toPath();
            }
        }
        return null;
    }

    /** The most open approval requests read at once, and the most of each request. */
    static final int MAX_OPEN_APPROVALS = 100;
    static final int MAX_APPROVAL_BYTES = 1024 * 1024;

    /**
     * The approval hook's open requests: each {@code ID.request} without a decision or an answer yet, oldest first; null
     * when the session has no approval folder (no approvals, or no request yet).
     */
    public static List<ApprovalGate.Request> openApprovals(Path controlFolder) throws IOException {
        File[] files = controlFolder.resolve(ControlFolder.APPROVALS).toFile().listFiles();
        if (files == null) {
            return null;
        }
        Set<String> names = new HashSet<>();
        for (File f : files) {
            names.add(f.getName());
        }
        List<String> ids = new ArrayList<>();
        for (String name : names) {
            if (name.endsWith(ControlFolder.APPROVAL_REQUEST_SUFFIX)) {
                String id = name.substring(0, name.length() - ControlFolder.APPROVAL_REQUEST_SUFFIX.length());
                if (!names.contains(id + ControlFolder.APPROVAL_DECISION_SUFFIX) && !names.contains(id + ControlFolder.APPROVAL_DONE_SUFFIX)) {
                    ids.add(id);
                }
            }
        }
        ids.sort(java.util.Comparator.naturalOrder());
        List<ApprovalGate.Request> open = new ArrayList<>();
        for (String id : ids.subList(0, Math.min(ids.size(), MAX_OPEN_APPROVALS))) {
            Path request = controlFolder.resolve(ControlFolder.APPROVALS).resolve(id + ControlFolder.APPROVAL_REQUEST_SUFFIX);
            try {
                open.add(new ApprovalGate.Request(id, new String(LocalCliSession.read(request, 0, MAX_APPROVAL_BYTES), StandardCharsets.UTF_8)));
            } catch (NoSuchFileException e) {
                // answered meanwhile
            }
        }
        return open;
    }

    /** The CLI's OpenTelemetry file ({@code otel}), at most {@code max} bytes of it; empty when there is none. */
    public static byte[] spans(Path controlFolder, int max) throws IOException {
        return LocalCliSession.read(controlFolder.resolve(ControlFolder.SPANS), 0, max);
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
}
