package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.files.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** One-line messages about the paths the runner is given; null where a path is fine. */
public final class RunnerChecks {
    private RunnerChecks() {
    }

    /** Why {@code --dir} cannot be the agent's working directory, or null. */
    public static String workingDirectory(Path dir) {
        if (Files.isDirectory(dir)) {
            return null;
        }
        return "the working directory " + dir + (Files.exists(dir) ? " is a file, not a directory" : " does not exist") + " (--dir)";
    }

    /** Why an {@code --add-dir} value names no directory (relative ones are resolved against {@code --dir}), or null. */
    static String addDir(String value, String workingDirectory) {
        Path path;
        try {
            path = workingDirectory == null ? Path.of(value) : Path.of(workingDirectory).resolve(value);
        } catch (InvalidPathException e) {
            return "--add-dir '" + value + "' is not a valid path";
        }
        if (value.isBlank() || Files.isDirectory(path)) {
            return null; // a blank entry is reported with the other option problems
        }
        return "--add-dir " + value + (Files.exists(path) ? ": not a directory" : ": no such directory");
    }

    /** Why {@code file} cannot be written as the output of {@code option} ({@code --journal}, {@code --timeline}), or null. */
    public static String outputFile(String option, Path file) {
        Path absolute = file.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return option + " " + file + " is a directory; give a file name";
        }
        if (Files.exists(absolute)) {
            return Files.isWritable(absolute) ? null : option + " " + file + ": permission denied";
        }
        Path ancestor = absolute.getParent();
        while (ancestor != null && !Files.exists(ancestor)) {
            ancestor = ancestor.getParent();
        }
        if (ancestor == null) {
            return null;
        }
        if (!Files.isDirectory(ancestor)) {
            return option + " " + file + ": " + ancestor + " is a file, not a directory";
        }
        return Files.isWritable(ancestor) ? null : option + " " + file + ": cannot create files in " + ancestor + " (permission denied)";
    }

    /**
     * Why sessions cannot be kept in {@code dir} ({@code --state-dir}), or null: tried for real before the session
     * starts (a folder made readable by its owner only when it has to be made, and a file written and removed in it),
     * so that a session is never run only to be lost at its end.
     */
    public static String stateDirectory(Path dir) {
        try {
            if (!Files.isDirectory(dir)) {
                OwnerOnlyFiles.folder(dir);
            }
            Path probe = Files.createTempFile(dir, ".copilot-autopilot-", ".probe");
            Files.delete(probe);
            return null;
        } catch (IOException e) {
            return "--state-dir " + dir + ": sessions cannot be kept there (" + reason(e) + ")";
        }
    }

    /** The one-line message when writing {@code file} for {@code option} failed. */
    public static String cannotWrite(String option, Path file, IOException e) {
        return "cannot write " + file + " (" + option + "): " + reason(e);
    }

    /** What went wrong, in words: never just the path that {@link FileSystemException#getMessage()} gives. */
    static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileAlreadyExistsException) {
            return "a file is in the way: " + ((java.nio.file.FileAlreadyExistsException) e).getFile();
        }
        if (e instanceof FileSystemException fs) {
            String reason = fs.getReason();
            return reason != null ? reason : fs.getClass().getSimpleName();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
