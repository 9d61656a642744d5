package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.core.result.Changes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * What the agent changed, as a build keeps it in {@code build.xml} ({@link Changes}): the line and file counts, and the
 * first {@value #MAX_FILES} files changed in the git work tree (the journal has them all, and the patch).
 */
@ExportedBean(defaultVisibility = 4)
public final class ChangesRecord implements Serializable {
    private static final long serialVersionUID = 1L;
    static final int MAX_FILES = 100;

    private final long linesAdded;
    private final long linesRemoved;
    private final int filesModified;
    private final ArrayList<ChangedFileRecord> files;

    ChangesRecord(Changes c) {
        this(c.linesAdded(), c.linesRemoved(), c.filesModified(),
                new ArrayList<>(c.files().stream().limit(MAX_FILES).map(ChangedFileRecord::new).toList()));
    }

    /** As a version before the parts saved it ({@link FlatSessionRecord}): what that form lacks is null or 0. */
    static ChangesRecord flat(long linesAdded, long linesRemoved, int filesModified, ArrayList<ChangedFileRecord> files) {
        return new ChangesRecord(linesAdded, linesRemoved, filesModified, files);
    }

    private ChangesRecord(long linesAdded, long linesRemoved, int filesModified, ArrayList<ChangedFileRecord> files) {
        this.linesAdded = linesAdded;
        this.linesRemoved = linesRemoved;
        this.filesModified = filesModified;
        this.files = files;
    }

    @Exported
    public long getLinesAdded() {
        return linesAdded;
    }

    @Exported
    public long getLinesRemoved() {
        return linesRemoved;
    }

    @Exported
    public int getFilesModified() {
        return filesModified;
    }

    /** The files the agent changed in the git work tree, at most {@value #MAX_FILES} (none for records made before). */
    @Exported
    public List<ChangedFileRecord> getFiles() {
        return files == null ? List.of() : List.copyOf(files);
    }
}
