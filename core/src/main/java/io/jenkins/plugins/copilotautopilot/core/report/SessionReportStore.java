package io.jenkins.plugins.copilotautopilot.core.report;

import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.session.ToolStatus;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Session reports for pages that are asked for often (the session page, its timeline image), without reading the
 * journal again each time: a report is kept beside its journal ({@code <journal>.report}, written once, the first
 * time it is needed, and again only when the journal changed), and the most recent ones in memory. A page view then
 * costs a look at two files' sizes and times, whatever the journal's size.
 */
public final class SessionReportStore {
    /** Reports kept in memory at most (each is bounded: turns, tool calls and texts are cut when read). */
    static final int CACHED = 64;
    private static final String SUFFIX = ".report";
    /** What a report file may hold: the report's own types and the JDK's few it uses, nothing else is read. */
    private static final Set<String> ALLOWED = Set.of(SessionReport.class.getName(), SessionReport.Totals.class.getName(),
            TurnReport.class.getName(), ToolCallReport.class.getName(), ToolStatus.class.getName(), WorkTreeChanges.class.getName(),
            ChangedFile.class.getName(), ApprovalReport.class.getName(), ServiceFailure.class.getName(),
            ServiceFailure.Kind.class.getName(), "java.lang.Object", "java.lang.Enum", "java.lang.Number", "java.lang.Boolean", "java.lang.Long", "java.lang.Double",
            "java.lang.Integer", "java.lang.String", "java.time.Instant", "java.time.Ser", "java.util.ArrayList",
            "java.util.Collections$UnmodifiableRandomAccessList", "java.util.Collections$UnmodifiableList",
            "java.util.Collections$UnmodifiableCollection", "java.util.ImmutableCollections$ListN",
            "java.util.ImmutableCollections$List12", "java.util.CollSer");

    private static final Map<Path, Cached> MEMORY = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, Cached> eldest) {
            return size() > CACHED;
        }
    };

    private record Cached(long size, FileTime modified, SessionReport report) {
    }

    private SessionReportStore() {
    }

    /** The report of {@code journal} (plain or compressed), from memory, from its report file, or read and kept. */
    public static SessionReport get(Path journal) throws IOException {
        Path key = journal.toAbsolutePath().normalize();
        long size;
        FileTime modified;
        try {
            size = Files.size(key);
            modified = Files.getLastModifiedTime(key);
        } catch (NoSuchFileException e) {
            return null;
        }
        synchronized (MEMORY) {
            Cached cached = MEMORY.get(key);
            if (cached != null && cached.size() == size && cached.modified().equals(modified)) {
                return cached.report();
            }
        }
        SessionReport report = stored(key, modified);
        if (report == null) {
            report = SessionReportReader.read(key);
            store(key, report, modified);
        }
        synchronized (MEMORY) {
            MEMORY.put(key, new Cached(size, modified, report));
        }
        return report;
    }

    /** Forgets the reports in memory (tests; the files stay). */
    static void forget() {
        synchronized (MEMORY) {
            MEMORY.clear();
        }
    }

    /** The report file of a journal (deleted with the journal by whoever deletes the build). */
    public static Path reportFile(Path journal) {
        return journal.resolveSibling(journal.getFileName() + SUFFIX);
    }

    /** The stored report, when it was made from the journal as it is now; else null. */
    private static SessionReport stored(Path journal, FileTime journalModified) {
        Path file = reportFile(journal);
        try {
            if (!Files.isRegularFile(file) || Files.getLastModifiedTime(file).compareTo(journalModified) < 0) {
                return null;
            }
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file));
                 ObjectInputStream objects = new ObjectInputStream(in)) {
                objects.setObjectInputFilter(SessionReportStore::allowed);
                return objects.readObject() instanceof SessionReport report ? report : null;
            }
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            return null; // an old or broken file: read the journal again
        }
    }

    private static ObjectInputFilter.Status allowed(ObjectInputFilter.FilterInfo info) {
        Class<?> type = info.serialClass();
        if (info.depth() > 20 || info.references() > 1_000_000 || info.arrayLength() > 1_000_000) {
            return ObjectInputFilter.Status.REJECTED;
        }
        if (type == null || type.isPrimitive() || type.isArray() && type.getComponentType().isPrimitive()) {
            return ObjectInputFilter.Status.UNDECIDED;
        }
        Class<?> element = type.isArray() ? type.getComponentType() : type;
        return ALLOWED.contains(element.getName()) ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED;
    }

    /** Keeps the report beside the journal (through a temporary file: a reader sees a whole one or none). */
    private static void store(Path journal, SessionReport report, FileTime journalModified) {
        Path file = reportFile(journal);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp));
                 ObjectOutputStream objects = new ObjectOutputStream(out)) {
                objects.writeObject(report);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            if (Files.getLastModifiedTime(file).compareTo(journalModified) < 0) {
                Files.setLastModifiedTime(file, journalModified);
            }
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // nothing more to do: the report is read from the journal next time
            }
        }
    }
}
