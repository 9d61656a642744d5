package io.jenkins.plugins.copilotautopilot.core.result;

import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the agent changed: from the git work tree (which includes what shell commands changed), else the CLI's count of
 * its own edits; masked.
 *
 * @param files    the files changed in the work tree (empty when none, or not a work tree)
 * @param patch    what changed there as a unified diff (cut after 1 MiB), or null; not in the map
 * @param patchCut whether {@code patch} was cut (it is then no whole patch)
 */
public record Changes(long linesAdded, long linesRemoved, int filesModified, List<ChangedFile> files, String patch,
                      boolean patchCut) {
    public static final Changes NONE = new Changes(0, 0, 0, List.of(), null, false);

    public Changes {
        files = files == null ? List.of() : List.copyOf(files);
    }

    /** Its entries in the result's map (the Pipeline step's return value, the journal's closing record). */
    public void putInto(Map<String, Object> map) {
        map.put("linesAdded", linesAdded);
        map.put("linesRemoved", linesRemoved);
        map.put("filesModified", filesModified);
        List<Map<String, Object>> list = new ArrayList<>();
        files.forEach(f -> list.add(f.toMap()));
        map.put("changedFiles", list);
    }
}
