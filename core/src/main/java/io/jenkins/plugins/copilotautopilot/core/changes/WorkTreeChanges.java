package io.jenkins.plugins.copilotautopilot.core.changes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the agent changed in a git work tree, from the launch script's snapshots of the tree before and after the
 * run ({@code git diff-tree -z --name-status} and {@code --numstat} between the two, and the patch, cut at
 * {@link #MAX_PATCH_BYTES}). The snapshots never touch the work tree, its index, branches or refs.
 *
 * @param files          the changed files, at most {@link #MAX_FILES}
 * @param filesLeftOut   changed files beyond that
 * @param patch          the unified diff, possibly cut
 * @param patchCut       whether the patch was longer than {@link #MAX_PATCH_BYTES}
 */
public record WorkTreeChanges(List<ChangedFile> files, int filesLeftOut, String patch, boolean patchCut) implements java.io.Serializable {
    /** The most of the patch kept (the launch script writes one byte more, to tell a cut). */
    public static final int MAX_PATCH_BYTES = 1024 * 1024;
    public static final int MAX_FILES = 500;

    public WorkTreeChanges {
        files = List.copyOf(files);
    }

    public long linesAdded() {
        return files.stream().mapToLong(f -> f.added() == null ? 0 : f.added()).sum();
    }

    public long linesRemoved() {
        return files.stream().mapToLong(f -> f.removed() == null ? 0 : f.removed()).sum();
    }

    public int fileCount() {
        return files.size() + filesLeftOut;
    }

    /**
     * Reads the launch script's output; null when there is none (no git, not a work tree, or no snapshot).
     *
     * @param nameStatus {@code git diff-tree -r -z --no-renames --name-status} output
     * @param numstat    {@code git diff-tree -r -z --no-renames --numstat} output
     * @param patch      {@code git diff-tree -r -p} output, {@link #MAX_PATCH_BYTES} + 1 bytes at most
     */
    public static WorkTreeChanges parse(byte[] nameStatus, byte[] numstat, byte[] patch) {
        if (nameStatus == null || numstat == null) {
            return null;
        }
        Map<String, long[]> counts = new LinkedHashMap<>();
        String[] numFields = split(numstat);
        for (String field : numFields) {
            // "added<TAB>removed<TAB>path", or "-<TAB>-<TAB>path" for a binary file
            String[] parts = field.split("\t", 3);
            if (parts.length == 3) {
                counts.put(parts[2], new long[] {number(parts[0]), number(parts[1])});
            }
        }
        List<ChangedFile> files = new ArrayList<>();
        int leftOut = 0;
        String[] statusFields = split(nameStatus);
        for (int i = 0; i + 1 < statusFields.length; i += 2) {
            if (files.size() >= MAX_FILES) {
                leftOut++;
                continue;
            }
            String path = statusFields[i + 1];
            long[] c = counts.get(path);
            files.add(new ChangedFile(path, status(statusFields[i]), c == null || c[0] < 0 ? null : c[0],
                    c == null || c[1] < 0 ? null : c[1]));
        }
        boolean cut = patch != null && patch.length > MAX_PATCH_BYTES;
        String text = patch == null ? "" : new String(patch, 0, Math.min(patch.length, MAX_PATCH_BYTES), StandardCharsets.UTF_8);
        return new WorkTreeChanges(files, leftOut, text, cut);
    }

    private static String[] split(byte[] nulSeparated) {
        String text = new String(nulSeparated, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return new String[0];
        }
        return text.split("\0");
    }

    private static long number(String text) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return -1; // "-": binary
        }
    }

    private static String status(String letter) {
        return switch (letter.isEmpty() ? ' ' : letter.charAt(0)) {
            case 'A' -> "added";
            case 'D' -> "deleted";
            case 'T' -> "type changed";
            default -> "modified";
        };
    }

    /** The patch split by file: path → that file's part of the diff. */
    public Map<String, String> patchByFile() {
        Map<String, String> parts = new LinkedHashMap<>();
        String current = null;
        StringBuilder part = new StringBuilder();
        for (String line : patch.split("\n", -1)) {
            if (line.startsWith("diff --git ")) {
                if (current != null) {
                    parts.put(current, part.toString());
                }
                current = pathOf(line);
                part.setLength(0);
            }
            if (current != null) {
                part.append(line).append('\n');
            }
        }
        if (current != null) {
            parts.put(current, part.toString());
        }
        return parts;
    }

    /** The path of a {@code diff --git a/x b/x} line (the b/ side). */
    private static String pathOf(String header) {
        int b = header.lastIndexOf(" b/");
        return b < 0 ? header.substring("diff --git ".length()) : header.substring(b + 3);
    }
}
