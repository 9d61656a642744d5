package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Stops a CLI process and everything it started. Processes are found two ways: the process tree under
 * the CLI, and — on Linux — every process whose environment carries the run's marker variable
 * ({@link CliCommand#RUN_MARKER_VARIABLE}), which also finds processes that left the tree (daemonized
 * or re-parented after their parent died). Each gets SIGTERM, then SIGKILL after a grace period.
 */
public final class ProcessTreeKiller {
    /** How long processes get between SIGTERM and SIGKILL. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(3);
    private static final int ROUNDS = 5;
    private static final Path PROC = Path.of("/proc");

    private ProcessTreeKiller() {
    }

    /**
     * Kills {@code root}, its descendants and every process marked with {@code runId}, and waits (bounded)
     * until they are gone. Repeats a few times to catch processes started while it was killing.
     */
    public static void kill(ProcessHandle root, String runId, Duration grace) {
        kill(root, runId, grace, true);
    }

    /**
     * Like {@link #kill(ProcessHandle, String, Duration)}; with {@code includeRoot} false, {@code root} itself
     * is spared (a wrapper that records how its child ended).
     */
    public static void kill(ProcessHandle root, String runId, Duration grace, boolean includeRoot) {
        // An interrupted caller (a build abort) still needs the processes gone: wait without interruption.
        boolean interrupted = Thread.interrupted();
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Set<ProcessHandle> targets = find(root, runId);
                if (!includeRoot && root != null) {
                    targets.remove(root);
                }
                if (targets.isEmpty()) {
                    return;
                }
                targets.forEach(ProcessHandle::destroy);
                if (!waitGone(targets, grace)) {
                    targets.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
                    waitGone(targets, Duration.ofSeconds(5));
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The live processes that belong to the run, parents before their children: a shell gets its signal before the
     * command it waits for, so that it cannot go on to its next command when that one dies first (a check
     * {@code sleep 61; echo late} printed "late" after a stop that killed the {@code sleep} first).
     */
    public static Set<ProcessHandle> find(ProcessHandle root, String runId) {
        Set<ProcessHandle> found = new LinkedHashSet<>();
        if (root != null) {
            if (root.isAlive()) {
                found.add(root);
            }
            java.util.Deque<ProcessHandle> parents = new java.util.ArrayDeque<>(List.of(root));
            while (!parents.isEmpty()) {
                parents.removeFirst().children().filter(ProcessHandle::isAlive).forEach(child -> {
                    if (found.add(child)) {
                        parents.addLast(child);
                    }
                });
            }
        }
        if (runId != null) {
            found.addAll(marked(runId));
        }
        return found;
    }

    /** Live processes whose environment holds the run's marker (Linux only; elsewhere empty). */
    public static List<ProcessHandle> marked(String runId) {
        List<ProcessHandle> result = new ArrayList<>();
        if (!Files.isDirectory(PROC)) {
            return result;
        }
        byte[] needle = (CliCommand.RUN_MARKER_VARIABLE + "=" + runId + "\0").getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, p -> isNumber(p.getFileName().toString()))) {
            for (Path dir : dirs) {
                long pid = Long.parseLong(dir.getFileName().toString());
                if (pid == self) {
                    continue;
                }
                byte[] environ;
                try {
                    environ = Files.readAllBytes(dir.resolve("environ"));
                } catch (IOException | SecurityException e) {
                    continue; // gone, or not ours to read
                }
                if (startsEntry(environ, needle)) {
                    ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(result::add);
                }
            }
        } catch (IOException e) {
            // /proc unreadable: the process tree is all we have
        }
        return result;
    }

    /** Whether {@code needle} appears in the NUL-separated environment block as a whole entry. */
    private static boolean startsEntry(byte[] environ, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= environ.length; i++) {
            if (i > 0 && environ[i - 1] != 0) {
                continue;
            }
            for (int j = 0; j < needle.length; j++) {
                if (environ[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static boolean waitGone(Set<ProcessHandle> processes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (processes.stream().anyMatch(ProcessHandle::isAlive)) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return processes.stream().noneMatch(ProcessHandle::isAlive);
            }
        }
        return true;
    }

    private static boolean isNumber(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
