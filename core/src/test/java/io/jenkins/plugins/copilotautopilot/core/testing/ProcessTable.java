package io.jenkins.plugins.copilotautopilot.core.testing;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Looks at the real process table (/proc), not at process handles, to prove nothing was left running. Its own
 * scan: it shares no code with the {@code ProcessTreeKiller} it checks.
 */
public final class ProcessTable {
    private ProcessTable() {
    }

    /** Live processes (other than zombies) that carry the run marker, described for an assertion message. */
    public static List<String> survivorsOf(String runId) {
        // two looks, their processes together: one look reads /proc entry by entry, so a short-lived process that ends
        // after the listing while the next one starts after it (a script's sleeps one after another) is missed by it
        java.util.Set<String> found = new java.util.LinkedHashSet<>(lookFor(runId));
        found.addAll(lookFor(runId));
        return new java.util.ArrayList<>(found);
    }

    private static List<String> lookFor(String runId) {
        String entry = CliCommand.RUN_MARKER_VARIABLE + "=" + runId;
        List<String> survivors = new java.util.ArrayList<>();
        java.io.File[] entries = new java.io.File("/proc").listFiles();
        if (entries == null) {
            throw new IllegalStateException("no /proc: these tests need Linux");
        }
        for (java.io.File dir : entries) {
            if (!dir.getName().chars().allMatch(Character::isDigit)) {
                continue;
            }
            long pid = Long.parseLong(dir.getName());
            if (pid == ProcessHandle.current().pid()) {
                continue;
            }
            String environ;
            try {
                environ = new String(Files.readAllBytes(dir.toPath().resolve("environ")), StandardCharsets.UTF_8);
            } catch (IOException e) {
                continue; // gone, or not ours
            }
            if (java.util.Arrays.asList(environ.split("\0")).contains(entry) && !isZombie(pid)) {
                survivors.add(pid + " " + cmdline(pid).replace('\0', ' '));
            }
        }
        return survivors;
    }

    /** Whether a live process runs whose command line, arguments joined by spaces, is {@code commandLine}. */
    public static boolean runningWith(String commandLine) {
        java.io.File[] entries = new java.io.File("/proc").listFiles((d, name) -> name.chars().allMatch(Character::isDigit));
        for (java.io.File dir : entries == null ? new java.io.File[0] : entries) {
            long pid = Long.parseLong(dir.getName());
            if (cmdline(pid).replace('\0', ' ').strip().equals(commandLine) && !isZombie(pid)) {
                return true;
            }
        }
        return false;
    }

    /** Live processes whose current directory is {@code dir} (the CLI and its tools would be), described as "pid command line". */
    public static List<String> workingIn(Path dir) {
        Path real;
        try {
            real = dir.toRealPath();
        } catch (IOException e) {
            return List.of(); // no such directory: nothing works in it
        }
        List<String> found = new java.util.ArrayList<>();
        java.io.File[] procs = new java.io.File("/proc").listFiles((d, name) -> name.chars().allMatch(Character::isDigit));
        for (java.io.File proc : procs == null ? new java.io.File[0] : procs) {
            long pid = Long.parseLong(proc.getName());
            try {
                if (Files.readSymbolicLink(proc.toPath().resolve("cwd")).equals(real) && !isZombie(pid)) {
                    found.add(pid + " " + cmdline(pid).replace('\0', ' ').strip());
                }
            } catch (IOException | SecurityException e) {
                // gone, or not ours
            }
        }
        return found;
    }

    /** The command line of a running process as the kernel holds it, NULs between arguments. */
    public static String cmdline(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether the process has ended: gone, or dead and not yet reaped by its parent. */
    public static boolean isZombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            int close = stat.lastIndexOf(')');
            return close > 0 && stat.length() > close + 2 && stat.charAt(close + 2) == 'Z';
        } catch (IOException e) {
            return true; // gone
        }
    }
}
