package io.jenkins.plugins.copilotautopilot.pages;

import hudson.model.Run;
import io.jenkins.plugins.copilotautopilot.core.journal.SafeFileNames;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a build keeps its sessions' files on the controller: in its own folder, {@value #FOLDER}, a journal per step
 * invocation ({@code ID.jsonl}, compressed once the session ended) and, while it runs, the follower's checkpoint.
 */
public final class SessionFiles {
    public static final String FOLDER = "copilot-autopilot";
    private static final String CHECKPOINT_SUFFIX = ".checkpoint";
    private static final String LAUNCHED_SUFFIX = ".launched";

    private SessionFiles() {
    }

    /** The journal of one step invocation, its folder made if need be. */
    public static File journal(Run<?, ?> run, String invocationId) {
        File folder = new File(run.getRootDir(), FOLDER);
        try {
            Files.createDirectories(folder.toPath());
        } catch (IOException e) {
            // reported by whoever writes the file
        }
        return SafeFileNames.resolveInside(folder.toPath(), invocationId + ".jsonl").toFile();
    }

    /** The CLI's OpenTelemetry spans of one step invocation ({@code otel}), kept as the session ended. */
    public static Path spans(Run<?, ?> run, String invocationId) {
        return SafeFileNames.resolveInside(new File(run.getRootDir(), FOLDER).toPath(), invocationId + ".otel.jsonl");
    }

    /** The follower's checkpoint of one step invocation. */
    public static Path checkpoint(Run<?, ?> run, String invocationId) {
        return SafeFileNames.resolveInside(new File(run.getRootDir(), FOLDER).toPath(), invocationId + CHECKPOINT_SUFFIX);
    }

    /** Where one step invocation launched its session ({@code UnendedSessions}): noted until its end saw to its folders. */
    public static Path launched(Run<?, ?> run, String invocationId) {
        return SafeFileNames.resolveInside(new File(run.getRootDir(), FOLDER).toPath(), invocationId + LAUNCHED_SUFFIX);
    }

    /** The sessions of this build noted by {@link #launched} and not un-noted since. */
    public static java.util.List<Path> stillLaunched(Run<?, ?> run) {
        Path folder = new File(run.getRootDir(), FOLDER).toPath();
        if (!Files.isDirectory(folder)) {
            return java.util.List.of();
        }
        try (java.util.stream.Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.getFileName().toString().endsWith(LAUNCHED_SUFFIX)).toList();
        } catch (IOException e) {
            return java.util.List.of();
        }
    }

    /** A recorded journal of this build, by its file name (as the build's session record names it). */
    public static File recorded(Run<?, ?> run, String journalFile) {
        return new File(new File(run.getRootDir(), FOLDER), journalFile);
    }
}
