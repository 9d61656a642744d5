package io.jenkins.plugins.copilotautopilot.core.changes;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A file the agent created, modified or deleted.
 *
 * @param path    the path in the repository, as git names it
 * @param status  {@code added}, {@code modified}, {@code deleted} or {@code type changed}
 * @param added   lines added, or null for a binary file
 * @param removed lines removed, or null for a binary file
 */
public record ChangedFile(String path, String status, Long added, Long removed) implements java.io.Serializable {
    /** Plain JDK values, e.g. for a Jenkins Pipeline step's returned map. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("path", path);
        map.put("status", status);
        map.put("linesAdded", added);
        map.put("linesRemoved", removed);
        return map;
    }
}
