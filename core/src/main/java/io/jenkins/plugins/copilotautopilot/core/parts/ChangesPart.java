package io.jenkins.plugins.copilotautopilot.core.parts;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.result.Changes;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.util.List;

/**
 * What the agent changed in the git work tree, as the launch script's last snapshot says (its files and patch): a line
 * when untracked files were left out of a snapshot, a journal record at the end, and the result's piece (the CLI's own count of its edits where there is no work tree).
 */
public final class ChangesPart implements SessionPart {
    private final PartContext context;
    private WorkTreeChanges changes;

    ChangesPart(PartContext context) {
        this.context = context;
    }

    @Override
    public synchronized void read(SessionPoll poll) {
        if (poll.changes() != null) {
            changes = poll.changes();
        }
    }

    @Override
    public void onChangesLeftOut(long files, long kilobytes, long maxFiles, long maxKilobytes) {
        context.lines().line("Changes: " + Texts.number(files) + " untracked " + (files == 1 ? "file" : "files")
                + (kilobytes > 0 ? " (" + Texts.number(Math.round(kilobytes / 1024.0)) + " MB)" : "")
                + " left out of what the agent changed: over " + Texts.number(maxFiles) + " files or "
                + Texts.number(maxKilobytes / 1024) + " MB; list them in .gitignore (or set recordChanges: false).");
    }

    /** The last snapshot's changes, or null when there is none (not a git work tree, or not recorded). */
    public synchronized WorkTreeChanges changes() {
        return changes;
    }

    @Override
    public synchronized void ended(SessionState state) {
        if (changes != null) {
            context.record(EventJournal.CHANGES, record(changes));
        }
    }

    /**
     * The result's piece: the work tree's view of the changes, which includes what shell commands changed; without one,
     * the CLI's count of its own edits ({@code info}, or null).
     */
    public synchronized Changes result(ResultInfo info, SecretMasker masker) {
        if (changes == null) {
            return new Changes(info == null ? 0 : info.linesAdded(), info == null ? 0 : info.linesRemoved(),
                    info == null ? 0 : info.filesModified(), List.of(), null, false);
        }
        List<ChangedFile> files = changes.files().stream()
                .map(f -> new ChangedFile(masker.mask(f.path()), f.status(), f.added(), f.removed())).toList();
        return new Changes(changes.linesAdded(), changes.linesRemoved(), changes.fileCount(), files, masker.mask(changes.patch()),
                changes.patchCut());
    }

    /** The journal's record of the changes: the files and the patch (masked like every record). */
    private static ObjectNode record(WorkTreeChanges changes) {
        ObjectNode data = EventParser.mapper().createObjectNode();
        ArrayNode files = data.putArray("files");
        for (ChangedFile f : changes.files()) {
            files.addObject().put("path", f.path()).put("status", f.status()).put("linesAdded", f.added())
                    .put("linesRemoved", f.removed());
        }
        data.put("filesLeftOut", changes.filesLeftOut());
        data.put("patch", changes.patch());
        data.put("patchCut", changes.patchCut());
        return data;
    }
}
