package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.text.ConsoleText;
import java.io.Serializable;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/** A file the agent changed, as a build keeps it in {@code build.xml}: the path (cut when very long) and the counts. */
@ExportedBean(defaultVisibility = 5) // inside a part of a session: one level deeper, shown with the part
public final class ChangedFileRecord implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final int MAX_PATH = 500;

    private final String path;
    private final String status;
    private final Long linesAdded;
    private final Long linesRemoved;

    ChangedFileRecord(ChangedFile file) {
        String clean = ConsoleText.clean(file.path()); // as the session page's diffs name it
        this.path = clean.length() > MAX_PATH ? clean.substring(0, MAX_PATH) + "\u2026" : clean;
        this.status = file.status();
        this.linesAdded = file.added();
        this.linesRemoved = file.removed();
    }

    @Exported
    public String getPath() {
        return path;
    }

    /** added, modified, deleted or type changed. */
    @Exported
    public String getStatus() {
        return status;
    }

    /** Lines added, or null for a binary file. */
    @Exported
    public Long getLinesAdded() {
        return linesAdded;
    }

    @Exported
    public Long getLinesRemoved() {
        return linesRemoved;
    }
}
