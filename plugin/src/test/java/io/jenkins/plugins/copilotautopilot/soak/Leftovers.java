package io.jenkins.plugins.copilotautopilot.soak;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * What an ended session must not leave on a machine, looked for in the real process table and file system: processes
 * of a session (the CLI, its tools, the watchdog, a {@code sleep}: they carry the run marker or durable-task's cookie,
 * or work in a workspace), the session's folders and durable-task's control folders in a workspace's {@code @tmp}, and
 * files that hold the token.
 */
final class Leftovers {
    private static final List<String> SESSION_VARIABLES = List.of(CliCommand.RUN_MARKER_VARIABLE + "=", "JENKINS_SERVER_COOKIE=");

    private Leftovers() {
    }

    /**
     * Live processes of a session (the run marker or durable-task's cookie in their environment) whose working folder or
     * command line is under {@code under}: "pid command line". Not the agents' JVMs, which carry neither.
     */
    static List<String> processes(Path under) {
        List<String> found = new ArrayList<>();
        File[] procs = new File("/proc").listFiles((d, name) -> name.chars().allMatch(Character::isDigit));
        for (File proc : procs == null ? new File[0] : procs) {
            long pid = Long.parseLong(proc.getName());
            if (pid == ProcessHandle.current().pid() || ProcessTable.isZombie(pid) || containerInit(proc)) {
                continue;
            }
            boolean session = false;
            try {
                String environ = new String(Files.readAllBytes(proc.toPath().resolve("environ")), StandardCharsets.UTF_8);
                session = Arrays.stream(environ.split("\0")).anyMatch(v -> SESSION_VARIABLES.stream().anyMatch(v::startsWith));
            } catch (IOException e) {
                // gone
            }
            boolean here;
            try {
                here = Files.readSymbolicLink(proc.toPath().resolve("cwd")).startsWith(under)
                        || ProcessTable.cmdline(pid).contains(under.toString());
            } catch (IOException | SecurityException e) {
                here = false; // gone
            }
            session &= here;
            if (session && !ProcessTable.isZombie(pid)) {
                found.add(pid + " " + ProcessTable.cmdline(pid).replace('\0', ' ').strip());
            }
        }
        return found;
    }

    /**
     * A container's first process (docker-workflow's {@code cat}, which keeps the container of {@code inside} up): the
     * container's, with the build's variables, not the session's. Left running when its build never came back to end
     * its {@code inside}; what runs beside it in the container is judged as every other process.
     */
    private static boolean containerInit(File proc) {
        try {
            for (String line : Files.readAllLines(proc.toPath().resolve("status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("NSpid:")) {
                    String[] ids = line.substring("NSpid:".length()).trim().split("\\s+");
                    return ids.length > 1 && ids[ids.length - 1].equals("1");
                }
            }
        } catch (IOException e) {
            // gone
        }
        return false;
    }

    /** Processes that work in one of {@code dirs} (a job's workspace and its {@code @tmp}, on each agent). */
    static List<String> processesIn(List<Path> dirs) {
        List<String> found = new ArrayList<>();
        for (Path dir : dirs) {
            if (Files.isDirectory(dir)) {
                for (String p : processes(dir)) {
                    long pid = Long.parseLong(p.substring(0, p.indexOf(' ')));
                    try {
                        if (Files.readSymbolicLink(Path.of("/proc", String.valueOf(pid), "cwd")).startsWith(dir)) {
                            found.add(p);
                        }
                    } catch (IOException e) {
                        // gone
                    }
                }
            }
        }
        return found;
    }

    /**
     * The session folders in the {@code @tmp} folders under {@code workspaces}: a session's launch folder and, beside it
     * with {@code @tmp}, the folder of its durable-task control folder. A durable-task control folder right in a
     * workspace's {@code @tmp} is an {@code sh} step's (docker-workflow runs {@code docker} commands through {@code sh}):
     * see {@link #shStepFolders}.
     */
    static List<Path> sessionFolders(Path workspaces) throws IOException {
        return inTmps(workspaces, "copilot-autopilot-");
    }

    /** The control folders of {@code sh} steps in the {@code @tmp} folders under {@code workspaces}. */
    static List<Path> shStepFolders(Path workspaces) throws IOException {
        return inTmps(workspaces, "durable-");
    }

    private static List<Path> inTmps(Path workspaces, String prefix) throws IOException {
        List<Path> found = new ArrayList<>();
        if (!Files.isDirectory(workspaces)) {
            return found;
        }
        try (Stream<Path> tmps = Files.list(workspaces)) {
            for (Path tmp : tmps.filter(p -> p.getFileName().toString().endsWith("@tmp")).toList()) {
                try (Stream<Path> inside = Files.list(tmp)) {
                    inside.filter(p -> p.getFileName().toString().startsWith(prefix)).forEach(found::add);
                } catch (IOException e) {
                    // deleted meanwhile
                }
            }
        }
        return found;
    }

    /**
     * What {@code folders} hold, for a violation's evidence: each with up to ten of its paths (relative to it), each
     * with the time it was last written (UTC), which tells what wrote it last against the build's and faults' times.
     */
    static List<String> described(List<Path> folders) {
        List<String> described = new ArrayList<>();
        for (Path folder : folders) {
            try (Stream<Path> inside = Files.walk(folder)) {
                described.add(folder + " " + inside.filter(p -> !p.equals(folder)).limit(10)
                        .map(p -> folder.relativize(p) + " @" + modified(p)).toList());
            } catch (IOException | java.io.UncheckedIOException e) {
                described.add(folder + " (gone meanwhile)");
            }
        }
        return described;
    }

    private static String modified(Path p) {
        try {
            return java.time.format.DateTimeFormatter.ISO_LOCAL_TIME.format(
                    Files.getLastModifiedTime(p).toInstant().atOffset(java.time.ZoneOffset.UTC));
        } catch (IOException e) {
            return "?";
        }
    }

    /** Copies {@code folders} (the CLI's logs in them tell when it last ran) under {@code into}, for a later look. */
    static void keep(List<Path> folders, Path into) {
        for (Path folder : folders) {
            Path to = into.resolve(folder.getParent().getFileName() + "--" + folder.getFileName());
            try (Stream<Path> inside = Files.walk(folder)) {
                for (Path p : inside.toList()) {
                    Path target = to.resolve(folder.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        Files.createDirectories(target.getParent());
                        Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                // gone meanwhile: what the violation says is all there is
            }
        }
    }

    /** Regular files under {@code root} that hold {@code secret} (files over 64 MB, the disk filler, skipped). */
    static List<Path> filesHolding(Path root, String secret) throws IOException {
        List<Path> found = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return found;
        }
        byte[] needle = secret.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                try {
                    if (Files.size(f) < 64L << 20 && contains(f, needle)) {
                        found.add(f);
                    }
                } catch (IOException e) {
                    // deleted meanwhile
                }
            }
        } catch (java.io.UncheckedIOException e) {
            // a folder deleted while walking: what was seen is checked
        }
        return found;
    }

    private static boolean contains(Path f, byte[] needle) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(f)) {
            bytes = in.readAllBytes();
        }
        outer:
        for (int i = 0; i + needle.length <= bytes.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (bytes[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
