package io.jenkins.plugins.copilotautopilot.core.command;

/**
 * The agent's working directory inside a build workspace, given relative to it. A path that would leave the
 * workspace (absolute, a drive letter, {@code ..}) is refused.
 */
public final class WorkspacePaths {
    private WorkspacePaths() {
    }

    /**
     * The relative path with {@code /} separators and no empty or {@code .} segments, or "" for the workspace
     * itself.
     *
     * @throws IllegalArgumentException with a message for the user, when the path leaves the workspace
     */
    public static String relative(String path) {
        if (path == null || path.isBlank()) {
            return "";
        }
        String p = path.strip().replace('\\', '/');
        if (p.startsWith("/") || p.matches("^[A-Za-z]:.*") || p.startsWith("~")) {
            throw new IllegalArgumentException("workingDirectory must be relative to the workspace, was '" + path + "'.");
        }
        StringBuilder out = new StringBuilder();
        for (String segment : p.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                throw new IllegalArgumentException("workingDirectory must stay inside the workspace, was '" + path + "'.");
            }
            if (out.length() > 0) {
                out.append('/');
            }
            out.append(segment);
        }
        return out.toString();
    }
}
